# `tapis play` under Textual's pilot: whole deals of each game played through the keys,
# a refused press, the hint, the keys screen, quitting; and that the screen shows
# nothing the seat may not know. The person's choices are the house bot's, pressed as keys.
import asyncio

import pytest

from tapis.firmware.cards import name, suit
from tapis.cython_core.twins import ecarte_solver
from tapis.host.play import look
from tapis.host.play.pilot import SIZE, keys_for, make_app, play, screen_text, until
from tapis.simulator.kits.piquet import bots as P


def run(coro):
    return asyncio.run(coro)


def seat_text(app):
    """The seat display's text as drawn, with the prompt, the refusal and the hint."""
    out = []
    for name in ("seat", "prompt", "msg", "hint"):
        content = app.w[name].content
        out += [getattr(t, "plain", str(t)) for t in getattr(content, "renderables", [content])]
    return "\n".join(out)


def deal_lines(app):
    """The table display's lines since the current deal began."""
    lines = app.board.lines
    starts = [i for i, ln in enumerate(lines) if ln.startswith(("──", "══"))]
    return lines[starts[-1]:] if starts else lines


def test_ecarte_a_whole_game_through_the_keys():
    async def go():
        app = make_app("ecarte", seat=0, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            pressed = await play(pilot, app, lambda: app.over)
            await pilot.pause()
            assert pressed > 10
            assert app.board.games == 1 == app.table.game.finished_games()
            assert app.table.controller.faults == []
            text = screen_text(app)
            assert "Game over" in text and "wins the game" in text
            assert any(ln.startswith("★") and "wins the game" in ln for ln in app.board.lines)
            # n: another game; the table goes on from the next deal
            deals = sum(ln.startswith("── Deal") for ln in app.board.lines)
            await pilot.press("n")
            await play(pilot, app, lambda: sum(ln.startswith("── Deal") for ln in app.board.lines) > deals + 1)
            assert not app.over
    run(go())


def test_piquet_a_whole_deal_through_the_keys():
    async def go():
        app = make_app("piquet", seat=1, seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: any("after the deal" in ln for ln in app.board.lines))
            lines = app.board.lines
            assert any("Trick 12:" in ln for ln in lines)
            assert any("exchanges" in ln and ln.lstrip().startswith("East") for ln in lines)
            assert app.table.controller.faults == []
    run(go())


def test_club_whole_deals_as_a_punter_through_the_keys():
    async def go():
        app = make_app("club", seat=1, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: sum("Balances" in ln for ln in app.board.lines) >= 3)
            stakes = [ln for ln in app.board.lines if ln.strip().startswith("Seat 1 stakes")]
            assert len(stakes) >= 3  # the person staked on each deal, by keys
            assert "Seat 1 on tableau" in "\n".join(app.board.lines)
    run(go())


def test_club_a_whole_bank_as_the_banker():
    async def go():
        app = make_app("club", seat=0, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: app.over)
            await pilot.pause()
            assert app.board.games == 1 == app.table.game.finished_games()
            assert "Seat 0 lays a limited bank" in "\n".join(app.board.lines)
            assert "passes the bank" in screen_text(app)
    run(go())


@pytest.mark.slow
@pytest.mark.parametrize("game, seat, seed", [("piquet", 0, 3), ("club", 2, 4), ("ecarte", 1, 8)])
def test_a_whole_game_of_each_through_the_keys(game, seat, seed):
    async def go():
        app = make_app(game, seat=seat, seed=seed)
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: app.over, seconds=600)
            assert app.board.games == 1 == app.table.game.finished_games()
            assert app.ui.result(app.board.lines)
    run(go())


