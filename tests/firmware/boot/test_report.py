# The board's optional report on its USB console (firmware/boot/report.py): off unless its
# flag file exists; when on, one line per applied input that ast.literal_eval reads back, and
# the heap at each new deal.
import ast

from tapis.firmware.boot import report
from tapis.firmware.games.ecarte import rules as R


def test_off_unless_the_flag_file_exists(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "FLAG", str(tmp_path / "report.on"))
    g = R.Ecarte(first_dealer=0)
    apply = g.apply
    lines = []
    assert report.install(g, lines.append) is False
    assert g.apply == apply and not lines


def test_on_every_input_is_reported_as_applied_and_the_heap_at_each_deal(tmp_path, monkeypatch):
    flag = tmp_path / "report.on"
    flag.touch()
    monkeypatch.setattr(report, "FLAG", str(flag))
    # CPython's gc counts no heap: MicroPython's figures stand in
    monkeypatch.setattr(report.gc, "mem_alloc", lambda: 1000, raising=False)
    monkeypatch.setattr(report.gc, "mem_free", lambda: 2000, raising=False)
    g = R.Ecarte(first_dealer=0)
    g.scores = [4, 2]  # the dealer's turned king will end the game, and the next deal begin
    lines = []
    assert report.install(g, lines.append) is True
    before = len(g.log)
    assert lines == [report.APPLIED + repr((None, tuple(g.log))), "tapis-heap 1000 2000"]
    del lines[:]
    cards = (0x05, 0x06, 0x27, 0x1A, 0x19, 0x1C, 0x3B, 0x36, 0x0B, 0x35, 0x1B)  # 7S 8S 9D QH JH AH KC 8C KS 7C KH
    for c in cards:
        g.apply(("shoe", R.CHANCE, c))
    applied = [ast.literal_eval(x[len(report.APPLIED):]) for x in lines if x.startswith(report.APPLIED)]
    assert [a for a, _ in applied] == [("shoe", R.CHANCE, c) for c in cards]
    assert sum((list(e) for _, e in applied), []) == g.log[before:]
    # one heap line, after the input whose events hold the new deal
    heap = [i for i, x in enumerate(lines) if x.startswith(report.HEAP)]
    assert g.deal_no == 2 and [lines[i] for i in heap] == ["tapis-heap 1000 2000"]
    assert heap == [len(lines) - 1] and "'deal'" in lines[-2]
