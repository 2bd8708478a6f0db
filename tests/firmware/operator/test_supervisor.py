"""The supervisor's credential (issue 12.3, SPEC §8): RECALL and the supervisor's button
are the supervisor device's (its own address and device type on the bus) or a host tool's
on a link of its own, the operator's USB; an ordinary panel's are refused and counted, the
state unchanged. The unfinished deal's inputs are never recalled. Each attack is a named
test that failed before the credential existed and passes now."""
import json

import pytest

from tapis.firmware.games import panel as B
from tapis.firmware import wire as W
from tapis.firmware.games import find
from tapis.firmware.journal.writer import Journal
from tapis.firmware.link.link import Link
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.journal.resume import load
from tapis.simulator.table.pipes import pipe
from tapis.simulator.table.supervisor import EmuSupervisor
from tapis.simulator.table.emulated import EmulatedTable
from helpers import records_heard


def journaled(game="ecarte", seed=3):
    t = EmulatedTable(seed, game, journal=Journal(MemoryStore()))
    return t


def with_supervisor(t):
    """The operator's supervisor device on the table's bus."""
    sup = EmuSupervisor(t.lines[1].end("supervisor"))
    t.devices.append(sup)
    return sup


def mid_deal(t, deals=2):
    """Run `deals` deals, then into the next until the players hold their cards."""
    t.run_deals(deals)
    t.run(lambda g: g.to_act >= 0 and g.finished_deals() == deals)


def step(t, ms):
    for _ in range(ms):
        t.step()


def usb_link(t):
    """A host tool on a link of its own to the board, as the operator's USB: its Link."""
    ctrl_end, host_end = pipe()
    link = Link(ctrl_end)
    t.controller.route[W.HOST] = link
    t.controller.links.append(link)
    return Link(host_end, W.DEV_HOST, b"tapis-recall")


def test_a_seats_console_asking_recall_mid_game_gets_nothing():
    """Before: RECALL was answered to any device, and a seat's console got the game's
    journal with the opponent's hand as dealt. Now it gets no RECORD at all, whether it
    asks as itself or as the host tool; each refusal is counted."""
    t = journaled()
    mid_deal(t)
    spy = t.consoles[1]
    heard = records_heard(spy)
    before = t.controller.errors.get("credentials", 0)
    for addr in (W.PANEL + 1, W.DISPLAY + 1, W.HOST):
        spy.link.send(addr, W.RECALL, bytes((3,)))
    step(t, 4000)
    assert heard == []
    # as the host tool's address: refused by the keyed bus's link since issue 29 (no bus device is it)
    host = min(1, t.controller.route[W.PANEL].stats(W.HOST)["forged"])
    assert t.controller.errors.get("credentials", 0) - before + host == 3
    assert any("is the supervisor's" in f for f in t.controller.faults)


def test_a_panel_cannot_press_the_supervisors_button():
    """Before: button 10 went to the game's table adapter like any other press. Now a
    panel's supervisor button is refused with a counted error and reported, the state and
    the journal unchanged."""
    t = journaled()
    mid_deal(t, 1)
    c = t.controller
    for console in t.consoles:
        console.hold = True
    step(t, 500)
    state = json.dumps(t.game.snapshot(), sort_keys=True)
    size = t.journal.size
    for s in (0, 1):
        c.on_frame(c.route[W.PANEL + s], W.PANEL + s, 1, W.BUTTON, bytes((B.SUPERVISOR, 0)))
    assert c.errors.get("credentials") == 2
    assert json.dumps(t.game.snapshot(), sort_keys=True) == state
    assert t.journal.size == size
    assert any("not of this table's panels" in f for f in c.faults)


def test_the_supervisor_recalls_but_not_the_unfinished_deal():
    """The supervisor device (its own address and type on the bus) is answered; of the
    game in play it gets the deals finished, never the deal in play: no card the players
    hold now is in what it recalls."""
    t = journaled()
    sup = with_supervisor(t)
    mid_deal(t)
    for console in t.consoles:
        console.hold = True  # the players hold still while the supervisor recalls
    held = set(t.game.hands[0]) | set(t.game.hands[1])
    sup.recall(2)
    end = t.now + 20000
    while sup.games is None and t.now < end:
        t.step()
    assert set(t.game.hands[0]) | set(t.game.hands[1]) == held
    assert sup.games, t.controller.faults
    g = sup.games[-1]
    assert not g["done"] and g["withheld"] > 0
    whole = json.loads(json.dumps(load(t.journal)[-1]))
    k = len(g["inputs"])
    assert g["inputs"] == whole["inputs"][:k]  # the deals finished, as journaled
    assert k + g["withheld"] == len(whole["inputs"])
    assert any(e[0] == "deal" for e in g["inputs"][-1][1])  # cut where the deal in play began
    dealt_now = {a[2] for a, _e, _f in whole["inputs"][k:] if a[0] == "shoe"}
    assert held <= dealt_now  # every card held now came in the inputs withheld
    assert not any(e[0] == "deal" for _a, events, _f in whole["inputs"][k:] for e in events)
    assert t.controller.errors.get("credentials", 0) == 0