def test_an_illegal_press_shows_the_controllers_refusal():
    async def go():
        app = make_app("ecarte", seat=0, seed=3)
        refused = []

        async def on_turn(view):
            if refused or view["phase"] != "play" or len(view["legal"]) == len(view["hand"]):
                return
            if view["led"] is None or any(suit(c) != suit(view["led"]) for c in view["legal"]):
                return  # a turn where the law at stake is following suit (not trumping)
            bad = next(c for c in view["hand"] if c not in view["legal"])
            await pilot.press("9")  # no ninth card
            await until(lambda: app.table.view()["msg"])
            assert "no card 9 in a hand of %d" % len(view["hand"]) in screen_text(app)
            await pilot.press(str(view["hand"].index(bad) + 1), "enter")
            await until(lambda: "no card 9" not in app.table.view()["msg"])
            now = app.table.view()
            assert now["hand"] == view["hand"] and now["turn"]  # refused: nothing changed
            assert app.w["msg"].content.plain == "✗ " + now["msg"]  # the controller's words
            assert "✗ " + now["msg"][:40] in screen_text(app)  # on the screen
            refused.append(now["msg"])

        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: refused, on_turn)
        assert "cannot play" in refused[0] and "must follow suit" in refused[0]
    run(go())


def test_the_hint_gives_the_advisors_answer_in_ecarte():
    async def go():
        app = make_app("ecarte", seat=0, seed=3)
        seen = []

        async def on_turn(view):
            if view["phase"] in ("propose", "respond") and not seen:
                await pilot.press("h")
                stand, wins, _voles, total, why = ecarte_solver.advice(
                    view["hand"], view["trump"], view["phase"] == "propose")
                await until(lambda: "Advisor:" in screen_text(app))  # drawn once the key is read
                text = screen_text(app)
                flat = " ".join(" ".join(ln.split("│")[0].split()) for ln in text.splitlines())  # wrapped lines joined
                assert "Advisor:" in text and why in flat
                assert "%d of %d" % (wins, total) in app.hint_text
                word = {("propose", True): "stand", ("propose", False): "propose",
                        ("respond", True): "refuse", ("respond", False): "accept"}
                assert app.hint_text.startswith("Advisor: " + word[view["phase"], stand])
                seen.append(view["phase"])

        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: seen or app.over, on_turn)
        assert seen
    run(go())


def test_the_hint_says_which_cards_to_discard_in_piquet():
    async def go():
        app = make_app("piquet", seat=0, seed=3)
        seen = []

        async def on_turn(view):
            if view["phase"] == "exchange" and not seen:
                await pilot.press("h")
                lo, hi = view["exchange"]
                throw = P.piquet_discard(view["hand"], lo, hi, view["seat"] == view["elder"])
                keys = " ".join(look.KEY_LABELS[view["hand"].index(c)] for c in throw)
                assert "keys %s" % keys in app.hint_text
                assert "Hint: Discard" in screen_text(app)
                seen.append(keys)

        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: seen, on_turn)
    run(go())


def test_question_mark_shows_the_keys_and_any_key_closes_them():
    async def go():
        app = make_app("ecarte")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("question_mark")
            text = screen_text(app)
            assert "MARK KING" in text and "PROPOSE" in text and "quit" in text
            await pilot.press("escape")
            assert "MARK KING" not in screen_text(app)
            assert "Your display" in screen_text(app)
    run(go())


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
def test_q_and_ctrl_c_quit_cleanly(key):
    async def go():
        app = make_app("piquet")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.2)
            await pilot.press(key)
            await pilot.pause()
        return app.return_code
    assert run(go()) == 0


def test_the_screen_shows_no_card_the_seat_may_not_know():
    """At each of the person's decisions, no card still in the opponent's hand is drawn on
    the seat display or in this deal's lines of the table display (the test alone reads
    the rules state, to know what the opponent holds)."""
    async def go():
        app = make_app("ecarte", seat=1, seed=11)
        checked = []

        async def on_turn(view):
            await pilot.pause()
            g = app.table.game
            pos = view.get("position", view["seat"])
            hidden = [look.card(c).plain for c in g.hands[1 - pos]] + [name(c) for c in g.hands[1 - pos]]
            shown = seat_text(app) + "\n" + "\n".join(deal_lines(app))
            assert all(look.card(c).plain in shown for c in view["hand"])  # the own hand is drawn
            assert not [c for c in hidden if c in shown], (hidden, shown)
            checked.append(view["phase"])

        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: app.over, on_turn)
        assert len(checked) > 10
    run(go())


def test_keys_for_bets_of_many_units():
    app = make_app("club")
    from tapis.firmware.games import panel as B
    assert keys_for(app, [(B.BET_PLUS, 23)]) == ["right_square_bracket"] * 2 + ["plus"] * 3
    assert keys_for(app, [(B.SELECT, 2), (B.CONFIRM, 0)]) == ["2", "enter"]


