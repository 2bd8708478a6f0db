# The watch mode (host/table/watch.py, `tapis table` and `tapis recall`): colour on a terminal
# and not off one or under NO_COLOR, the pause / step / speed / quit keys, a clean Ctrl-C,
# the exchanges told with their cards (no card reaches a trick from nowhere), and every
# piquet point said as it is scored (the running totals add up line by line).
import io
import re

import pytest

from tapis.host.cli import main
from tapis.host.table.watch import DELAY, Quit, Watch, styled, watch_game
from tapis.simulator import kits
from tapis.simulator.table.emulated import EmulatedTable

CARD = re.compile(r"(?:10|[2-9TJQKA])[♠♥♦♣]")
RED = "\x1b[1;31m"


class Terminal(io.StringIO):
    """An output that says it is a terminal."""

    def isatty(self):
        return True


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


class Presses:
    """A watcher's keys: one string per read (each read takes its timeout on `clock`)."""

    live = True

    def __init__(self, clock, script):
        self.clock, self.script, self.reads = clock, list(script), 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def read(self, timeout):
        self.reads += 1
        self.clock.t += timeout
        return self.script.pop(0) if self.script else ""


def test_hearts_and_diamonds_are_red_spades_and_clubs_are_not():
    text = styled("  Trick 1: West Q♥, East K♠ → West\n── Deal 2 · East deals ──")
    spans = {text.plain[s.start:s.end]: str(s.style) for s in text.spans}
    assert spans["Q♥"] == "bold red" and spans["K♠"] == "bold"
    assert spans["── Deal 2 · East deals ──"] == "bold cyan"


def test_colour_on_a_terminal_none_under_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    out = Terminal()
    with Watch(out, delay=0, keys=False) as w:
        w.line("  West discards 7♥ T♦ and draws K♠ A♦")
    assert RED + "7♥" in out.getvalue() and RED + "A♦" in out.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    out = Terminal()
    with Watch(out, delay=0, keys=False) as w:
        w.line("  West discards 7♥ T♦ and draws K♠ A♦")
    assert "7♥" in out.getvalue() and "\x1b[31" not in out.getvalue() and "\x1b[1;31" not in out.getvalue()


