# Memory that never goes backwards (issue 45.3). A board's critical memory only moves on: its
# meters' generation (the copies' commit count) grows at every commit, a RAM clear included;
# its deals meter grows until a RAM clear, which begins a new event log whose first entry is
# `ram-clear`. A board whose memory was rolled back (an old copy of its flash written back,
# to hide what was played since) shows a lower reading of one of them than the pit already
# saw. The pit keeps the highest readings per table (pit_table.seen_generation, seen_deals),
# the event numbers it stored and the deals it stored (the journal's head: a board whose
# NOTICE says fewer deals over than the pit holds had its journal put back); a lower one is a
# pit alert (kind `backwards`), stored and pushed to the pages at once, and the table is
# marked suspect until a supervisor acknowledges it (web.py's `acknowledge`, recorded with who).
from tapis.host.pit import checks

KIND = "backwards"


def meters(s, t, m, now):
    """The board's meters `m` against the highest seen: [alerts]."""
    gen, deals = m["generation"], m["deals"]
    said = None
    if gen < t.seen_generation:
        said = "its meters went back: generation %d, the pit saw %d" % (gen, t.seen_generation)
    elif gen == t.seen_generation and deals < t.seen_deals:
        said = "its meters went back: %d deals at generation %d, the pit saw %d" % (deals, gen, t.seen_deals)
    if said:
        return went_back(s, t, said, now)
    t.seen_generation, t.seen_deals = gen, deals
    return []


def journal(s, t, over, stored, now):
    """The board's journal holds `over` deals, fewer than the `stored` the pit holds of it since
    its last RAM clear (which numbers deals from 1 again, told apart before: ingest.begun_anew):
    its journal was put back. [alerts]; ingest stores the deals it plays from there after the
    pit's last, as it does after a RAM clear."""
    return went_back(s, t, "its journal went back: %d deals over, the pit stored %d" % (over, stored), now)


def began_again(s, t, events, now):
    """The first events of a board's log begun anew (ingest's begun_anew): a RAM clear's log
    begins with `ram-clear`; any other is the old log again, rolled back: [alerts]."""
    if events and events[0]["seq"] == 1 and events[0]["kind"] != "ram-clear":
        return went_back(s, t, "its event log went back to event %d (%s) with no RAM clear"
                         % (events[-1]["seq"], events[0]["kind"]), now)
    return []


def went_back(s, t, detail, now):
    """The alert, once: a table already suspect is not alerted again at every reading."""
    if t.suspect:
        return []
    t.suspect = detail
    return [checks.alert(s, t, KIND, detail, now)]


def acknowledge(s, t):
    """A supervisor has looked: the table is no longer suspect (its alerts stay), and the pit
    takes the board's memory as it reads it next as where it stands."""
    was, t.suspect = t.suspect, ""
    t.seen_generation = t.seen_deals = 0
    return "acknowledged: %s" % was if was else "nothing to acknowledge"
