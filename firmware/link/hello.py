# What a Link (link.py) does seldom, out of the board's heap until it is needed: answer a
# HELLO (a device booted, or this end did), and tell a host tool a device's counters. The
# link loads it for that and unloads it after (compat.unload): it sits below link.py, which
# it never imports, and works on the Link it is handed through its public names
# (delivery.Delivery's and link.Link's: a session is the peer itself, a link.Session).
#
# Sessions with a paired device (docs/protocol.md, "Sessions"). Its key for each address it
# speaks on is pair_key(the table's device key, its type, the address, its serial): `tapis
# pair` provisions it; the controller derives it again from the HELLO, so it keeps no key
# table. The controller's HELLO is a challenge (a fresh nonce); the device answers with a
# REPLY carrying its own fresh nonce and 8 bytes of HMAC under the pairing key over the
# frame and the challenge. The session key is HMAC(pairing key, challenge || answer): new at
# each challenge, so nothing of an older session (or an older boot) opens in this one. A
# HELLO that does not prove the key changes nothing; a device's own HELLO (it booted)
# only makes the controller challenge it.
from .. import wire as W
from .delivery import later
from ..mac import derive, hmac_sha256, pads

TEST_KEY = b"tapis: the emulated table's device key (not a secret)"  # where none is provisioned


def pair_key(device_key, dtype, addr, serial):
    """A paired device's key for one address it speaks on (its seat is in it: a console
    paired for seat 1 cannot speak for seat 0)."""
    return derive(device_key, b"pair:" + bytes((dtype, addr)) + bytes(serial))


def _nonce():
    import os
    return os.urandom(8)


def begin(c, sk):
    """A new session on the link.Session c, under the session key sk: its counters start
    again."""
    c.sk, c.pads, c.tx, c.rc = sk, pads(sk), 0, 0


def challenge(link, addr, p, flags):
    """Link.hello to a paired peer: the v2 fields, a nonce, the serial and, for a device's
    REPLY, its MAC. The controller's is a challenge (its nonce kept until answered); a
    device's REPLY answers the challenge it holds and makes the session. flags None: a frame
    that opened in no session this end has begun (Link.take), while the controller's
    challenge is out, or a device has had no frame in the session it answered: the other end
    may be in a session this end has not, the answer to a challenge lost to noise. Counted
    apart (no attack: docs/reliability.md, "Noise is not an attack"), and a HELLO goes, at
    most once a poll: the challenge again, or a device's request for one."""
    if flags is None:
        link.count(p, "stale")
        if p.hello_ms == link.now:
            return
        p.hello_ms = link.now
        flags = 0
    seq = p.pending[0][0] if p.pending else (p.seq + 1) & 255
    nxt, sess, c = (p.seq + 1) & 255, link.session, p  # the peer is its session (link.Session)
    if not isinstance(link.keys, dict):  # the controller: always a challenge
        if c.nonce is None:
            c.nonce = _nonce()
        out = bytes((W.VERSION, link.device, 0, nxt, sess >> 8, sess & 255)) + c.nonce + link.serial
    elif not flags & W.HELLO_REPLY or c.nonce is None:
        out = bytes((W.VERSION, link.device, 0, nxt, sess >> 8, sess & 255)) + _nonce() + link.serial
    else:
        k = link.keys[addr]
        if c.answered is not None and c.answered[0] == c.nonce:  # the same challenge again (its
            mine = c.answered[1]  # answer was lost, or it was sent twice): the same answer
        else:
            mine = _nonce()
            c.answered = (c.nonce, mine)
            begin(c, hmac_sha256(k, c.nonce + mine))
        out = bytes((W.VERSION, link.device, flags, nxt, sess >> 8, sess & 255)) + mine + link.serial
        out += hmac_sha256(k, bytes((addr, seq, W.HELLO)) + out + c.nonce)[:8]
    link.control(addr, W.HELLO, seq, out)


def _forged(link, p):
    link.count(p, "forged")
    link.forged += 1  # (shown on the table display)