def test_recall_from_the_host_tool_on_the_bus_is_refused_but_on_its_own_link_answered():
    """tapis recall on the operator's USB link (a link of its own) is the credential; the
    same frame on the shared bus, where any player's device can send it, is not."""
    t = journaled()
    mid_deal(t, 1)
    bus_end = t.lines[1].end("spliced")
    host = Link(bus_end, W.DEV_HOST, b"tapis-recall")
    host.send(W.HOST, W.RECALL, bytes((1,)))
    got = []
    for _ in range(3000):
        t.step()
        got.extend(f for f in host.poll(t.now) if f[2] == W.RECORD)
    refused = t.controller.errors.get("credentials", 0) + t.controller.route[W.PANEL].stats(W.HOST)["forged"]
    assert got == [] and refused >= 1  # (by the keyed bus's link, since issue 29)
    usb = usb_link(t)
    usb.send(W.HOST, W.RECALL, bytes((1,)))
    for _ in range(3000):
        t.step()
        got.extend(f for f in usb.poll(t.now) if f[2] == W.RECORD)
    assert got and got[0][3][1] == 1  # one game, answered


@pytest.mark.parametrize("game", ["ecarte", "piquet"])
def test_the_supervisor_voids_the_deal_in_play_and_the_journal_says_who(game, tmp_path):
    """Voiding a deal is the supervisor's: the deal in play is void, its dealer deals it
    again from a fresh pack, and the journal's void record names the supervisor's serial
    (tapis recall shows it in the game's "voided")."""
    from tapis.firmware.operator.commands import VOID
    t = journaled(game)
    sup = with_supervisor(t)
    mid_deal(t, 2)
    scores = list(t.game.scores)  # as the deal began: its points (piquet's declarations) go with it
    play = find(game).Rules.PHASE_NAMES.index("play")
    t.run(lambda g: g.finished_deals() == 2 and g.phase == play)  # players have acted in it
    g0 = t.controller.game
    deal, dealer = g0.deal_no, g0.dealer
    for console in t.consoles:
        console.hold = True
    sup.link.send(W.SUPERVISOR, W.BUTTON, bytes((VOID, 0)))
    end = t.now + 5000
    while t.controller.game is g0 and t.now < end:
        t.step()
    g = t.game = t.controller.game
    assert g is not g0, t.controller.faults
    assert (g.deal_no, g.dealer, list(g.scores)) == (deal, dealer, scores)
    assert any("voided by the supervisor EMU-SUPERVISOR" in f for f in t.controller.faults)
    game = load(t.journal)[-1]
    assert [v["why"] for v in game["voided"]] == ["voided by the supervisor EMU-SUPERVISOR"]
    assert game["voided"][0]["inputs"]  # the deal's inputs, voided
    for keep_log in (False, True):  # a board resumes from the void as the table stands
        from tapis.firmware.boot.build import resume
        again = Journal(MemoryStore(bytes(t.journal.store.read())))
        load(again, False, keep_log)
        assert resume(again, keep_log)[0].snapshot() == g.snapshot()
    if game == "ecarte":  # tapis recall names who voided it
        import os
        import subprocess
        import sys
        path = str(tmp_path / "journal.bin")
        with open(path, "wb") as f:
            f.write(bytes(t.journal.store.read()))
        root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
        r = subprocess.run([sys.executable, "-m", "tapis", "recall", "--journal", path, "--last", "1"],
                           cwd=root, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert "VOID: voided by the supervisor EMU-SUPERVISOR" in r.stdout
    for console in t.consoles:
        console.hold = False
    t.run_deals(deal)  # the deal is dealt again and played out
    assert t.controller.errors.get("input", 0) == 0, t.controller.faults


def test_a_panel_cannot_void_a_deal():
    """A panel's frame can carry a supervisor's command only as the supervisor's
    address on the shoe's wire, or from its own: neither is the credential."""
    from tapis.firmware.operator.commands import VOID
    t = journaled()
    mid_deal(t, 1)
    c = t.controller
    g0 = c.game
    shoe = c.route[W.SHOE]
    c.on_frame(shoe, W.SUPERVISOR, 1, W.BUTTON, bytes((VOID, 0)))  # on the shoe's UART
    c.on_frame(c.route[W.PANEL], W.PANEL, 1, W.BUTTON, bytes((B.SUPERVISOR, VOID)))
    assert c.game is g0 and c.errors.get("credentials") == 2
    assert load(t.journal)[-1]["voided"] == []


def test_tapis_play_voids_a_deal_with_the_operators_supervisor_device():
    """tapis play: the operator's key sends the supervisor device's VOID on a link of its
    own; the deal in play is dealt again and the game plays on."""
    from tapis.host.play.seats import Paced
    from tapis.host.play.table import PlayTable
    from tapis.simulator.kits.ecarte import Bot
    t = PlayTable(2, "ecarte", 0, bots=lambda s: Bot(), pause_s=0)
    t.consoles[0].player = Paced(Bot(), 0)  # a bot at the person's seat too

    def until(done, most=200000):
        while not done() and t.now < most:
            t.advance(100, done)
        assert done()
    until(lambda: t.game.finished_deals() == 1 and t.game.to_act >= 0)
    g0 = t.controller.game
    t.void()
    until(lambda: t.controller.game is not g0)
    assert t.game is t.controller.game
    assert "voided by the supervisor EMU-SUPERVISOR" in t.controller.faults
    until(lambda: t.game.finished_deals() == 3)


# ---- issue 12.3: the bank, stake limits, configuration and recall, with who ------------------
from hypothesis import given, settings, strategies as st  # noqa: E402

from tapis.firmware.games import club  # noqa: E402
from tapis.firmware.games.rules import CHANCE, IllegalAction  # noqa: E402

SUP = -2  # games/club/events.py SUP: the seat of the supervisor's actions
BOARDS = ("cpython", "micropython")


def club_table(board, seed, options=None, journal=True):
    """A club table with the supervisor device on its bus; on the MicroPython board the
    firmware runs under the webassembly port (its journal in the port's filesystem)."""
    if board == "micropython":
        from tapis.simulator.boards.vtable import VirtualBoardTable
        t = VirtualBoardTable(seed, "club", options=options)
    else:
        t = EmulatedTable(seed, "club", options=options, journal=Journal(MemoryStore()) if journal else None)
    return t, with_supervisor(t)


def close(t):
    if hasattr(t, "close"):
        t.close()


def until(t, done, ms=60000):
    end = t.now + ms
    while not done() and t.now < end:
        t.step()
    assert done(), getattr(t.controller, "faults", [])[-5:]


def sup_events(t, kinds=("limits", "authorise", "give", "in_force")):
    log = t.board_log if hasattr(t, "board_log") else t.game.log
    return [e for e in log if e[0] in kinds]


def lim(t):
    g = t.game  # on the MicroPython board: the CPython mirror, fed only what the board applied
    return list(g.lim), g.pending, g.auth


@pytest.mark.parametrize("board", BOARDS)
def test_a_panel_cannot_set_the_limits_nor_authorise_a_responsible_bank_nor_take_the_bank(board):
    """Each seat's console sends the supervisor's commands from its own (paired, sealed)
    panel address: the SUPERVISE frame of the limits (bank 60, minimums 0), the
    supervisor's RESPONSIBLE and GIVE as the supervisor's button and as bare buttons.
    Refused (on CPython: counted as credentials), and the bank, the minimums, the
    authorisation and the banker are as before: no supervisor event in the board's log,
    nothing of them in the journal. Before 12.3 no such command existed: the test fails
    there on the frame (wire.SUPERVISE) and on the supervised bank (club.Options)."""
    from tapis.firmware.operator.commands import GIVE, LIMITS, RESPONSIBLE
    from tapis.firmware import wire as W2
    opts = club.Options(supervised=True)
    t, _sup = club_table(board, 7, opts)
    try:
        until(t, lambda: t.game.deals_done >= 1)
        before = lim(t)
        banker, banks = t.game.banker, t.game.banks_done
        limits = bytes((LIMITS,)) + b"".join(v.to_bytes(2, "big") for v in (60, 0, 0))
        for s, console in enumerate(t.consoles):
            me = W.PANEL + s
            console.link.send(me, W2.SUPERVISE, limits)
            console.link.send(me, W.BUTTON, bytes((B.SUPERVISOR, RESPONSIBLE)))
            console.link.send(me, W.BUTTON, bytes((B.SUPERVISOR, GIVE)))
        step(t, 3000)
        assert sup_events(t) == []
        assert lim(t) == before == ([15, 6, 3], None, -1)
        assert t.game.banks_done > banks or t.game.banker == banker  # the bank only in rotation
        assert not [e for e in (t.board_log if board == "micropython" else t.game.log)
                    if e[0] == "respond"]  # no responsible bank without the supervisor's leave
        if board == "cpython":
            c = t.controller
            assert c.errors.get("credentials", 0) == 3 * len(t.consoles)  # each SUPERVISE and button 10
            assert all(not g["supervised"] for g in load(t.journal))
            assert not [a for g in load(t.journal) for a, _e, _f in g["inputs"] if a[1] == SUP]
    finally:
        close(t)


@pytest.mark.parametrize("board", BOARDS)
def test_the_supervisor_sets_the_limits_from_the_next_bank_and_the_journal_says_who(board, tmp_path):
    """The supervisor device's SUPERVISE [LIMITS, 20, 8, 4] mid-bank: pending (the views
    say so), then in force from the next bank laid (a lay of 20; the first two punters'
    minimums 8 and 4 on its first card); the journal's input names the supervisor's serial
    and tapis recall shows it. A bad value (a bank of 0, refused by club.Options) is one
    counted error and changes nothing."""
    t, sup = club_table(board, 11)
    try:
        until(t, lambda: t.game.deals_done >= 1 and t.game.kind is not None)
        sup.limits(0, 3, 3)  # refused by the game's Options: a bank of at least 1
        step(t, 2500)
        assert sup_events(t) == [] and lim(t) == ([15, 6, 3], None, -1)
        banks = t.game.banks_done
        sup.limits(20, 8, 4)
        until(t, lambda: sup_events(t))
        assert sup_events(t) == [("limits", SUP, ("EMU-SUPERVISOR", 20, 8, 4))]
        assert t.game.pending == [20, 8, 4] and t.game.lim == [15, 6, 3]
        if board == "cpython":  # a board resumes with the limits pending (from its last deal's end too)
            from tapis.firmware.boot.build import resume
            t.journal.flush()
            for keep_log in (False, True):
                again = Journal(MemoryStore(bytes(t.journal.store.read())))
                load(again, False, keep_log)
                assert resume(again, keep_log)[0].snapshot() == t.game.snapshot()
            assert t.controller.errors.get("supervisor") == 1
            assert any("limits are refused" in f for f in t.controller.faults)
            assert t.controller.table.view(0)["pending"] == [20, 8, 4]
        until(t, lambda: t.game.banks_done > banks and t.game.kind is not None, 120000)
        log = t.board_log if board == "micropython" else t.game.log
        at = log.index(("in_force", SUP, (20, 8, 4)))
        assert [e for e in log[:at] if e[0] == "lay"] and all(e[2] == 15 for e in log[:at] if e[0] == "lay")
        lays = [e for e in log[at:] if e[0] == "lay"]
        assert lays and all(e[2] == 20 for e in lays)
        assert t.game.lim == [20, 8, 4] and t.game.pending is None
        if board == "cpython":
            v = t.controller.table.view(0)
            assert v["limits"] == [20, 8, 4] and "pending" not in v
            ins = [a for g in load(t.journal) for a, _e, f in g["inputs"] if a[0] == "limits"]
            assert ins == [("limits", SUP, ("EMU-SUPERVISOR", 20, 8, 4))]
            path = tmp_path / "journal.bin"
            path.write_bytes(bytes(t.journal.store.read()))
            r = recall_cli(path)
            assert "SUPERVISOR EMU-SUPERVISOR: a bank of 20, minimums 8 and 4" in r.stdout
    finally:
        close(t)


def recall_cli(path, *more):
    import os
    import subprocess
    import sys
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    r = subprocess.run([sys.executable, "-m", "tapis", "recall", "--journal", str(path), "--last", "10"] + list(more),
                       cwd=root, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r


def banker_deciding(t, fresh=True):
    """Run until a banker is deciding a new bank (nothing laid yet), with money."""
    until(t, lambda: t.game.phase == 0 and t.game.kind is None and t.game.lays == 0
          and t.game.balances[t.game.banker] > 0 and (not fresh or t.game.banks_done >= 1), 120000)


def test_a_responsible_bank_only_with_the_supervisors_leave_for_that_banker():
    """Supervised: a responsible bank answers every stake without limit, so a banker may
    hold one only when the supervisor authorised it for his bank. Before the leave
    "respond" is not among the banker's choices and the rules refuse it (the banker's
    panel cannot make it); after, it is, the journal names who, and the leave ends with
    that seat's bank. A leave for a seat that is not at the table is refused, counted."""
    opts = club.Options(supervised=True)
    t, sup = club_table("cpython", 3, opts)
    for console in t.consoles:
        console.hold = True
    step(t, 500)
    g = t.game
    b = g.banker
    assert "respond" not in g.choices() and "respond" not in t.controller.table.banker_choices()
    with pytest.raises(IllegalAction):
        g.verify(("respond", b, False))
    with pytest.raises(IllegalAction):  # a seat cannot give itself the leave
        g.verify(("authorise", b, ("seat", b)))
    sup.authorise(9)
    step(t, 2500)
    assert t.controller.errors.get("supervisor") == 1 and g.auth == -1
    sup.authorise(b)
    until(t, lambda: g.auth == b)
    assert "respond" in g.choices()
    assert g.log[-1] == ("authorise", SUP, ("EMU-SUPERVISOR", b))
    ins = [a for a, _e, _f in load(t.journal)[-1]["inputs"] if a[0] == "authorise"]
    assert ins == [("authorise", SUP, ("EMU-SUPERVISOR", b))]
    g.apply(("respond", b, False))  # the banker may now
    assert g.kind == "responsible"
    g._next_banker()  # his bank passes on: the leave with it
    assert g.auth == -1 and g.banker != b


def test_a_responsible_bank_needs_no_leave_at_an_unsupervised_table():
    """The laws (seed 004) let any banker answer as a responsible bank: a table that is not
    supervised (the default options) keeps that; the supervisor's leave is then refused
    as meaningless, counted."""
    t, sup = club_table("cpython", 3)
    for console in t.consoles:
        console.hold = True
    step(t, 200)
    assert "respond" in t.game.choices()
    sup.authorise(1)
    step(t, 2500)
    assert t.controller.errors.get("supervisor") == 1 and sup_events(t) == []


def test_the_supervisor_gives_the_bank_out_of_rotation():
    """The bank passes only in rotation from a panel (REFUSE: to the next seat); out of
    rotation only by the supervisor's GIVE, at a banker's decision, journaled with who.
    At any other time, or to the banker himself, it is refused and counted."""
    t, sup = club_table("cpython", 5)
    until(t, lambda: t.game.phase == 1)  # the punters stake: not a banker's decision
    sup.give(3)
    step(t, 1500)
    assert t.controller.errors.get("supervisor") == 1 and sup_events(t) == []
    banker_deciding(t, fresh=False)
    for console in t.consoles:
        console.hold = True
    b = t.game.banker
    to = (b + 2) % 4
    total = t.game.total()
    sup.give(to)
    until(t, lambda: t.game.banker == to)
    assert ("give", SUP, ("EMU-SUPERVISOR", to)) in t.game.log and t.game.total() == total
    assert [a for a, _e, _f in load(t.journal)[-2]["inputs"] if a[0] == "give"] == [
        ("give", SUP, ("EMU-SUPERVISOR", to))]


def test_a_recall_is_journaled_with_who_and_tapis_recall_shows_it(tmp_path):
    """Each RECALL answered writes a record: who asked (the supervisor's serial, or "usb"
    for a host tool on the operator's link) and how many games it was sent. A refused one
    writes nothing (it is counted)."""
    t = journaled()
    sup = with_supervisor(t)
    mid_deal(t, 1)
    for console in t.consoles:
        console.hold = True
    t.consoles[1].link.send(W.PANEL + 1, W.RECALL, bytes((3,)))  # refused: no record
    sup.recall(2)
    until(t, lambda: sup.games is not None)
    usb = usb_link(t)
    usb.send(W.HOST, W.RECALL, bytes((1,)))
    got = []
    for _ in range(3000):
        t.step()
        got.extend(f for f in usb.poll(t.now) if f[2] == W.RECORD)
    assert got
    t.journal.flush()
    recs = [r for g in load(t.journal) for r in g["supervised"]]
    assert recs == [{"k": "s", "do": "recall", "who": "EMU-SUPERVISOR", "n": 1},
                    {"k": "s", "do": "recall", "who": "usb", "n": 1}]
    assert t.controller.errors.get("credentials") == 1
    path = tmp_path / "journal.bin"
    path.write_bytes(bytes(t.journal.store.read()))
    out = recall_cli(path).stdout
    assert "RECALL by EMU-SUPERVISOR: 1 games" in out and "RECALL by usb: 1 games" in out


def test_a_configuration_change_is_journaled_at_boot_with_who_signed_it(tmp_path):
    """At boot (boot.build, as main.py calls it with config.signer()): a fresh journal
    records the configuration its first game begins with and who signed it; a board
    booted again with another configuration (a new manifest version) than its journal's
    game records the change, once, with who signed it; the same configuration again
    records nothing. The records chain (a keyed journal) and tapis recall shows them."""
    from tapis.firmware.boot.build import build
    from tapis.firmware.boot.config import signer
    from tapis.simulator.table.emulated import EmulatedTable as T
    key = bytes(range(32))
    store = MemoryStore()
    (tmp_path / "manifest.json").write_text(json.dumps({"v": 2, "version": 3, "files": {}}))
    (tmp_path / "manifest.pub").write_text("ab" * 32 + "\n")
    who = signer(str(tmp_path) + "/")
    assert who == "manifest v3 key " + "ab" * 8
    t = T(1, "club")
    route = t.controller.route

    def boot(options, signed):
        j = Journal(store, key=key, device="dev1")
        build(route, j, "club", options, keep_log=False, signed=signed)
        return j
    boot(club.Options(), who)
    boot(club.Options(), who)  # the same: nothing more
    boot(club.Options(bank=30), "manifest v4 key " + "ab" * 8)
    boot(club.Options(bank=30), "manifest v4 key " + "ab" * 8)  # journaled once
    j = Journal(MemoryStore(bytes(store.read())), key=key, device="dev1")
    recs = [(r["who"], r["o"]["bank"], r["why"]) for g in load(j) for r in g["supervised"]]
    assert recs == [(who, 15, "in force"),
                    ("manifest v4 key " + "ab" * 8, 30, "flashed; the journal's game goes on under its own")]
    from tapis.host.memory.games import text
    out = text(load(j))
    assert "CONFIGURATION club, signed %s: in force" % who in out
    assert "signed manifest v4 key %s: flashed" % ("ab" * 8) in out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.tuples(st.integers(0, 400), st.integers(-5, 60),
                                                   st.integers(-5, 60), st.integers(-5, 60)), max_size=12),
       st.integers(2, 6), st.booleans())
