# `tapis play`'s M key under Textual's pilot (issue 30.7): the supervisor's meters screen
# opens, shows the meters `tapis meters` computes for the table's journal (per seat wagered,
# won, lost, pushed, commission; deals, games, tilts), and any key closes it.
import asyncio
import os
import subprocess
import sys

import pytest

from tapis.firmware.journal.resume import load
from tapis.firmware.meters.tally import held
from tapis.host.memory.meters import SEAT, as_dict
from tapis.host.play.app import KeysScreen
from tapis.host.play.pilot import SIZE, make_app, play, screen_text, until
from tapis.simulator.kits.show import meters_lines

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


def tapis_meters(table, tmp_path):
    """What `tapis meters --journal` prints for the table's journal and the meters' copies
    beside it (as a board's would be copied off: journal.bin, journal.meters.a and .b)."""
    j = table.journal
    j.flush()
    path = tmp_path / "journal.bin"
    path.write_bytes(j.store.read())
    for copy, end in zip(j.meters.copies, "ab"):
        (tmp_path / ("journal.meters." + end)).write_bytes(copy.read())
    r = subprocess.run([sys.executable, "-m", "tapis", "meters", "--journal", str(path)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.mark.parametrize("game,seat,seed", [("ecarte", 0, 3), ("club", 0, 7)])
def test_m_shows_the_meters_tapis_meters_computes_and_any_key_closes_them(game, seat, seed, tmp_path):
    async def go():
        app = make_app(game, seat=seat, seed=seed)
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: app.over, seconds=300)  # the table stops at the game's end
            await pilot.pause()
            want = tapis_meters(app.table, tmp_path)
            await pilot.press("M")
            assert isinstance(app.screen, KeysScreen)
            text = screen_text(app)
            from tapis.host.memory.meters import LEGEND
            legend = {"  " + line for line in LEGEND}  # (tapis meters explains its columns after them)
            for ln in want:  # every line tapis meters prints, as it prints it, but its legend
                assert ln in legend or ln.rstrip() in text, ln
            seats = [ln for ln in want if ln.startswith("seat ")]
            assert len(seats) == app.table.controller.table.SEATS  # a row each seat
            assert any(int(ln.split()[2]) for ln in seats)  # money was wagered
            # the deals begun, by the journal's events (the next game's first is begun in
            # the step that ends a game), and the one game played
            deals = sum(e[0] == "deal" for g in load(app.table.journal) for _a, ev, _f in g["inputs"] for e in ev)
            assert deals > app.table.controller.game.finished_deals() - 1
            assert "deals begun %d  games 1 " % deals in text
            await pilot.press("escape")
            assert not isinstance(app.screen, KeysScreen)
            assert "meters (roll over" not in screen_text(app) and "Your display" in screen_text(app)
    asyncio.run(go())


def test_m_mid_game_shows_the_meters_on_the_table_display_too_until_closed():
    """While the table waits on the person, M makes the supervisor device ask the table
    display for its meters screen (firmware/operator/commands.py SCREEN): the table's pane says
    "meters" and shows them, the same meters as the supervisor's screen; closing that asks
    again, and the table display's screen goes."""
    seen = {}

    async def go():
        app = make_app("ecarte", seat=0, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            async def on_turn(view):
                if seen or app.table.controller.game.finished_deals() < 1:
                    return
                await pilot.press("M")
                assert isinstance(app.screen, KeysScreen)
                await until(lambda: app.board.screen is not None, 10)
                assert app.board.mode == "meters"
                assert app.w["events"].border_title == "The table · meters"
                d = as_dict(held(app.table.journal.meters, app.table.journal))
                seen["modal"] = screen_text(app)
                seen["board"] = app.board.screen
                sent = dict((k, d[k]) for k in ("deals", "games", "voids", "power_ups", "overrides", "house", "tilts"))
                sent["seats"] = [[s[k] for k in SEAT] for s in d["seats"]]  # as supervise.py sends them
                assert app.board.screen == meters_lines(sent)
                assert len(d["seats"]) == 2 and d["deals"] >= 2
                await pilot.press("escape")
                await until(lambda: app.board.screen is None, 10)
                assert app.board.mode is None and app.w["events"].border_title == "The table"
            await play(pilot, app, lambda: bool(seen) and app.table.controller.game.finished_deals() >= 2,
                       on_turn)
    asyncio.run(go())
    assert seen["board"][0].startswith("METERS  deals ")
