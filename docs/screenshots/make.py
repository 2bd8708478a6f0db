# Regenerates the screenshots of `tapis play` in this folder (Textual's SVG export):
#   .venv/bin/python docs/screenshots/make.py
# Each is taken at a decision of a seeded game, the person's earlier choices being the
# house bot's, pressed as keys (host/play/pilot.py).
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tapis.host.play.pilot import SIZE, make_app, play, until  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def turn(app, *phases):
    v = app.table.view()
    return bool(v and v.get("turn") and v["phase"] in phases)


async def shoot(name, game, seat, seed, ready, then=(), before=None):
    """Play to the first view where ready(app), press `then`, save NAME.svg."""
    app = make_app(game, seat=seat, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        await play(pilot, app, lambda: ready(app))
        if before:
            await before(app, pilot)
        for keys in then:
            await pilot.press(*keys)
            await until(lambda: True)
            await pilot.pause(0.2)
        await pilot.pause(0.2)
        path = os.path.join(HERE, name + ".svg")
        app.save_screenshot(path)
        print("wrote", os.path.relpath(path))


async def main():
    # écarté: elder's decision, with the advisor's odds
    await shoot("ecarte-propose", "ecarte", 1, 3, lambda a: turn(a, "propose", "respond"), [("h",)])
    # écarté: following, an illegal card pressed: the controller's refusal
    await shoot("ecarte-refused", "ecarte", 0, 3, lambda a: turn(a, "play"), [("1", "enter")])
    # piquet: the exchange, the hinted cards selected
    await shoot("piquet-exchange", "piquet", 0, 3, lambda a: turn(a, "exchange"), [("h",)],
                before=select_hinted)
    # piquet: the play, with the declarations and their verdicts
    await shoot("piquet-play", "piquet", 1, 5, lambda a: turn(a, "play") and a.board.trick)
    # club écarté: a punter stakes, the last deal's tableaux shown
    await shoot("club-stake", "club", 1, 3, lambda a: turn(a, "stake") and a.table.view().get("last"),
                [("2",), ("plus",) * 4])
    # the keys
    await shoot("keys-piquet", "piquet", 0, 3, lambda a: turn(a, "exchange"), [("question_mark",)])


async def select_hinted(app, pilot):
    from tapis.host.play import look
    from tapis.simulator.kits.piquet.bots import piquet_discard
    v = app.table.view()
    lo, hi = v["exchange"]
    for c in piquet_discard(v["hand"], lo, hi, v["seat"] == v["elder"]):
        await pilot.press(look.KEY_LABELS[v["hand"].index(c)])


if __name__ == "__main__":
    asyncio.run(main())