def test_money_is_conserved_through_the_supervisors_limit_changes(seed, changes, seats, resp):
    """Club, random legal play for 400 steps with the supervisor's limits (some refused: a
    bank below 1, a negative minimum), leaves and gifts of the bank at random moments: the
    money at the table (balances, bank, cloth, house) never changes, every lay is of the
    limits in force, and the game rebuilt from its snapshot plays on identically."""
    from tapis.firmware.offboard.rng import Seeded
    from tapis.firmware.offboard import deck
    rng = Seeded(seed)
    g = club.Rules(club.Options(seats=seats, balance=60, supervised=resp))
    total = g.total()
    at = {c[0]: c[1:] for c in changes}
    pack, pos = [], 0
    for i in range(400):
        if i in at:
            b, m1, m2 = at[i]
            for act in (("limits", SUP, ("S", b, m1, m2)), ("authorise", SUP, ("S", rng.below(seats))),
                        ("give", SUP, ("S", rng.below(seats)))):
                if g.can(act):
                    g.apply(act)
                elif act[0] == "limits":
                    assert b < 1 or min(m1, m2) < 0
        if g.to_act == CHANCE:
            if g.cards_due()[1]:  # a fresh shoe
                pack, pos = deck.shoe(), 0
                for k in range(len(pack) - 1, 0, -1):
                    r = rng.below(k + 1)
                    pack[k], pack[r] = pack[r], pack[k]
            if len(pack) - pos == 40 and not g.cut:
                g.apply(("cut", CHANCE, None))
            g.apply(("shoe", CHANCE, pack[pos]))
            pos += 1
        else:
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])
        assert g.total() == total
    leave, banker = -1, 0  # supervised: every responsible bank held with the leave for that banker
    for e in g.log:
        if e[0] == "authorise":
            leave = e[2][1]
        elif e[0] == "banker":
            leave = -1 if leave == banker else leave
            banker = e[1]
        elif e[0] == "respond" and resp:
            assert leave == e[1], "a responsible bank without the supervisor's leave"
    lays = [e for e in g.log if e[0] in ("lay", "in_force")]
    size = 15
    for e in lays:
        if e[0] == "in_force":
            size = e[2][0]
        else:
            assert e[2] == size
    again = club.Rules(g.options)
    again.restore(json.loads(json.dumps(g.snapshot())))
    assert again.snapshot() == g.snapshot()


