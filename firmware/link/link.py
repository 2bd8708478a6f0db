# The Link (docs/protocol.md, "The reliable link"): the reliable delivery of delivery.py,
# spoken in sessions to a paired device (keys=...; docs/protocol.md, "Sessions"): every
# frame to it but the link's own (ACK, NAK, HELLO, POLL) is sealed as it goes on the wire
# (a counter and a MAC under the session key) and opened as it comes in, before anything
# else looks at it; a SHOW to a seat's display travels encrypted. The controller sees a
# device only through the health API below.
#
# HELLO is the seldom path: a device booted, or this end did. What answers it, and the
# challenge that makes a session, are hello.py's, loaded for that moment and unloaded after
# (compat.unload): on a board its bytecode is heap. It works on the Link it is handed
# (its sessions among it: each peer a Session) and never imports this module.
import hashlib

from .. import wire as W
from ..compat import const, unload
from .delivery import Delivery
from .peer import Peer
from .frames import encode
from ..mac import keyed

_RTO_MS = const(40)  # resend what is unacknowledged after this long
_RETRIES = const(6)  # resends of one frame before the device is declared dead
_HEARTBEAT_MS = const(500)  # PING a device that has been quiet this long
_TILT_MS = const(2000)  # the communication tilt lasts this long after the last frame refused
# A sealed frame ends with its counter's low byte (the receiver takes the next counter
# with that byte: the MAC covers all 32 bits, so an old frame never passes) and a MAC of
# 4 bytes, as bus-constrained protocols truncate it (AUTOSAR SecOC 24-64 bits, Zigbee's
# MIC-32). A forger can only guess it online (the session key never leaves the two
# ends), one frame in 2^32, each miss counted and shown on the table display. A 2-byte
# counter and 8-byte MAC on every frame put an écarté deal at 211 ms of bus time; this,
# with the link's control frames plain (Link.seal), at 146 ms: within issue 11's 150.
_TAG = const(4)


def _ctr(c):
    return (c & 0xFFFFFFFF).to_bytes(4, "big")


def _mac(ch, head, body, c):
    """_TAG bytes of HMAC-SHA256 under ch's session key over a frame and its counter."""
    return keyed(ch.pads, head, body + _ctr(c))[:_TAG]


def _crypt(key, c, data):
    """XOR with the keystream sha256(key || counter || block): both ways alike (as ints: a
    byte at a time took about 4 % of an emulated écarté deal)."""
    n = len(data)
    kc, ks = key + _ctr(c), b""
    for i in range(0, n, 32):
        ks += hashlib.sha256(kc + bytes((i >> 5,))).digest()
    return (int.from_bytes(data, "big") ^ int.from_bytes(ks[:n], "big")).to_bytes(n, "big")


def _secret(addr, t):
    # a seat's view (its hand); the shoe's cards, and its faults, which name cards
    return t == W.SHOW and addr != W.TABLE_DISPLAY or addr == W.SHOE and (t == W.CARD or t == W.FAULT)


class Session(Peer):
    """What a Link knows of an address: delivery's Peer, and this end's session with a
    paired device there (hello.py begins it). The defaults are the class's, as in Peer: an
    instance holds only what was set (one object an address, not a second map of them)."""

    pads = None  # type: tuple | None  # the session key's HMAC pads: None, no session
    sk = None  # type: bytes | None  # the session key
    tx = 0  # the counter of the last frame sealed to it in this session
    rc = 0  # ... and of the last one taken from it
    nonce = None  # type: bytes | None  # the challenge this end sent, or answers
    answered = None  # type: tuple | None  # (challenge, answer) of this session (device end)


