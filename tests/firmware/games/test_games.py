# What every game in the registry provides, checked the same way for each: one rules
# template; every event it emits declared (EVENTS), and what derives from the declaration
# (the table display, the replay, the renderer); a snapshot that is its whole state.
import json

import pytest
from hypothesis import given, settings, strategies as st

from tapis.firmware.offboard import deck
from tapis.firmware.games import rules
from tapis.firmware.games import GAMES, find
from tapis.firmware.offboard.named import options, variants
from tapis.firmware.games.replay import inputs
from tapis.firmware.offboard.rng import Seeded
from tapis.firmware.games.rules import CHANCE
from tapis.simulator import kits
from ecarte_driver import misdeal

# the attributes of a game object that are not its state: its options and what they imply
NOT_STATE = {"options", "ev", "strength", "hand_size", "log", "_out", "wagers", "duel"}


def random_play(name, seed, steps, opts=None, faults=False, each=None):
    """A seeded game of `name`: the shoe deals shuffled packs of what the rules ask for,
    each seat takes a random legal action; `faults`: the shoe now and then misdeals."""
    kit = find(name)
    g = kit.Rules(opts or kit.Options())
    rng = Seeded(seed)
    pack, pos = [], 0
    for _ in range(steps):
        if g.to_act == CHANCE:
            _n, fresh = g.cards_due()
            if fresh:
                pack, pos = deck.shuffle(deck.pack(fresh), rng.below), 0
            if name != "club":
                pos = g.delivered  # the laws count what came out of the shoe, faults included
            fault = misdeal(g, pack, rng.below(60)) if faults and rng.below(12) == 0 else None
            if fault:
                g.apply(fault)
            elif name == "club" and len(pack) - pos == 40 and not g.cut:
                g.apply(("cut", CHANCE, None))
            else:
                g.apply(("shoe", CHANCE, pack[pos]))
                pos += 1
        else:
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])
        if each:
            each(g)
    return g


def samples(name):
    """{event kind: an event of that kind} over seeded games of every variant."""
    seen = {}
    for variant in [None] + sorted(variants(name)):
        for seed in range(6):
            g = random_play(name, seed, 1500, options(name, variant), faults=name != "club")
            for e in g.log:
                seen.setdefault(e[0], e)
    return seen


# kinds that random play does not reach, by hand, with the test where the rules emit them
ELSEWHERE = {"ecarte": {"retake": ("retake", 0, 0x1B),  # test_ecarte_laws: a stock that cannot supply
                        "bet": ("bet", 2, (0, 3)),  # test_wagers: the gallery's bets
                        # the supervisor's (test_supervisor: the stake and the largest bet)
                        "limits": ("limits", -2, ("S1", 3, 4)), "in_force": ("in_force", -2, (3, 4))},
             "piquet": {"show": ("show", 0, (0x05, 0x06, 0x07, 0x08, 0x15, 0x16, 0x17, 0x18, 0x25,
                                            0x26, 0x27, 0x28)),  # test_piquet_rules: carte blanche
                        "blanche": ("blanche", 0, True)},
             # the supervisor's (test_supervisor: limits, responsible bank, bank given)
             "club": {"limits": ("limits", -2, ("S1", 20, 8, 4)), "in_force": ("in_force", -2, (20, 8, 4)),
                      "authorise": ("authorise", -2, ("S1", 2)), "give": ("give", -2, ("S1", 3)),
                      # a shoe run empty mid-talia (test_cutsweep: a club table cut mid-talia, its shoe restarted)
                      "missing": ("missing", rules.CHANCE, 20),
                      "void": ("void", rules.CHANCE, "imperfect shoe: it ran empty with 3 cards of the deal dealt")}}
SAMPLES = {name: dict(samples(name), **ELSEWHERE.get(name, {})) for name in GAMES}


@pytest.mark.parametrize("name", GAMES)
def test_every_game_follows_the_one_rules_template(name):
    r = find(name).Rules
    assert issubclass(r, rules.Rules) and issubclass(find(name).Options, rules.Options)
    own = set()  # what the game's classes (its rules and their mixins) define themselves
    for klass in r.__mro__[:r.__mro__.index(rules.Rules)]:
        own |= set(vars(klass))
    assert not own & {"verify", "apply", "can", "public", "inputs", "verify_turn", "emit"}
    assert {"_verify_chance", "_verify_player", "_change", "cards_due", "finished_games"} <= own


@pytest.mark.parametrize("name", GAMES)
def test_every_event_a_game_emits_is_declared_and_every_declared_one_is_emitted(name):
    declared = set(find(name).Rules.EVENTS)
    assert set(SAMPLES[name]) == declared


@pytest.mark.parametrize("name", GAMES)
def test_the_table_display_and_the_renderer_follow_the_declaration(name):
    r, kit = find(name).Rules, kits.find(name)
    lines = []
    renderer = kit.Renderer(lines.append, lambda: [[], [], [], []], symbols=True)
    for kind, e in sorted(SAMPLES[name].items()):
        shown = r.public(e)
        flags = r.EVENTS[kind]
        if flags & rules.OFF:
            assert shown is None
            continue
        assert shown[:2] == [e[0], e[1]]
        if flags & rules.HIDDEN:
            assert shown[2] is None  # a card dealt face down stays face down
        elif flags & rules.COUNT:
            assert shown[2] == len(e[2])
        else:
            assert shown[2] == e[2]
        line = renderer.line(*shown)
        if line is None and renderer.pending is not None:  # a line the next events complete
            line, renderer.pending = renderer.pending(), None
        assert line is not None or kind in kit.Renderer.SILENT, "%s: the renderer says nothing" % kind


@pytest.mark.parametrize("name", GAMES)
def test_the_event_log_replays_from_the_declaration(name):
    for seed in range(3):
        g = random_play(name, seed, 800, faults=name != "club")
        again = find(name).Rules(g.options)
        for a in inputs(again.EVENTS, g.log):
            again.apply(a)
        assert again.log == g.log


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 31), steps=st.integers(0, 700), more=st.integers(1, 200))
def test_a_snapshot_is_the_whole_state(name, seed, steps, more):
    g = random_play(name, seed, steps)
    state = set(vars(g)) - NOT_STATE
    assert state == set(g.FIELDS)  # every attribute that changes in play is in the snapshot
    back = find(name).Rules(g.options)
    back.restore(json.loads(json.dumps(g.snapshot())))  # as the journal keeps it
    assert {k: getattr(back, k) for k in g.FIELDS} == {k: getattr(g, k) for k in g.FIELDS}
    mark = len(g.log)
    rng = Seeded(seed + 1)
    for _ in range(more):  # and both go on alike
        if g.to_act == CHANCE:
            break
        acts = g.legal_actions()
        a = acts[rng.below(len(acts))]
        assert back.apply(a) == g.apply(a)
    assert back.log == g.log[mark:]