def play_table(game, seat, pause_s, most):
    """tapis play's table (seed 2), the person's seat played by a paced bot: (the table,
    until(done), which advances it until done() or `most` ms, and asserts done)."""
    from tapis.host.play.seats import Paced
    from tapis.host.play.table import PlayTable
    from tapis.simulator import kits
    bot = kits.find(game).Bot
    t = PlayTable(2, game, seat, bots=lambda s: bot(), pause_s=pause_s)
    t.consoles[seat].player = Paced(bot(), pause_s)

    def until(done):
        while not done() and t.now < most:
            t.advance(100, done)
        assert done(), t.controller.faults[-3:]
    return t, until


def test_tapis_play_operator_keys_set_the_limits_and_give_the_bank():
    """tapis play, club: the operator's keys send the supervisor device's commands on its
    own link: L doubles the limits (in force from the next bank, shown on the seat's
    display), G gives the person's seat the bank; the game plays on."""
    t, until = play_table("club", 2, 0.3, 400000)
    t.supervise("give")  # before the device said who it is (its HELLO): refused, counted
    t.advance(100)
    assert t.controller.errors.get("supervisor") == 1 and t.game.banker == 0
    assert t.game.phase == 0  # seat 0 decides its bank; next in rotation: 1
    t.supervise("give")  # while the banker thinks (a bot's pause)
    until(lambda: t.game.banker == 2)
    assert ("give", -2, ("EMU-SUPERVISOR", 2)) in t.game.log
    until(lambda: t.game.deals_done >= 1)
    t.supervise("limits")
    until(lambda: t.game.pending == [30, 12, 6] or t.game.lim == [30, 12, 6])
    until(lambda: t.view() and t.view()["limits"] == [30, 12, 6] or t.view().get("pending") == [30, 12, 6])
    d = t.game.deals_done
    until(lambda: t.game.deals_done >= d + 2)
    assert t.controller.errors.get("input", 0) == 0