def _on_keyed(link, addr, p, seq, payload):
    """A HELLO from a paired peer: the v2 payload to go on with, or None (nothing changes)."""
    if len(payload) < 14:
        _forged(link, p)
        return None
    flags, nonce = payload[2], payload[6:14]
    c = p  # the peer is its session (link.Session)
    if isinstance(link.keys, dict):  # a device: the controller's challenge
        if flags & W.HELLO_REPLY or payload[0] != W.VERSION:
            _forged(link, p)
            return None
        if c.answered is not None and c.answered[0] == nonce and c.pads is not None:
            link.hello(addr, p, W.HELLO_REPLY)  # the challenge of this session again: its
            return None  # answer again, and nothing else changes (a replay moves no SEQ)
        c.nonce = nonce  # answered by the REPLY
        sess = payload[4] << 8 | payload[5]
        for a in link.peers:  # the controller rebooted: this device's other sessions are gone
            q = link.peers[a]
            if a != addr and q.pads is not None and q.session != sess:
                q.pads = None
                link.hello(a, q, 0)
        return payload[:6] + payload[14:]
    if not flags & W.HELLO_REPLY:  # a device greets: it proves nothing, it is challenged
        link.hello(addr, p, 0)  # (the challenge out again, if one is: its answer was lost)
        return None
    if c.nonce is None:  # no challenge out: a second answer to one, or an old one again
        link.count(p, "replayed")  # (not shown: it changes nothing, and comes of a slow bus too)
        return None
    serial, tag = payload[14:-8], payload[-8:]
    k = pair_key(link.keys, payload[1], addr, serial)
    if len(payload) < 22 or hmac_sha256(k, bytes((addr, seq, W.HELLO)) + payload[:-8] + c.nonce)[:8] != tag:
        _forged(link, p)  # (a device that answered another's challenge is asked
        return None  # again by the timers: it dies or asks for a session itself)
    begin(c, hmac_sha256(k, c.nonce + nonce))
    c.nonce = None  # answered: no REPLY opens this challenge again
    return payload[:6] + serial


def greeted(link, addr, p, seq, payload):
    """Link.greeted: a HELLO from `addr` (its peer p), of sequence number `seq`."""
    keyed = link.keys is not None and link.keyed(addr)
    if keyed:
        payload = _on_keyed(link, addr, p, seq, payload)
        if payload is None:
            return
    if len(payload) < 6:
        link.count(p, "dropped")
        return
    flags = payload[2]
    p.info = (payload[1], bytes(payload[6:]), payload[0])
    if payload[0] != W.VERSION:
        p.refused = "device 0x%02x speaks protocol version %d, this table %d" % (
            addr, payload[0], W.VERSION)
        p.pending = []
        link.count(p, "refused")
        link.control(addr, W.NAK, seq, bytes((W.NAK_VERSION,)))
        return
    p.refused = None
    rx = (seq - 1) & 255  # everything before its oldest unacknowledged frame was taken
    sess = payload[4] << 8 | payload[5]
    reset = p.session is not None and sess != p.session
    if reset:  # the peer was reset
        link.count(p, "resets")
        p.restored = None  # what the journal said was of its last session
        p.stream = None  # an answer to its last session stops (its next asks again)
        if p.greet:  # what was queued was for its last session: gone, sent afresh
            p.pending = []
            p.lost = True
    elif p.rx is not None and not (keyed and isinstance(link.keys, dict)):
        rx = later(rx, p.rx)  # the same peer: what was taken never moves backwards
    # (but a paired device's: a challenge is a new session, under which no older frame
    # opens, and it proves nothing, so one forged must not leave this end ahead for good)
    if not p.greet and p.rx is not None and rx != p.rx:
        p.lost = True  # (a device) frames skipped, or to come again: what it shows may be stale
    if not p.greet and (reset or rx != p.rx and p.took is None):  # the last frame it took,
        p.took = -1 if reset or p.rx is None else p.rx  # kept (-1: none since a HELLO's rx) so
        # that a HELLO moving rx back (their ACK lost) has none taken twice (delivery.take)
    p.session = sess
    p.rx = rx
    last = (payload[3] - 1) & 255  # its last frame sent: wait for it if not taken
    p.expect = None if later(rx, last) == rx else last
    if p.dead:
        p.dead = False
    if flags & W.HELLO_REPLY:
        if p.greet and not p.helloed:
            p.helloed = True
            p.hellos = 0
            now = link.now
            for f in p.pending:  # what was held back goes now
                link.put(addr, f[1])
                f[2] = now
                f[3] = 0  # kept through a death: its tries start again
        return
    # greeted by the other end (it was reset): answer for this address and for every
    # address this end sends on, then send again all that is unacknowledged
    link.hello(addr, p, W.HELLO_REPLY)
    for a in link.peers:
        q = link.peers[a]
        if a != addr and q.seq and not keyed:  # (a paired device's others: _on_keyed)
            link.hello(a, q, W.HELLO_REPLY)
    for a in link.peers:
        q = link.peers[a]
        q.quiet = False
        for f in q.pending:
            f[3] = 0  # the other end was reset: these are not failures of this link
        if q.pending:
            link.resend(a, q)


def stats(link, addr):
    """Link.stats: per-device error counters and what its HELLO said."""
    p = link.peer(addr)
    out = {k: p.errors.get(k, 0) for k in ("crc", "naks_sent", "naks_got", "retransmits", "duplicates",
                                            "dead", "refused", "dropped", "resets")}
    out["crc"] = link.crc
    for k in ("forged", "replayed", "stale"):
        out[k] = p.errors.get(k, 0)
    out["alive"] = not p.dead
    out["refused"] = p.refused
    if p.info:
        out["type"], out["serial"], out["version"] = p.info[0], p.info[1].decode(), p.info[2]
    return out
