# Drives `tapis play` (host/play/app.py) under Textual's pilot as a person would: it
# reads the seat's display view - what the screen shows - and presses keys. What to
# press is the house bot's choice, turned back into the keys of the game's panel map.
# The tests (tests/host/play/test_play.py) and the screenshots (docs/screenshots/make.py) use it.
import asyncio
import io

from rich.console import Console

from tapis.firmware.games import panel as B
from tapis.cython_core.twins import evaluate
from tapis.host.play.app import PlayApp

SIZE = (110, 34)


def make_app(game, seat=0, seed=3, **kw):
    kw.setdefault("pause_s", 0)  # the bots do not wait
    return PlayApp(game, seat, seed, evaluator=evaluate, **kw)


def keys_for(app, presses):
    """The keys that make these panel presses (BET± of n units as ]/[ tens and +/- ones)."""
    inverse = {v: k for k, v in app.ui.KEYS.items()}
    out = []
    for button, arg in presses:
        if button in (B.BET_PLUS, B.BET_MINUS) and (button, arg) not in inverse:
            tens, ones = divmod(arg or 1, 10)
            out += [inverse[(button, 10)]] * tens + [inverse[(button, 1)]] * ones
        else:
            out.append(inverse[(button, arg)])
    return out


def screen_text(app):
    """The screen as plain text (the compositor's frame, as export_screenshot renders it)."""
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(),
                      force_terminal=True, color_system=None, record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


async def until(ok, seconds=30.0, step=0.005):
    """Let the app run until ok(). (pilot.pause would redraw the whole screen each time.)"""
    waited = 0.0
    while not ok():
        assert waited < seconds, "timed out waiting"
        await asyncio.sleep(step)
        waited += step


async def play(pilot, app, done, on_turn=None, seconds=240.0):
    """Play the person's seat with the house bot's choices, by keys, until done();
    on_turn(view) is awaited at each new view where the seat is to act. Returns the
    number of keys pressed."""
    bot, seen, pressed, waited = app.kit.Bot(), None, 0, 0.0
    while not done():
        assert waited < seconds, "the game did not finish in time"
        view = app.table.view()
        if view is not None and view is not seen:
            seen = view
            if view.get("turn") and on_turn is not None:
                await on_turn(view)
            keys = keys_for(app, bot.presses(view))
            if keys:
                await pilot.press(*keys)
                pressed += len(keys)
                continue
        await asyncio.sleep(0.005)
        waited += 0.005
    return pressed