# ---- issue 12.3: the supervisor's stake limits at écarté ------------------------------------
from tapis.firmware.games import ecarte  # noqa: E402


def ecarte_table(board, seed, options=None):
    """An écarté table with the supervisor device on its bus (a journal on CPython; on the
    MicroPython board the webassembly port's own)."""
    if board == "micropython":
        from tapis.simulator.boards.vtable import VirtualBoardTable
        t = VirtualBoardTable(seed, "ecarte", options=options)
    else:
        t = EmulatedTable(seed, "ecarte", options=options, journal=Journal(MemoryStore()))
    return t, with_supervisor(t)


def thawed(game):
    """A game's snapshot with each set's items sorted (a set's order is its history's)."""
    def canon(v):
        if isinstance(v, dict):
            if list(v) == ["s"]:
                return {"s": sorted((canon(x) for x in v["s"]), key=repr)}
            return {k: canon(x) for k, x in v.items()}
        return [canon(x) for x in v] if isinstance(v, list) else v
    return canon(game.snapshot())


def board_events(t, kinds):
    log = t.board_log if hasattr(t, "board_log") else t.game.log
    return [e for e in log if e[0] in kinds]


def wager(t):
    w = t.game.wagers  # on the MicroPython board: the CPython mirror, fed what the board applied
    return w.stake, w.max_bet, w.next