def test_club_stakes_start_at_the_least_stake_and_r_sits_out_with_a_line():
    """Issue 46.6: on every deal (not only the first) the amount starts at the least the seat
    may stake, never 0, so Enter always stakes; r sits the deal out and says so."""
    async def go():
        app = make_app("club", seat=1, seed=3)
        seen, sat_out = [], []

        async def on_turn(view):
            if view["phase"] != "stake":
                return
            lo, hi = view["range"]
            seen.append((view["deal"], view["amount"], lo, hi))
            assert view["amount"] == max(lo, 1) and "amount 0" not in screen_text(app)
            if view["deal"] == 3 and not sat_out:
                await pilot.press("r")
                await until(lambda: app.said)
                sat_out.append(view["deal"])
                await pilot.pause()
                assert "You sit deal 3 out" in screen_text(app)

        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: sum("Balances" in ln for ln in app.board.lines) >= 4, on_turn)
        assert len(seen) >= 3 and any(lo == 0 for _d, _a, lo, _h in seen)  # deals where the rules allow 0
        assert sat_out == [3]
        log = app.table.game.log  # the rules' events: deal 3's skip by seat 1, and no stake of its
        deals = [i for i, e in enumerate(log) if e[0] == "deal"]
        third = log[deals[2]:deals[3]] if len(deals) > 3 else log[deals[2]:]
        assert ("skip", 1, None) in third and not [e for e in third if e[0] == "stake" and e[1] == 1], third
    run(go())


def test_ecarte_gallery_bets_start_at_1_and_r_sits_the_next_game_out_with_a_line():
    """Issue 46.6, the same rule for every amount: at a gallery seat a bet starts at the least
    (1), - never takes it to nothing, and r alone withdraws it, said on a line, as club's r."""
    from tapis.firmware.games.ecarte.rules import Options

    async def go():
        app = make_app("ecarte", seat=2, seed=3, options=Options(gallery=1))
        app.target = 10 ** 6  # games on and on: the players' bots never wait for the gallery
        async with app.run_test(size=SIZE) as pilot:
            standing = lambda: app.table.game.wagers.standing  # noqa: E731 (the game the table plays now)
            await until(lambda: app.table.view() is not None)
            await pilot.pause()
            assert "no bet: + bets 1 (the least)" in screen_text(app)
            assert "r sits" not in seat_text(app)  # no bet to withdraw yet
            await pilot.press("plus")
            await until(lambda: standing().get(2) == (0, 1))
            await pilot.press("minus", "plus")  # - held at 1 (else + would make it 1, not 2)
            await until(lambda: standing().get(2) == (0, 2))
            await pilot.press("left_square_bracket", "plus")  # [ too: 1, then 2
            await until(lambda: standing().get(2) == (0, 2) and app.table.controller.errors.get("input", 0) == 0)
            await pilot.pause()
            assert "your bet 2 on" in screen_text(app) and "r sits the next game out" in seat_text(app)
            await pilot.press("r")
            await until(lambda: 2 not in standing() and app.said)
            await pilot.pause()
            assert "You sit the next game out: your bet of 2 withdrawn" in screen_text(app)
            assert "no bet" in screen_text(app)
    run(go())


@pytest.mark.parametrize("game, seat, seed", [("ecarte", 0, 3), ("club", 1, 3)])
def test_play_json_hands_on_one_record_per_deal_as_table_json(game, seat, seed):
    """Issue 46.7: tapis play --json: each deal's record as it completes (tapis.record/2, the
    schema of tapis table --json), numbered from 1, every one valid."""
    from tapis.host import schemas as S

    records = []

    async def go():
        app = make_app(game, seat=seat, seed=seed, on_record=records.append)
        async with app.run_test(size=SIZE) as pilot:
            await play(pilot, app, lambda: len(records) >= 3)
    run(go())
    import json
    assert S.validate_lines("\n".join(json.dumps(r) for r in records)) == [S.validate(records[0])] * len(records)
    assert [r["deal"] for r in records] == list(range(1, len(records) + 1)) and all(r["seed"] == seed for r in records)
    assert all(r["game"] == game and r["complete"] for r in records)
