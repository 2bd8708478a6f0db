# What a Link (link.py) does seldom, out of the board's heap until it is needed: answer a
# HELLO (a device booted, or this end did), and tell a host tool a device's counters. The
# link loads it for that and unloads it after (compat.unload).
from . import wire as W
from .link import later



def _on_hello(link, addr, p, seq, payload):
    """Link._on_hello: a HELLO from `addr` (its peer p), of sequence number `seq`."""
    if len(payload) < 6:
        link._count(p, "dropped")
        return
    flags = payload[2]
    p.info = (payload[1], bytes(payload[6:]), payload[0])
    if payload[0] != W.VERSION:
        p.refused = "device 0x%02x speaks protocol version %d, this table %d" % (
            addr, payload[0], W.VERSION)
        p.pending = []
        link._count(p, "refused")
        link._control(addr, W.NAK, seq, bytes((W.NAK_VERSION,)))
        return
    p.refused = None
    rx = (seq - 1) & 255  # everything before its oldest unacknowledged frame was taken
    sess = payload[4] << 8 | payload[5]
    if p.session is not None and sess != p.session:  # the peer was reset
        link._count(p, "resets")
        p.restored = None  # what the journal said was of its last session
        if p.greet:  # what was queued was for its last session: gone, sent afresh
            p.pending = []
            p.lost = True
    elif p.rx is not None:  # the same peer: what was taken never moves backwards
        rx = later(rx, p.rx)
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
                link._put(addr, f[1])
                f[2] = now
                f[3] = 0  # kept through a death: its tries start again
        return
    # greeted by the other end (it was reset): answer for this address and for every
    # address this end sends on, then send again all that is unacknowledged
    link._hello(addr, p, W.HELLO_REPLY)
    for a in link.peers:
        q = link.peers[a]
        if a != addr and q.seq:
            link._hello(a, q, W.HELLO_REPLY)
    for a in link.peers:
        q = link.peers[a]
        q.quiet = False
        for f in q.pending:
            f[3] = 0  # the other end was reset: these are not failures of this link
        if q.pending:
            link._resend(a, q)


def stats(link, addr):
    """Link.stats: per-device error counters and what its HELLO said."""
    p = link._peer(addr)
    out = {k: p.errors.get(k, 0) for k in ("crc", "naks_sent", "naks_got", "retransmits", "duplicates",
                                            "dead", "refused", "dropped", "resets")}
    out["crc"] = link.crc
    out["alive"] = not p.dead
    out["refused"] = p.refused
    if p.info:
        out["type"], out["serial"], out["version"] = p.info[0], p.info[1].decode(), p.info[2]
    return out
