# The one seam between the pit and a table: TableLink. The pit asks a table only these
# things, so a table reached another way is one more class here (docs/pit.md):
#   floorlink.FloorLink  a table the pit started itself (tapis pit --floor N), in its floor's
#                    process (floorproc.py);
#   boardlink.BoardLink  a board's host interface over its link (issue 31.1, a pyserial URL),
#                    which answers the same calls with the board's own meters and event log.
# Sequence numbers are the table's: deal records count from 1, events count from 1, and the
# pit asks "since n" (what it stored last), so a link that drops loses nothing: the next
# connect() fetches from there again.

ACTIONS = ("enable", "disable", "clear", "verify")  # the supervisor's, each with the credential


class LinkLost(ConnectionError):
    """The table stopped answering (unplugged, rebooted, the link cut): reconnect later."""


class LinkRefused(PermissionError):
    """The table refused the pit (no key), or the supervisor's action (no credential)."""


class TableLink:
    """A table as the pit sees it. Every call may raise LinkLost."""

    where = ""  # how the pit reaches it, for the page ("floor:3", "/dev/ttyACM0", ...)

    def connect(self):
        """Open (or reopen) the link, authenticated: {"table": its device name, "game",
        "variant", "state": "running" | "locked" | "disabled"}; LinkRefused without its key."""
        raise NotImplementedError

    def fetch(self, records, events, limit=500):
        """What the table has after the sequence numbers given (the last record and the last
        event the pit stored), oldest first, at most `limit` of each, in one exchange:
        {"records": [(seq, ended_at epoch seconds, deal record dict)] (finished deals only,
         never a deal in play),
         "events": [{"seq", "at", "kind", "tilt", "detail", "who"}],
         "state": "running" | "locked" | "disabled",
         "meters": the board's own meters as tapis.meters/1 (host/memory/meters.py) with
                   "whole": True when they count exactly the records given up to the last
                   (read before and after them, alike), or None: the table gives none (the
                   pit's figures are then the records' sums: figures.py; checks.py),
         "gap": (first, last), deals after `records` the table no longer keeps (its journal
                compacted them away), the records given beginning after them; absent or None}."""
        raise NotImplementedError

    def subscribe(self, wake):
        """Call wake() (from any thread) whenever a record or an event is new: the pit fetches
        this table at once rather than at its next poll."""

    def act(self, action, who, credential, seed=None):
        """One of ACTIONS, asked by `who` with the supervisor's credential; the table answers
        with a line saying what it did (LinkRefused if it refuses the credential). verify
        takes a 128-bit seed (hex) and answers the software check's digest."""
        raise NotImplementedError

    def close(self):
        pass