@pytest.mark.parametrize("board", BOARDS)
def test_a_panel_cannot_set_the_ecarte_limits(board):
    """Each seat's console (a player and a gallery seat) sends SUPERVISE [LIMITS, 50, 99]
    from its own panel address: refused (on CPython counted as credentials, three times),
    the stake, the largest bet and what is pending as before, no supervisor event in the
    board's log, no such input in the journal. At the rules, a seat's own ("limits", seat,
    ...) is refused. Before this change it failed at `wagers.next` (écarté had no pending
    limits) and at the rules' answer, which was "no such action", not the supervisor's."""
    from tapis.firmware.operator.commands import LIMITS
    from tapis.firmware import wire as W2
    t, _sup = ecarte_table(board, 7, ecarte.Options(gallery=1))
    try:
        until(t, lambda: t.game.finished_deals() >= 1 and t.game.to_act >= 0)
        before = wager(t)
        assert before == (1, 20, None)
        limits = bytes((LIMITS,)) + b"".join(v.to_bytes(2, "big") for v in (50, 99))
        for s, console in enumerate(t.consoles):
            console.link.send(W.PANEL + s, W2.SUPERVISE, limits)
        step(t, 3000)
        assert board_events(t, ("limits", "in_force")) == []
        assert wager(t) == before
        if board == "cpython":
            c = t.controller
            assert c.errors.get("credentials", 0) == len(t.consoles) == 3
            assert not [a for g in load(t.journal) for a, _e, _f in g["inputs"] if a[0] == "limits"]
            g = t.game
            for seat in (0, 1, 2):
                with pytest.raises(IllegalAction, match="that is the supervisor's"):
                    g.verify(("limits", seat, ("S", 50, 99)))
    finally:
        close(t)


