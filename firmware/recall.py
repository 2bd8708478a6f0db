# The controller's answer to a host tool's RECALL (tapis recall over a link), out of the
# board's heap until one comes: controller.py loads it for that and unloads it after.
from . import wire as W


def _recall(self, link, addr, last):
    """Controller._recall (self: the controller): answer RECALL [n], each of the last n
    games as JSON, in RECORD frames of [game index, games, chunk index, chunks] + up to
    RECORD_CHUNK bytes."""
    if last == 0:
        self._error("recall", "device 0x%02x asked for the last 0 games" % addr)
    games = self.journal.games(last) if self.journal is not None and last > 0 else []
    if not games:
        link.send(addr, W.RECORD, bytes((0, 0, 0, 0)))
    for i, g in enumerate(games):
        n = (len(g) + W.RECORD_CHUNK - 1) // W.RECORD_CHUNK
        for k in range(n):
            link.send(addr, W.RECORD, bytes((i, len(games), k, n)) +
                      g[k * W.RECORD_CHUNK:(k + 1) * W.RECORD_CHUNK])
