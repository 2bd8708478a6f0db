# The operator's supervisor device, emulated: a device of its own type and address on the
# bus (wire.SUPERVISOR, DEV_SUPERVISOR) whose RECALL the table answers (SPEC §8: the
# supervisor's credential). Ordinary panels' supervisor presses and RECALLs are refused
# and counted (firmware/table/controller.py _credential).
import json

from tapis.firmware import wire as W
from tapis.firmware.link.link import Link
from tapis.firmware.offboard.device import BusDevice
from tapis.simulator.table.devices import RTO_MS, TEST_KEY, paired


class EmuSupervisor:
    """On the table's bus (`port`: an end of it). `recall(n)` asks for the last n games;
    `games` holds them once every RECORD chunk has come (None until then)."""

    def __init__(self, port, serial=b"EMU-SUPERVISOR", bus=True, key=TEST_KEY):
        """bus: on the table's bus, paired with the table whose device key is `key`, as
        every bus device is (else a link of its own, the operator's)."""
        if bus:
            self.link = BusDevice(port, W.DEV_SUPERVISOR, serial, (W.SUPERVISOR,), rto_ms=RTO_MS,
                                  keys=paired(W.DEV_SUPERVISOR, (W.SUPERVISOR,), serial, key))
        else:
            self.link = Link(port, W.DEV_SUPERVISOR, serial, rto_ms=RTO_MS, speaks=(W.SUPERVISOR,))
        self.chunks, self.total, self.games = {}, None, None
        self.checked = None

    def command(self, code, arg=0):
        """A supervisor's command of one byte (firmware/operator/commands.py: VOID, RESPONSIBLE, GIVE)."""
        self.link.send(W.SUPERVISOR, W.BUTTON, bytes((code, arg)))

    def limits(self, *values):
        """SUPERVISE [LIMITS] + 2 bytes each of `values`. Club: (bank, first, second), the
        limited bank's size and the first and second punters' minimums, from the next bank
        laid; écarté: (stake, max_bet), the stake a game and the gallery's largest bet, from
        the next game begun."""
        from tapis.firmware.operator.commands import LIMITS
        self.link.send(W.SUPERVISOR, W.SUPERVISE, bytes((LIMITS,)) + b"".join(
            int(v).to_bytes(2, "big") for v in values))

    def authorise(self, seat):
        """Club, supervised: seat `seat` may hold a responsible bank (its next or present one)."""
        from tapis.firmware.operator.commands import RESPONSIBLE
        self.command(RESPONSIBLE, seat)

    def give(self, seat):
        """Club: the bank to seat `seat`, out of rotation, at a banker's decision."""
        from tapis.firmware.operator.commands import GIVE
        self.command(GIVE, seat)

    def verify(self, seed):
        """VERIFY [seed]: the seeded software check (firmware/verify/swcheck.py); `checked` holds
        the CHECKED payload once it comes (None until then)."""
        self.checked = None
        self.link.send(W.SUPERVISOR, W.VERIFY, bytes(seed))

    def set_time(self, secs):
        """TIME [UTC seconds]: the board's clock set (firmware/operator/recall.py clock), logged."""
        self.link.send(W.SUPERVISOR, W.TIME, int(secs).to_bytes(4, "big"))

    def recall(self, last):
        self.chunks, self.total, self.games = {}, None, None
        self.link.send(W.SUPERVISOR, W.RECALL, bytes((last,)))

    def step(self, now_ms):
        for _a, _s, ftype, payload in self.link.poll(now_ms):
            if ftype == W.CHECKED:
                self.checked = bytes(payload)
            if ftype != W.RECORD or len(payload) < 4:
                continue
            i, n, k, kn = payload[0], payload[1], payload[2], payload[3]
            if n == 0:
                self.games = []
                continue
            self.total = n
            self.chunks.setdefault(i, {})[k] = (kn, bytes(payload[4:]))
            if len(self.chunks) == n and all(len(c) == next(iter(c.values()))[0] for c in self.chunks.values()):
                self.games = [json.loads(b"".join(c[j][1] for j in sorted(c)))
                              for _i, c in sorted(self.chunks.items())]
