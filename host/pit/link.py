# The one seam between the pit and a table: TableLink. The pit asks a table only these
# things, so a table reached another way is one more class here (docs/pit.md):
#   floor.FloorLink  a table the pit started itself (tapis pit --floor N), in this process;
#   next:            a board's host interface over its link (issue 31.1, a pyserial URL), which
#                    answers the same calls with the board's own meters and event log.
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

    def records(self, since, limit=200):
        """The finished deals after sequence number `since`, oldest first, at most `limit`:
        [(seq, ended_at epoch seconds, deal record dict)]. Never a deal in play."""
        raise NotImplementedError

    def events(self, since, limit=200):
        """The table's events after `since`, oldest first: [{"seq", "at", "kind", "tilt",
        "detail", "who"}]."""
        raise NotImplementedError

    def status(self):
        """{"state": ..., "records": the last record's seq, "events": the last event's seq}."""
        raise NotImplementedError

    def meters(self):
        """The board's own meters, {seat: {"wagered", "won"}}, or None while the table has none
        to give (the pit then sums them from the deal records: figures.py)."""
        return None

    def subscribe(self, wake):
        """Call wake() (from any thread) whenever a record or an event is new: the pit fetches
        at once rather than at its next poll."""

    def act(self, action, who, credential, seed=None):
        """One of ACTIONS, asked by `who` with the supervisor's credential; the table answers
        with a line saying what it did (LinkRefused if it refuses the credential). verify
        takes a 128-bit seed (hex) and answers the software check's digest."""
        raise NotImplementedError

    def close(self):
        pass
