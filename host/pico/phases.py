"""Where the emulated Pico's resume goes, phase by phase (issue 32 point 5): the journal of
host/pico/measure.py measure_resume put on the board, then main.py's boot (firmware/boot/main.py
and boot.py build) replayed step by step from its raw REPL, each step timed on the board
(time.ticks_us, emulated time). The table itself never starts: the figures are the boot's
pieces, their sum beside measure_resume's power-on-to-playing.

    PYTHONPATH=. python -m tapis.host.pico.phases [GAME [SEED]]    (the product image built from
    $TAPIS_MICROPYTHON_SRC and $TAPIS_PICOTOOL_SRC, else $TAPIS_PICO_IMAGE)
"""
import json
import os
import sys

# main.main() and boot.build() (with its _attach and _seats), their steps apart, as the board
# runs them (frozen modules): kept in step with them by hand
SCRIPT = r"""
import sys, time, gc
for m in [m for m in sys.modules if m.startswith('firmware') or m == 'tapis_image']:
    del sys.modules[m]
gc.collect()
_t = [time.ticks_us()]
_out = []
def T(name):
    t = time.ticks_us()
    _out.append((name, time.ticks_diff(t, _t[0]) // 1000))
    _t[0] = time.ticks_us()
from tapis_image import PUBLIC_KEY
from firmware.verify.manifest import check
T('import manifest')
ok, msg = check('/', PUBLIC_KEY, True)
T('manifest check (image + files)')
from firmware.compat import unload
unload('verify.manifest', 'verify.wots', 'verify.xip', 'verify')
from firmware.link import boards
from firmware.link.bus import BusMaster
from firmware.journal.writer import Journal
from firmware.link.link import Link
from firmware.journal.store import FileStore
from machine import UART, Pin
from firmware.boot import build as boot, config, selftest
T('import main, boot, config, selftest')
game, options = config.load(boards.CONFIG)
raw = open(boards.CONFIG, 'rb').read()
policy, plain = config.tilts(raw), config.text_shoe(raw)
T('config')
store = FileStore(boards.JOURNAL)
from firmware.boot.powerup import compacted, device, make_room, open_events
key, ident = device()
from firmware.meters.holder import Meters
meters = Meters('/journal.meters.a', '/journal.meters.b', key=key)
T('device, meters')
full, dropped = make_room(store, key, ident, meters)
T('make_room (statvfs)')
events = open_events(FileStore(boards.EVENTS), key, ident, 0, quick=True)
T('event log open (%d entries)' % events.count)
failed = selftest.run(None, str(game))
T('self-test')
def _uart(spec):
    uid, tx, rx, de, baud = spec
    u = UART(uid, baudrate=baud, tx=Pin(tx), rx=Pin(rx), rxbuf=boards.RX_BUFFER)
    return boards.UARTPort(u, Pin(de, Pin.OUT) if de is not None else None), baud
cfg = boards.BOARDS['rp2']
shoe, baud = _uart(cfg['shoe'])
bus, _b = _uart(cfg['bus'])
rto = boards.rto_ms(baud)
route = boards.route_for(Link(shoe, rto_ms=rto, max_in=boards.MAX_IN), BusMaster(bus, baud, rto_ms=rto, max_in=boards.MAX_IN, keys=key), text_shoe=plain)
T('UARTs, route')
journal = Journal(store, held=True, key=key, device=ident)
journal.meters = meters
from firmware.eventlog.walk import finish
finish(journal, events)
T('journal open, eventwalk.finish')
from firmware.journal import resume as R
found, torn, deal, trust, mark = R.starts(store)
T('(load, below, walks this first) starts: the framing only, %d games' % len(found))
R.load(journal, False, False, True)
T('load (defer, as main.py): the framing, the last game hashed from the seal before it, read from the last seal')
game_, table, why, voided = boot.resume(journal, False)
T('resume: rebuild (%d)' % journal.count)
boot.configured(journal, str(game), options, config.signer() or 'unsigned', None if journal.last is None else journal.last)
T('configured')
from firmware.table.controller import Controller
ctrl = Controller(table, route, journal, resumed=True, keep_log=False)
from firmware.table.packcount import resumed as counted
counted(ctrl, voided)
ctrl.events, ctrl.locked = events.park(), events.locked()
T('controller')
meters.seats = ctrl.table.SEATS
meters.on_event, meters.on_tilt = ctrl.event, ctrl.tilt
meters.commit(journal, power=True)
T('meters: copies checked, power-up counted')
print('PHASES', ok, msg[:40], __import__('json').dumps(_out))
"""


def phases(seed=7, game="piquet", image=None, done=None, log=print, script=SCRIPT, entries=0):
    """[(phase, emulated ms)] of the boot from a full journal, and measure_resume's own figure."""
    from tapis.firmware.link.boards import JOURNAL
    from tapis.host.pico.measure import event_log, full_journal, meters_at_end, resumed_game
    from tapis.host.pico.flash import stopped
    from tapis.host.pico.table import PicoTable

    with PicoTable(seed, game, image=image, log=lambda line: None) as t:
        key, ident = t.identity()
        data, events = full_journal(seed, game, done=done, key=key, device=ident)
        files = {JOURNAL: data}
        files["/journal.meters.a"], files["/journal.meters.b"] = meters_at_end(data, key, ident)
        if entries:  # an event log of that many entries (a board's after many power-ups)
            files["/events.bin"] = event_log(key, ident, entries)
        t.put_files(files)
        t.game, t.board_log, t.applied, t.marks = resumed_game(data, key, ident), events, [], [len(events)]
        resume_ms = t.boot()
        repl = stopped(t.pico)
        out, err = repl.exec_raw(script, ms=120_000)
        if err or "PHASES" not in out:
            raise RuntimeError("the phases script failed: %r %r" % (out[-800:], err))
        line = out[out.index("PHASES"):].split("\n")[0]
        got = json.loads(line[line.index("["):])
        log("%s: journal %d bytes, resume (power-on to playing) %d ms" % (game, len(data), resume_ms))
        for name, ms in got:
            log("  %-48s %6d ms" % (name, ms))
        log("  %-48s %6d ms" % ("sum (from the manifest check)", sum(ms for n, ms in got if n[0] != "(")))
        return {"game": game, "resume_ms": resume_ms, "journal_bytes": len(data), "phases": got}


def image_from_env():
    from tapis.host.image.source import MICROPYTHON_ENV, PICOTOOL_ENV

    if os.environ.get(MICROPYTHON_ENV) and os.environ.get(PICOTOOL_ENV):
        from tapis.host.flash.sign import public_key
        from tapis.host.image.build import build
        from tapis.simulator.testkey import TEST_SIGNING_SEED

        return build(public_key=public_key(TEST_SIGNING_SEED).hex())["path"]
    return os.environ.get("TAPIS_PICO_IMAGE")


if __name__ == "__main__":
    a = sys.argv[1:]
    if a and a[0].endswith(".py"):  # a script of one's own, on the board with the full journal
        phases(7, a[1] if len(a) > 1 else "piquet", image=image_from_env(), script=open(a[0]).read(),
               entries=int(a[2]) if len(a) > 2 else 0)
        sys.exit(0)
    phases(int(a[1]) if len(a) > 1 else 7, a[0] if a else "piquet", image=image_from_env())
