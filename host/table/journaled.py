# tapis table --journal FILE: the journal resumed as a board resumes it, with the event log and
# the meters beside it and the table's own identity and counter (a board's critical memory,
# kept in files on the host). Bad input: exit 2 through args.parser.error; a locked journal
# raises TableStopped (exit 3), unless --host-port lets a supervisor clear it.
import os

from tapis.firmware.eventlog.log import EventLog, beside
from tapis.firmware.journal.resume import load
from tapis.firmware.journal.store import FileStore, JournalError
from tapis.firmware.journal.writer import Journal
from tapis.firmware.meters import tally
from tapis.firmware.meters.holder import Meters
from tapis.host.table.identity import IdentityError, table_counter, table_identity


def open_journal(args):
    """The table's keyword arguments for args.journal: journal, events, counter (and
    args.device_key, args.resumes set)."""
    extra = {}
    d = os.path.dirname(os.path.abspath(args.journal))
    if not os.path.isdir(d):
        args.parser.error("--journal %s: no directory %s" % (args.journal, d))
    if os.path.isdir(args.journal):
        args.parser.error("--journal %s is a folder, not a journal file" % args.journal)
    try:  # each journal a device of its own, its key in the host's key store (issue 33.4)
        device, key = table_identity(args.journal)
        args.device_key = key  # (--host-port keys the operator's link with it)
    except IdentityError as e:
        args.parser.error("--journal %s: %s" % (args.journal, e))
    j = Journal(FileStore(args.journal), key=key, device=device)
    try:
        load(j, False)
    except JournalError as e:
        args.parser.error("--journal %s: %s" % (args.journal, e))
    if j.last is not None and j.last["game"] != args.game:
        args.parser.error("--journal %s: its unfinished game is %s, not %s (--game %s resumes it)"
                          % (args.journal, j.last["game"], args.game, j.last["game"]))
    args.resumes = j.last is not None
    extra["journal"] = Journal(FileStore(args.journal), key=key, device=device)
    try:  # the event log beside it, as a board keeps
        extra["events"] = events = EventLog(FileStore(beside(args.journal)), key, device)
    except JournalError as e:
        args.parser.error("--journal %s: its event log %s: %s" % (args.journal, beside(args.journal), e))
    if events.locked() and not args.host_port:
        from tapis.host.table.stopped import TableStopped, locked
        raise TableStopped("--journal %s: %s" % (args.journal, locked(
            events.locked(), "PATH with the table run as tapis table --journal %s --host-port PATH" % args.journal,
            events.open)))
    extra["journal"].meters = Meters(*tally.beside(args.journal), key=key)  # as on a board (tapis meters)
    extra["counter"] = table_counter(device)  # its secure element's, off its flash
    return extra