def pays_of_games(log):
    """[(game value, [stake pay amounts])] for each game finished in `log`, with the limits
    in force at its end (as the in_force events say)."""
    out, stake = [], 1
    value = None
    for e in log:
        if e[0] == "in_force":
            stake = e[2][0]
        elif e[0] == "game":
            value = e[2]
        elif e[0] == "pay" and value is not None:
            out.append((stake, value, e[2][1]))
        elif e[0] == "balances":
            value = None
    return out


@pytest.mark.parametrize("board", BOARDS)
def test_the_supervisor_sets_the_ecarte_stake_from_the_next_game_and_the_journal_says_who(board, tmp_path):
    """Mid-game the supervisor device's SUPERVISE [LIMITS, 1000, 5] (a stake above 999) is
    refused, counted, nothing changes; then [LIMITS, 3, 4]: journaled with the supervisor's
    serial, pending (the views say so) while the game in play is settled at the stake it
    began with, in force when the next game begins (the in_force event follows the first
    game's settlement): its loser pays 3 x the game's value. A board resumes with the
    limits pending; tapis recall shows them."""
    t, sup = ecarte_table(board, 5)
    try:
        until(t, lambda: t.game.finished_deals() >= 1 and t.game.to_act >= 0)
        sup.limits(1000, 5)
        step(t, 2500)
        assert board_events(t, ("limits", "in_force")) == [] and wager(t) == (1, 20, None)
        sup.limits(3, 4)
        until(t, lambda: board_events(t, ("limits",)))
        assert board_events(t, ("limits", "in_force")) == [("limits", SUP, ("EMU-SUPERVISOR", 3, 4))]
        assert wager(t) == (1, 20, [3, 4])  # the game in play began: pending
        g0 = t.game.game_no
        if board == "cpython":
            c = t.controller
            assert c.errors.get("supervisor") == 1
            assert any("limits are refused" in f for f in c.faults)
            v = c.table.view(0)
            assert v["limits"] == [1, 20] and v["pending"] == [3, 4]
            from tapis.firmware.boot.build import resume
            t.journal.flush()
            for keep_log in (False, True):
                again = Journal(MemoryStore(bytes(t.journal.store.read())))
                load(again, False, keep_log)
                assert thawed(resume(again, keep_log)[0]) == thawed(t.game)
        until(t, lambda: t.game.game_no >= g0 + 2, 600000)
        log = t.board_log if board == "micropython" else t.game.log
        at = log.index(("in_force", SUP, (3, 4)))
        assert [e for e in log[:at] if e[0] == "game"] and not [e for e in log[at:] if e[0] == "limits"]
        first = [e for e in log[:at] if e[0] == "pay"]
        later = [e for e in log[at:] if e[0] == "pay"]
        assert first and later
        games = pays_of_games(log)
        assert all(amount == stake * value for stake, value, amount in games)
        assert {s for s, _v, _a in games} == {1, 3}
        assert wager(t) == (3, 4, None)
        if board == "cpython":
            v = t.controller.table.view(1)
            assert v["limits"] == [3, 4] and "pending" not in v
            ins = [a for g in load(t.journal) for a, _e, _f in g["inputs"] if a[0] == "limits"]
            assert ins == [("limits", SUP, ("EMU-SUPERVISOR", 3, 4))]
            path = tmp_path / "journal.bin"
            path.write_bytes(bytes(t.journal.store.read()))
            out = recall_cli(path).stdout
            assert "SUPERVISOR EMU-SUPERVISOR: a stake of 3 a game, bets of at most 4, from the next game" in out
            assert "The limits now: a stake of 3 a game, bets of at most 4" in out
    finally:
        close(t)