def test_off_a_terminal_the_lines_are_plain_and_unpaced(capsys):
    w = Watch(io.StringIO())
    assert w.delay == 0 and not w.keys.live  # no pacing, no keys read off a terminal
    assert main(["table", "--game", "piquet", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "Trick 12" in out and "wins the partie" in out


def test_on_a_terminal_a_line_waits_the_delay():
    clock = Clock()
    w = Watch(Terminal(), delay=0.5, keys=Presses(clock, []), clock=clock)
    with w:
        w.line("one")
    assert 0.5 <= clock.t < 0.6


def test_space_pauses_until_s_steps_one_line_then_q_quits():
    clock = Clock()
    keys = Presses(clock, [" "] + [""] * 30 + ["s"] + [""] * 10 + ["q"])
    out = Terminal()
    with Watch(out, delay=0.2, keys=keys, clock=clock) as w:
        w.line("first")
        assert w.paused and clock.t >= 3.0  # held 30 reads past its 0.2 s: paused
        t = clock.t
        with pytest.raises(Quit):
            w.line("second")  # still paused: waits for a key; q quits
        assert clock.t - t >= 1.0
    assert "first" in out.getvalue() and "second" in out.getvalue()


def test_plus_and_minus_change_the_speed():
    clock = Clock()
    w = Watch(Terminal(), delay=0.4, keys=Presses(clock, ["+"]), clock=clock)
    with w:
        w.line("a")
        assert w.delay == pytest.approx(0.2)
        w.keys.script = ["-", "-"]
        w.line("b")
        assert w.delay == pytest.approx(0.8)
    w = Watch(Terminal(), delay=None, keys=False)
    assert w.delay == DELAY  # the default on a terminal


def test_q_stops_a_game_being_watched_and_says_so():
    clock = Clock()
    out = Terminal()
    sim = EmulatedTable(3, "ecarte")
    keys = Presses(clock, [""] * 20 + ["q"])
    assert watch_game(kits.find("ecarte").Renderer, lambda feed: sim.run_games(1, feed), out,
                      delay=0.05, keys=keys, clock=clock) == 0
    text = out.getvalue()
    assert "(stopped: q)" in text and "Trick" in text and "wins the game" not in text


def test_ctrl_c_in_table_is_one_line_and_exit_130(monkeypatch, capsys):
    def interrupted(self, n, on_events=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(EmulatedTable, "run_games", interrupted)
    assert main(["table", "--seed", "9"]) == 130
    err = capsys.readouterr().err
    assert err == "tapis table: stopped (Ctrl-C), seed 9\n"


def test_a_bad_delay_is_refused_with_exit_2_naming_it(capsys):
    with pytest.raises(SystemExit) as e:  # negative: refused by its argument type
        main(["table", "--delay", "-1"])
    assert e.value.code == 2
    assert "--delay" in capsys.readouterr().err.strip().splitlines()[-1]
    assert main(["table", "--delay", "61"]) == 2  # a minute a line: refused as a typo
    assert capsys.readouterr().err.count("\n") == 1

def _hand(text):
    return set(CARD.findall(text))


def _watched_exchanges(seed, capsys):
    """Runs the watcher on a seeded écarté game, checks every hand, exchange and trick it
    tells; returns the number of exchanges told."""
    assert main(["table", "--game", "ecarte", "--seed", str(seed)]) == 0
    hands, exchanges = {}, 0
    for line in capsys.readouterr().out.splitlines():
        m = re.match(r"  West: (.*)   East: (.*)$", line)
        if m:
            hands = {"West": _hand(m.group(1)), "East": _hand(m.group(2))}
            assert len(hands["West"]) == len(hands["East"]) == 5
            continue
        m = re.match(r"  (West|East) discards (.*) and draws (.*)$", line)
        if m:
            gone, drawn = _hand(m.group(2)), _hand(m.group(3))
            assert gone and gone <= hands[m.group(1)], line
            assert len(drawn) <= len(gone) and not drawn & hands[m.group(1)]
            hands[m.group(1)] = hands[m.group(1)] - gone | drawn
            exchanges += 1
            continue
        m = re.match(r"  Trick \d: (West|East) (\S+), (West|East) (\S+) →", line)
        if m:
            for who, card in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
                assert card in hands[who], "%s plays %s from nowhere: %r" % (who, card, hands[who])
                hands[who].discard(card)
    return exchanges


@pytest.mark.parametrize("start", [3, 11, 27])
def test_ecarte_exchanges_are_told_with_their_cards(start, capsys):
    """The watcher sees every hand dealt and every card discarded and drawn: each card
    a seat plays is one it was dealt or drew, and each it discards one it held. From seed
    `start` on, the first game with an exchange (every game on the way checked too)."""
    for seed in range(start, start + 10):
        if _watched_exchanges(seed, capsys):
            return
    pytest.fail("no exchange in the games of seeds %d..%d" % (start, start + 9))


def test_piquet_exchanges_and_every_point_are_told(capsys):
    """Piquet: the exchanges with their cards, and each score line's points add up to the
    running totals it prints (the lead, the tricks, the cards said with their trick)."""
    assert main(["table", "--game", "piquet", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    totals, hands, said = [0, 0], {}, 0
    for line in out.splitlines():
        m = re.match(r"  (West|East): ([^\"]*)$", line)
        if m and len(_hand(m.group(2))) == 12:
            hands[m.group(1)] = _hand(m.group(2))
        m = re.match(r"  (West|East) exchanges (\d): discards (.*), draws (.*)$", line)
        if m:
            gone, drawn = _hand(m.group(3)), _hand(m.group(4))
            assert len(gone) == int(m.group(2)) and gone <= hands[m.group(1)], line
            hands[m.group(1)] = hands[m.group(1)] - gone | drawn
        if "wins the partie" in line or "partie is drawn" in line:
            totals = [0, 0]
            continue
        m = re.search(r"West (\d+) – East (\d+)$", line)
        if not m:
            continue
        now = [int(m.group(1)), int(m.group(2))]
        if line.startswith("  after the deal"):
            assert now == totals, line
            continue
        gained = [0, 0]
        for who, pts in re.findall(r"(West|East) \+(\d+) ", line):
            gained["West East".split().index(who)] += int(pts)
        m = re.match(r"  (West|East) scores (\d+) \(", line)
        if m:
            gained["West East".split().index(m.group(1))] += int(m.group(2))
        assert [a + b for a, b in zip(totals, gained)] == now, "points unexplained: %r" % line
        totals, said = now, said + 1
    assert said > 20 and "+1 lead" in out and "last trick" in out


def test_the_quick_game_tells_each_hand_once(capsys):
    assert main(["table", "--variant", "quick", "--deals", "3", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    hands = [ln for ln in lines if ln.startswith("  West: ")]
    assert len(hands) == len(set(hands)) == sum(1 for ln in lines if ln.startswith("  Showdown")) >= 3


def test_piquet_deals_are_numbered_within_their_partie(capsys):
    assert main(["table", "--game", "piquet", "--deals", "8", "--seed", "3"]) == 0
    heads = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("── Partie")]
    assert [h.split(" · ")[:2] for h in heads[5:8]] == [
        ["── Partie 1", "deal 6"], ["── Partie 2", "deal 1"], ["── Partie 2", "deal 2"]]