class Link(Delivery):
    """One serial link: frames out, frames in. `device` and `serial` are what this end
    says in HELLO."""

    PEER = Session

    def __init__(self, port, device=W.DEV_CONTROLLER, serial=b"", rto_ms=_RTO_MS,
                 retries=_RETRIES, heartbeat_ms=_HEARTBEAT_MS, session=None, speaks=(),
                 max_in=W.MAX_PAYLOAD, keys=None):
        """speaks: the addresses a device speaks as; it announces itself on them with
        HELLO when it starts, so a controller notices that it was reset (a new session)
        and takes its frames from the first again. max_in: the longest payload taken
        (the board takes only short frames from devices: frames.py bounds its work so).
        keys: the table's device key (bytes: the controller's end derives each bus
        device's pairing key, hello.pair_key), or a paired device's {address: key}."""
        Delivery.__init__(self, port, rto_ms, retries, heartbeat_ms, speaks, max_in)
        if session is None:  # a number drawn for each Link made (so, on a board, at each boot)
            try:
                import os
                r = os.urandom(2)
                session = r[0] << 8 | r[1]
            except (ImportError, AttributeError, NotImplementedError, OSError):
                session = id(object())  # no random source: at least not the last one's
        self.session = session & 0xFFFF
        self.device, self.serial = device, bytes(serial)
        self.keys = keys
        self.own = None  # type: int | None  # the address of a link of its own keyed too (bus.route_for: the shoe's)
        self.forged = 0  # frames refused as forged, replayed or out of session
        self.tilts, self.tilt_at, self.told = 0, -_TILT_MS, 0  # the communication tilt (tilt())

    def keyed(self, addr):
        """Is `addr` a paired device's, spoken to only in sessions?"""
        k = self.keys
        if k is None:
            return False
        if isinstance(k, dict):
            return addr in k
        # the bus devices and the supervisor's, whose address is its credential; the shoe on
        # its own wire (as trusted as the bus: its cards sealed and encrypted)
        return W.PANEL <= addr <= W.TABLE_DISPLAY or addr == W.SUPERVISOR or addr == self.own

    # ---- the wire: sealed to a paired device, opened from it ---------------------------
    def seal(self, f):
        """A frame as it goes on the wire: to a paired device, its counter and MAC (a
        seat's view encrypted); None while there is no session (it is sent again after)."""
        addr, t = f[1], f[3] & 0x7F
        # ACK, NAK, HELLO (its own MAC) and POLL go plain: a forged one can only delay or
        # drop frames, which the link resends or resynchronises, as jamming the bus can;
        # sealing them cost an écarté deal 45 ms of bus time (docs/security.md)
        if self.keys is None or t < W.PING or t == W.POLL or not self.keyed(addr):
            return f
        ch = self.peers.get(addr)
        if ch is None or ch.pads is None:
            return None
        ch.tx = c = ch.tx + 1
        body = f[6:-2]
        if _secret(addr, t):
            body = _crypt(ch.sk, c, body)
        return encode(addr, f[2], f[3], body + _ctr(c)[3:] + _mac(ch, bytes((addr, f[2], t)), body, c))

    def take(self, addr, seq, ftype, payload, out):
        """Delivery.take, a paired device's frame opened first: one that does not open
        (forged, replayed or out of session) is counted, and nothing else looks at it (its
        sequence number included)."""
        t = ftype & 0x7F
        k = self.keys
        mine = k is not None and self.keyed(addr)  # (asked once: a frame's hot path)
        if k is not None and not mine and not isinstance(k, dict):
            # a keyed table's link hears only its paired devices: a frame as any other address
            # is refused (a peer is made for a named one only: a forger's 256 would be heap)
            if addr == W.SHOE or addr == W.CONTROLLER or addr == W.HOST:
                self.count(self.peer(addr), "forged")
            self.forged += 1
            return
        if mine and t >= W.PING and t != W.POLL:
            ch = self.peers.get(addr)
            n = len(payload) - 1 - _TAG
            why = "forged"
            if ch is not None and ch.pads is not None and n >= 0:
                last = ch.rc
                c = last & ~0xFF | payload[n]  # the counter's low byte: the next one after last
                if c <= last:
                    c += 0x100
                head, body, tag = bytes((addr, seq, t)), payload[:n], payload[n + 1:]
                if _mac(ch, head, body, c) == tag:
                    ch.rc = c
                    why = None
                    payload = _crypt(ch.sk, c, body) if _secret(addr, t) else body
                elif c > 0x100 and _mac(ch, head, body, c - 0x100) == tag:
                    why = "replayed"
            if why is not None:
                if ch is not None and ((ch.pads is None or ch.rc == 0) if isinstance(k, dict) else ch.nonce is not None):
                    return self.hello(addr, ch, None)  # stale, no attack: hello.challenge
                self.count(self.peer(addr), why)
                self.forged += 1
                return
        Delivery.take(self, addr, seq, ftype, payload, out)

    def resend(self, addr, p):
        if not p.greet and self.keys is not None and self.keyed(addr):
            c = self.peers.get(addr)
            if c is None or c.pads is None:
                self.hello(addr, p, 0)  # a paired device with no session yet asks for one
        Delivery.resend(self, addr, p)

    def die(self, addr, p):
        Delivery.die(self, addr, p)
        if not p.greet and p.pads is not None:  # a device that gave up: its session ends
            p.pads = None  # (it asks for a new one when it hears the controller again)

    # ---- HELLO: hello.py, loaded for it and unloaded ------------------------------------
    def hello(self, addr, p, flags):
        """HELLO to `addr`: where this end's frames to it stand (its sequence number, its
        session drawn at boot); to a paired device, a challenge or its answer (hello.py)."""
        if self.keys is not None and self.keyed(addr):
            from .hello import challenge  # nonces and the pairing key's MAC: loaded, then unloaded
            challenge(self, addr, p, flags)
            unload("link.hello")
            return
        sess = self.session
        self.control(addr, W.HELLO, p.pending[0][0] if p.pending else (p.seq + 1) & 255,
                     bytes((W.VERSION, self.device, flags, (p.seq + 1) & 255, sess >> 8, sess & 255)) + self.serial)

    def greeted(self, addr, p, seq, payload):
        from .hello import greeted  # a device's boot is rare in play: loaded for it, then unloaded
        greeted(self, addr, p, seq, payload)
        unload("link.hello")

    # ---- the health API: all the controller knows of a device --------------------------
    def greet(self, addr, keep=False):
        """Greet the device at `addr` with HELLO and watch it with heartbeats. keep: what
        is queued for it is not dropped when it is declared dead but held back and sent
        after it answers HELLO again, each frame exactly once (the shoe: a DRAW dropped
        with the queue cannot be told from one it took, and asking again over-draws)."""
        p = self.peer(addr)
        p.greet, p.keep = True, keep

    def restore(self, addr, seq, session=None):
        """After a reset: the journal says frame `seq` from `addr` (of its `session`) was
        already taken. A HELLO with another session is a device rebooted since: it counts
        afresh."""
        p = self.peer(addr)
        p.restored = p.rx = seq
        p.session = session

    def ready(self, addr):
        """The device answered HELLO, is alive and everything it had in flight arrived."""
        p = self.peers.get(addr)
        if p is None or not p.helloed or p.dead or p.refused:
            return False
        return p.expect is None

    def alive(self, addr):
        p = self.peers.get(addr)
        return p is None or not p.dead

    def refused(self, addr):
        """Why the device was refused (its protocol version), or None."""
        p = self.peers.get(addr)
        return p.refused if p is not None else None

    def heard(self, addr):
        """When a frame of it last came in (ms), 0 if never."""
        p = self.peers.get(addr)
        return p.heard if p is not None else 0

    def lost(self, addr):
        """True once after what was queued for a live device was lost (it was declared
        dead and came back, or it was reset): what it missed must be sent again."""
        p = self.peers.get(addr)
        if p is None or not p.lost or p.dead:
            return False
        p.lost = False
        return True

    def tilt(self, now):
        """The communication tilt: True while frames are being refused (one in the last
        _TILT_MS); `tilts` counts each that began. Asked at each health check."""
        if self.forged != self.told:
            if now - self.tilt_at >= _TILT_MS:
                self.tilts += 1
            self.told, self.tilt_at = self.forged, now
        return now - self.tilt_at < _TILT_MS

    def stats(self, addr):
        """Per-device error counters and what its HELLO said."""
        from .hello import stats  # the host's question: the board's play never asks it
        return stats(self, addr)