def test_piquet_has_no_limits():
    """Piquet has no money: the supervisor's limits are refused there, counted."""
    t = EmulatedTable(3, "piquet", journal=Journal(MemoryStore()))
    sup = with_supervisor(t)
    until(t, lambda: t.game.to_act >= 0)
    step(t, 1000)  # the supervisor device's HELLO
    sup.limits(3, 4)
    step(t, 2500)
    assert t.controller.errors.get("supervisor") == 1
    assert any("no limits at this table" in f for f in t.controller.faults)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.tuples(st.integers(0, 300), st.integers(-2, 1100),
                                                   st.integers(-2, 1100)), max_size=10),
       st.sampled_from([{"gallery": 2}, {"gallery": 1, "pool": True}, {"gallery": 3, "stake": 2}]))
def test_money_is_conserved_through_the_supervisors_ecarte_limits(seed, changes, variant):
    """Écarté, random legal play for 300 steps with gallery bets and the supervisor's
    limits at random moments (some refused: below 0 or above 999): the balances and the
    pool always sum to 0; a game's stake pays are its stake in force x its value (the
    limits change only between games); no bet is locked above the largest in force when
    its game began; the game rebuilt from its snapshot is the same."""
    from tapis.firmware.offboard.rng import Seeded
    from tapis.firmware.offboard import deck
    rng = Seeded(seed)
    g = ecarte.Rules(ecarte.Options(**variant))
    seats = g.options.players + g.options.gallery
    at = {c[0]: c[1:] for c in changes}
    pack = []
    locked = None
    for i in range(300):
        if i in at:
            stake, most = at[i]
            act = ("limits", SUP, ("S", stake, most))
            if g.can(act):
                g.apply(act)
                assert g.wagers.next is None or g.wagers.locked is not None  # pending only mid-game
            else:
                assert not (0 <= stake <= 999 and 0 <= most <= 999)
        if g.to_act == CHANCE:
            if g.cards_due()[1]:
                pack = deck.shuffle(deck.deck32(), rng.below)
            g.apply(("shoe", CHANCE, pack[g.delivered]))
        else:
            acts = g.legal_actions()
            b = rng.below(seats)
            bet = ("bet", b, (rng.below(2), rng.below(25)))
            g.apply(bet if rng.below(3) == 0 and g.can(bet) else acts[rng.below(len(acts))])
        if g.wagers.locked is not locked:
            locked = g.wagers.locked
            assert all(amount <= g.wagers.max_bet for _b, _s, _a, amount in locked or ())
        assert sum(g.wagers.balances) + g.wagers.pool == 0
    games = [e for e in g.log if e[0] in ("game", "in_force", "pay", "balances")]
    stake, value, first = g.options.stake, None, False
    for e in games:
        if e[0] == "in_force":
            stake = e[2][0]
        elif e[0] == "game":
            value, first = e[2], True
        elif e[0] == "pay" and value is not None and first:
            first = False  # settle pays the stake first (wagers.settle), when there is one
            if stake:
                assert e[2][1] == stake * value
        elif e[0] == "balances":
            value = None
    again = ecarte.Rules(g.options)
    again.restore(json.loads(json.dumps(g.snapshot())))

    def norm(snap):  # the cards seen are a set: compared whatever their order
        snap = json.loads(json.dumps(snap))
        snap["seen"]["s"].sort()
        return snap
    assert norm(again.snapshot()) == norm(g.snapshot())
    assert again.wagers.next == g.wagers.next and again.wagers.stake == g.wagers.stake


def test_tapis_play_operator_key_sets_the_ecarte_limits():
    """tapis play, écarté: the operator's L doubles the stake and the largest bet with the
    supervisor device (in force from the next game, shown on the person's display)."""
    t, until = play_table("ecarte", 0, 0, 600000)
    until(lambda: t.game.finished_deals() >= 1 and t.game.to_act >= 0)
    t.supervise("limits")
    until(lambda: t.game.wagers.next == [2, 40] or t.game.wagers.stake == 2)
    until(lambda: t.view() and t.view().get("limits") == [2, 40])
    assert ("in_force", SUP, (2, 40)) in t.game.log
    assert t.controller.errors.get("input", 0) == 0
