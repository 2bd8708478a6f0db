# The pit's link to a table of its own floor (floor.FloorTable): the TableLink a board's host
# interface will answer alike (link.py). It reaches the table's memory directly, authenticated
# by the table's key; cut() pulls the cable out (the tests' link cut mid-stream).
import hmac

from tapis.host.pit.link import LinkLost, LinkRefused, TableLink
class FloorLink(TableLink):
    """The pit's link to a FloorTable: authenticated by the table's key (a pit without it is
    refused), and cut() as a cable pulled out (every call LinkLost until connect())."""

    def __init__(self, table, key, number):
        self.table, self.key, self.where = table, key, "floor:%d" % number
        self.up = False
        self.cut_after = None  # tests: the link drops after this many more records

    def _check(self):
        if not self.up:
            raise LinkLost("%s: the link is down" % self.where)

    def connect(self):
        if not hmac.compare_digest(self.key, self.table.key):
            raise LinkRefused("table %s refuses a host without its key" % self.table.device)
        self.up = True
        t = self.table
        return {"table": t.device, "game": t.game, "variant": t.variant, "state": t.state}

    def cut(self):
        self.up = False

    def records(self, since, limit=200):
        self._check()
        with self.table.lock:
            out = [(since + i + 1, at, r) for i, (at, r) in enumerate(self.table.deals[since:since + limit])]
        if self.cut_after is not None and len(out) > self.cut_after:
            out, self.up, self.cut_after = out[:self.cut_after], False, None  # the rest lost mid-stream
        return out

    def events(self, since, limit=200):
        self._check()
        with self.table.lock:
            return [dict(e) for e in self.table.logged[since:since + limit]]

    def status(self):
        self._check()
        t = self.table
        with t.lock:
            return {"state": t.state, "records": len(t.deals), "events": len(t.logged)}

    def subscribe(self, wake):
        self.table.watchers.append(wake)

    def act(self, action, who, credential, seed=None):
        self._check()
        return self.table.act(action, who, credential, seed)

    def close(self):
        self.up = False
