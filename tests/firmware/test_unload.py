"""compat.unload takes full module names below the firmware package: the event log's
module (firmware.eventlog.log) is not a game's declaration of its events
(firmware.games.<g>.events), which Rules.EVENTS holds (issue 43: unloading by last name
dropped both, and a game module imported after it built a second EVENTS)."""
import sys

from tapis.simulator.boards import micropython

TOP = "tapis.firmware."


def test_unload_drops_the_module_named_and_not_a_game_module_of_the_same_last_name():
    from tapis.firmware import compat
    from tapis.firmware.eventlog import log as events  # noqa: F401  (the event log, loaded)
    from tapis.firmware.games.ecarte import rules as R

    saved = {k: m for k, m in sys.modules.items() if k.startswith(TOP)}
    declared = sys.modules[TOP + "games.ecarte.events"]
    try:
        compat.unload("eventlog.log")  # what Controller.event and boot.unload drop
        assert TOP + "eventlog.log" not in sys.modules
        assert sys.modules.get(TOP + "games.ecarte.events") is declared
        from tapis.firmware.games.ecarte import laws  # noqa: F401  (on first use, after the unload)

        assert sys.modules[TOP + "games.ecarte.events"].EVENTS is R.Ecarte.EVENTS  # one EVENTS
    finally:
        sys.modules.update(saved)
        import tapis.firmware.eventlog as package

        package.log = saved[TOP + "eventlog.log"]


def test_unload_of_a_module_not_loaded_changes_nothing():
    from tapis.firmware import compat

    before = set(sys.modules)
    compat.unload("no.such.module", "games.piquet.nothing")
    assert set(sys.modules) == before


def test_unload_under_micropython_keeps_the_games_events():
    """The same on the board's interpreter (package-relative names: firmware.x)."""
    code = ("import sys\nfrom firmware import compat\nfrom firmware.eventlog import log\n"
            "from firmware.games.ecarte import rules as R\n"
            "compat.unload('eventlog.log')\nfrom firmware.games.ecarte import laws\n"
            "import firmware.eventlog\n"
            "print('firmware.eventlog.log' in sys.modules, 'log' in firmware.eventlog.__dict__,\n"
            "      sys.modules['firmware.games.ecarte.events'].EVENTS is R.Ecarte.EVENTS)")
    p = micropython.run(code)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["False", "False", "True"]
