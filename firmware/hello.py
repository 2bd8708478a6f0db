# The greeting half of the reliable link (link.py): HELLO and sessions. The controller's
# end greets each device with HELLO (protocol version, device type, flags, its next
# sequence number, its session, its serial); a device with another version is refused.
# A session is a number drawn at each boot, so a HELLO with a new session means the peer
# was reset: what was queued for it, and where its sequence numbers stand, start again.
from . import wire as W

_made = [0]


def new_session():
    """A number that differs for each Link made (and, on a board, each boot)."""
    _made[0] += 1
    try:
        import os
        r = os.urandom(2)
        return (r[0] << 8 | r[1]) ^ _made[0]
    except (ImportError, AttributeError, NotImplementedError, OSError):
        return _made[0] & 0xFFFF


def later(a, b):
    """The later of two sequence numbers (modulo 256, within half the space)."""
    return a if (a - b) & 255 < 128 else b


class Port:
    """What a link writes to and reads from: a UART, a pyserial port or a pipe."""

    def read(self):
        return b""

    def write(self, data):
        return len(data)


class Greeting:
    """HELLO for Link: mixed into it, on its peers and port."""

    # what Link provides
    session = 0
    device = 0
    serial = b""
    now = 0
    peers: dict
    port: Port

    def _control(self, addr, ftype, seq, payload=b""):
        raise NotImplementedError

    def _count(self, p, what):
        raise NotImplementedError

    def _resend(self, addr, p):
        raise NotImplementedError

    def _hello(self, addr, p, flags):
        base = p.pending[0][0] if p.pending else (p.seq + 1) & 255
        sess = self.session
        self._control(addr, W.HELLO, base, bytes((W.VERSION, self.device, flags,
                                                  (p.seq + 1) & 255, sess >> 8, sess & 255))
                      + self.serial)

    def _on_hello(self, addr, p, seq, payload):
        if len(payload) < 6:
            self._count(p, "dropped")
            return
        flags = payload[2]
        p.info = (payload[1], bytes(payload[6:]), payload[0])
        if payload[0] != W.VERSION:
            p.refused = "device 0x%02x speaks protocol version %d, this table %d" % (
                addr, payload[0], W.VERSION)
            p.pending = []
            self._count(p, "refused")
            self._control(addr, W.NAK, seq, bytes((W.NAK_VERSION,)))
            return
        p.refused = None
        rx = (seq - 1) & 255  # everything before its oldest unacknowledged frame was taken
        sess = payload[4] << 8 | payload[5]
        if p.session is not None and sess != p.session:  # the peer was reset
            p.rebooted = True
            if p.restored is not None:
                rx = later(rx, p.restored)
            if p.keep and p.greet:  # what was kept was for its last session: gone
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
                now = self.now
                for f in p.pending:  # what was held back goes now
                    self.port.write(f[1])
                    f[2] = now
                    f[3] = 0  # kept through a death: its tries start again
            return
        # greeted by the other end (it was reset): answer for this address and for every
        # address this end sends on, then send again all that is unacknowledged
        self._hello(addr, p, W.HELLO_REPLY)
        for a in self.peers:
            q = self.peers[a]
            if a != addr and q.seq:
                self._hello(a, q, W.HELLO_REPLY)
        for a in self.peers:
            q = self.peers[a]
            q.quiet = False
            for f in q.pending:
                f[3] = 0  # the other end was reset: these are not failures of this link
            if q.pending:
                self._resend(a, q)

    def _wake(self):
        """The other end is alive: a device end that gave up resending starts again."""
        for a in self.peers:
            q = self.peers[a]
            if q.quiet:
                q.quiet = False
                for f in q.pending:
                    f[3] = 0
                self._resend(a, q)
