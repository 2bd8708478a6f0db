# The pit's link to a table of its own floor (floor.FloorTable in floorproc.py's process): the
# TableLink a board's host interface will answer alike (link.py). Authenticated by the table's
# key; cut() pulls the cable out, cut_after drops it in the middle of a fetch (the tests).
from tapis.host.pit.link import LinkLost, LinkRefused, TableLink


class FloorLink(TableLink):
    def __init__(self, floor, index, key):
        self.floor, self.index, self.key, self.where = floor, index, key, "floor:%d" % (index + 1)
        self.up = False
        self.config = None
        self.cut_after = None  # tests: the link drops after this many more records

    def _ask(self, op, *args):
        if not self.up and op != "hello":
            raise LinkLost("%s: the link is down" % self.where)
        try:
            status, value = self.floor.request(op, self.index, *args)
        except (EOFError, OSError) as e:
            self.up = False
            raise LinkLost("%s: the floor has gone (%s)" % (self.where, e)) from None
        if status == "refused":
            raise LinkRefused(value)
        if status != "ok":
            raise ValueError(value)
        return value

    def connect(self):
        who = self._ask("hello", self.key)
        self.up, self.config = True, who["config"]
        return who

    def cut(self):
        self.up = False

    def fetch(self, records, events, limit=500):
        out = self._ask("fetch", records, events, limit)
        if self.cut_after is not None and len(out["records"]) > self.cut_after:
            # what came before the cut arrives; the rest is lost with the link
            out["records"], self.up, self.cut_after = out["records"][:self.cut_after], False, None
        return out

    def subscribe(self, wake):
        self.floor.wakes[self.index] = wake

    def act(self, action, who, credential, seed=None):
        return self._ask("act", action, who, credential, seed)

    def close(self):
        self.up = False
