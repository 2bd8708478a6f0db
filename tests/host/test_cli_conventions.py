# The tapis command as a newcomer meets it (issue 15): no tracebacks, exit 2 and one clear line
# for bad input, Ctrl-C exits 130, a closed pipe or a terminal that is not UTF-8 is no error,
# cards are taken as they are printed, progress bars on a terminal only, --quiet for scripts.
import json
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from helpers import within
from tapis.host import args as A
from tapis.firmware.offboard import deck
from tapis.firmware.cards import name, names

ROOT = Path(__file__).resolve().parents[2]


def env(**extra):
    e = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    e.update(extra)
    return e


def tapis(*argv, timeout=300, **extra):
    return subprocess.run([sys.executable, "-m", "tapis"] + list(argv), cwd=ROOT, env=env(**extra),
                          capture_output=True, text=True, timeout=timeout)


def one_clear_line(p, *words):
    """Exit 2, nothing on stdout, no traceback, and the error said once, on its last line."""
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("tapis") and all(w in last for w in words), p.stderr


def test_version_from_the_command_and_from_python_m():
    import tapis as package

    script = Path(sys.executable).parent / "tapis"  # the console script pip made
    p = subprocess.run([str(script), "--version"], env=env(), capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.strip() == "tapis %s" % package.__version__
    p = subprocess.run([sys.executable, "-m", "tapis", "--version"], cwd="/", env=env(), capture_output=True,
                       text=True)
    assert p.returncode == 0 and p.stdout.strip() == "tapis %s" % package.__version__


@pytest.mark.parametrize("argv,words", [
    (["table", "--delay", "-1"], ["--delay", "'-1'"]),
    (["table", "--delay", "nan"], ["--delay"]),
    (["table", "--deals", "0"], ["--deals"]),
    (["shoe", "emulate", "--port", "loop://", "--interval", "-1"], ["--interval"]),
    (["recall", "--port", "loop://", "--timeout", "-2"], ["--timeout"]),
    (["odds", "ecarte", "--all", "--workers", "1000", "--limit", "1"], ["--workers", "at most"]),
    (["eval", "ecarte", "--hand", "7X KS QS JS 7D", "--turned", "8H"], ["'7X'"]),
    (["eval", "club", "--banker", "KS JS 9S 2H", "--punter", "QS JS 2S 3D", "--trump", "♥♥"], ["trump"]),
    (["eval", "club", "--banker", "KS JS 9S 2H", "--punter", "QS JS 2S 3D", "--trump", "8S 9S"], ["trump"]),
])
def test_bad_input_exits_2_in_one_clear_line(argv, words):
    one_clear_line(tapis(*argv), *words)


def test_a_monitor_that_cannot_start_says_why_last_and_keeps_no_capture(tmp_path):
    kept = tmp_path / "kept.cap"
    one_clear_line(tapis("shoe", "monitor", "--port", str(tmp_path / "no-port"), "--capture", str(kept)),
                   "cannot open")
    assert not kept.exists()
    (tmp_path / "text").write_text("hello\n")
    one_clear_line(tapis("shoe", "monitor", "--from", str(tmp_path / "text")), "not a tapis shoe capture")


@pytest.mark.parametrize("argv", [["table", "--bogus"], ["eval", "ecarte", "--hand", "KS", "--turned", "8H", "--nope"],
                                  ["shoe", "monitor", "--port", "loop://", "--interval", "1"]])
def test_an_unknown_option_gets_the_usage_of_its_subcommand(argv):
    p = tapis(*argv)
    one_clear_line(p, "unrecognized arguments")
    sub = " ".join(a for a in argv[:2] if not a.startswith("-"))
    assert ("usage: tapis " + sub) in p.stderr.replace("\n", " ")


# ---- cards as printed --------------------------------------------------------------------------
CANON = "7H KS QS JS 7D"


@pytest.mark.parametrize("printed", [
    "7♥ K♠ Q♠ J♠ 7♦",               # the table's watch, and eval's own lines on a UTF-8 terminal
    "7♥,K♠,Q♠,J♠,7♦",
    '["7H", "KS", "QS", "JS", "7D"]',  # pasted from a deal record's "hands"
    "7h ks qs js 7d",
    "7♥️ K♠️ Q♠️ J♠️ 7♦️",             # with emoji presentation selectors
])
def test_a_hand_is_taken_as_it_is_printed(printed):
    assert names(A.parse_cards(printed)) == CANON.split()


def test_ten_as_10_or_t_and_a_turned_card_as_printed():
    assert names(A.parse_cards("10H 10♠ T♦ tc")) == ["TH", "TS", "TD", "TC"]
    assert names([A.card("8♥")]) == ["8H"] and names([A.card('"8H"')]) == ["8H"]
    for bad in ("1H", "10", "♥", "KX", "11H", "8H 9H"):
        with pytest.raises(Exception):
            A.card(bad)


@given(st.lists(st.sampled_from(deck.deck52()), min_size=1, max_size=12),
       st.lists(st.sampled_from(["plain", "pretty", "ten", "lower", "ascii"]), min_size=12, max_size=12),
       st.sampled_from([" ", ",", ", ", "  ", ";"]), st.sampled_from(["bare", "record"]))
def test_every_card_as_any_tool_prints_it_reads_back(cards, looks, sep, wrap):
    """The forms tapis prints a card in (deal records, the table's watch, its ASCII look-alike,
    10 for T) in any mix, joined as a list or pasted as a JSON record, read back as those cards."""
    import json as _json
    from tapis.host.console import ascii_text
    from tapis.simulator.kits.show import pretty

    def look(c, how):
        text = {"plain": name(c), "pretty": pretty(c), "ascii": ascii_text(pretty(c)),
                "ten": name(c).replace("T", "10"), "lower": pretty(c).lower()}[how]
        return text

    printed = [look(c, how) for c, how in zip(cards, looks)]
    text = _json.dumps(printed, ensure_ascii=False) if wrap == "record" else sep.join(printed)
    assert A.parse_cards(text) == cards


def test_eval_answers_alike_for_a_hand_as_printed_and_as_coded():
    coded = tapis("eval", "ecarte", "--hand", CANON, "--turned", "8H", "--json")
    assert coded.returncode == 0, coded.stderr
    for hand, turned in (("7♥ K♠ Q♠ J♠ 7♦", "8♥"), ('["7H", "KS", "QS", "JS", "7D"]', "8h")):
        p = tapis("eval", "ecarte", "--hand", hand, "--turned", turned, "--json")
        assert p.returncode == 0 and json.loads(p.stdout) == json.loads(coded.stdout), p.stderr
    club = [tapis("eval", "club", "--banker", b, "--punter", "QS,JS,2S,3D", "--trump", t, "--json").stdout
            for b, t in (("KS JS 9S 2H", "S"), ("K♠ J♠ 9♠ 2♥", "♠"), ("KS JS 9S 2H", "8S"))]
    assert club[0] and club[0] == club[1] == club[2]  # a record's "trump" (the turned card) names the suit


# ---- interruptions, pipes, terminals -------------------------------------------------------------
def started(*argv, until=b"", **extra):
    """A tapis process that has printed `until` on stdout (read line by line)."""
    p = subprocess.Popen([sys.executable, "-m", "tapis"] + list(argv), cwd=ROOT, env=env(**extra),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = b""
    deadline = time.monotonic() + 120
    while until not in seen and time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        seen += line
    assert until in seen, (seen, p.stderr.read() if p.poll() is not None else b"")
    return p


def alive(pids):
    """Those of the processes that still run (not gone, not zombies)."""
    def running(pid):
        try:
            return "zombie" not in Path("/proc/%s/status" % pid).read_text().lower()
        except OSError:  # gone
            return False
    return [pid for pid in pids if running(pid)]


def interrupt(p):
    p.send_signal(signal.SIGINT)
    try:
        _out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        raise
    return p.returncode, err.decode()


def test_ctrl_c_while_watching_the_table_exits_130_without_a_traceback():
    p = started("table", "--delay", "0.05", until=b"Deal")
    rc, err = interrupt(p)
    assert rc == 130 and "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_ctrl_c_on_the_virtual_board_exits_130_and_stops_the_board():
    p = started("table", "--board", "micropython", "--delay", "0.05", until=b"Deal")
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(p.pid)], capture_output=True,
                              text=True).stdout.split()
    rc, err = interrupt(p)
    assert rc == 130 and "Traceback" not in err, err
    assert children
    within(10, lambda: not alive(children), "the board's processes gone")


def test_ctrl_c_in_the_atlas_stops_its_workers_too():
    p = subprocess.Popen([sys.executable, "-m", "tapis", "odds", "ecarte", "--all", "--workers", "2",
                          "--out", os.devnull], cwd=ROOT, env=env(), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    workers = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        workers = subprocess.run(["ps", "-o", "pid=", "--ppid", str(p.pid)], capture_output=True,
                                 text=True).stdout.split()
    assert len(workers) >= 2
    rc, err = interrupt(p)
    assert rc == 130 and "Traceback" not in err, err
    within(10, lambda: not alive(workers), "the atlas's workers gone")


def test_a_reader_that_goes_away_is_no_error():
    p = subprocess.Popen([sys.executable, "-m", "tapis", "table", "--deals", "400", "--json", "--seed", "1"],
                         cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert json.loads(p.stdout.readline())["deal"] == 1
    p.stdout.close()  # `tapis table ... | head -1`
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0 and err == "", err


def test_a_terminal_that_is_not_utf8_gets_ascii_look_alikes():
    utf8 = tapis("table", "--seed", "5", "--deals", "1", "--delay", "0")
    assert utf8.returncode == 0 and "·" in utf8.stdout, utf8.stderr
    p = subprocess.run([sys.executable, "-m", "tapis", "table", "--seed", "5", "--deals", "1", "--delay", "0"],
                       cwd=ROOT, env=env(PYTHONIOENCODING="ascii"), capture_output=True, timeout=300)
    assert p.returncode == 0 and b"Traceback" not in p.stderr, p.stderr
    text = p.stdout.decode("ascii")  # every byte ASCII
    assert text.splitlines()[0] == "Tapis - ecarte on the emulated table - seed 5"
    assert len(text.splitlines()) == len(utf8.stdout.splitlines())


# ---- progress bars: a terminal's stderr only, never with --quiet ---------------------------------
def on_a_terminal_stderr(*argv):
    """Run tapis with stdout piped and stderr on a pseudo-terminal: (stdout, what the terminal got)."""
    master, slave = pty.openpty()
    stdout = tempfile.TemporaryFile()  # not a pipe: a run's output outgrows a pipe's buffer while the pty is read
    p = subprocess.Popen([sys.executable, "-m", "tapis"] + list(argv), cwd=ROOT, env=env(COLUMNS="100"),
                         stdout=stdout, stderr=slave)
    os.close(slave)
    screen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        screen += chunk
    assert p.wait(timeout=60) == 0
    os.close(master)
    stdout.seek(0)
    out = stdout.read().decode()
    return out, screen.decode(errors="replace")


def test_a_long_table_run_draws_a_bar_in_deals_on_a_terminal_and_none_when_quiet():
    out, screen = on_a_terminal_stderr("table", "--deals", "40", "--json", "--seed", "2")
    assert len(out.splitlines()) == 40 and "40/40" in screen and "deals" in screen
    out, screen = on_a_terminal_stderr("table", "--deals", "40", "--json", "--seed", "2", "--quiet")
    assert len(out.splitlines()) == 40 and screen == ""


# ---- one JSON vocabulary ---------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["info"], ["ports"], ["odds", "club"],
    ["eval", "ecarte", "--hand", "7H KS QS JS 7D", "--turned", "8H"],
    ["eval", "club", "--banker", "KS JS 9S 2H", "--punter", "QS JS 2S 3D", "--trump", "S"],
    ["eval", "piquet", "--elder", "AS KS QS JS TS 9S AH KH QH AD KD QD",
     "--younger", "8S 7S JH TH 9H 8H 7H JD TD 9D AC KC"],
    ["flash", "--port", "/dev/tapis-no-such-port"],
])
def test_every_json_answer_names_its_schema(argv):
    p = tapis(*argv, "--json")
    assert p.returncode in (0, 2), p.stderr
    import re
    for line in p.stdout.splitlines():
        schema = json.loads(line)["schema"]
        assert re.fullmatch(r"tapis\.%s(\.[a-z]+)*/[0-9]+" % argv[0], schema), schema


def test_recall_json_names_its_schema(tmp_path):
    from table_rig import Rig

    rig = Rig(3, "ecarte")
    rig.run(1)
    (tmp_path / "j.bin").write_bytes(rig.store.read())
    p = tapis("recall", "--journal", str(tmp_path / "j.bin"), "--json")
    assert p.returncode == 0 and p.stdout, p.stderr
    from tapis.simulator.kits.schema import SCHEMA  # the deal records' (docs/records.md)

    assert {json.loads(line)["schema"] for line in p.stdout.splitlines()} == {SCHEMA}


# ---- the README's commands are the tool's -------------------------------------------------------------
def readme_commands():
    from test_docs_commands import commands  # (every doc's sh blocks, read one way)

    return [argv for name, argv in commands() if name == "README.md"]


def test_the_readme_has_commands_and_each_is_one_the_tool_takes():
    from tapis.host.cli import build_parser

    commands = readme_commands()
    assert len(commands) >= 20
    parser = build_parser()
    for argv in commands:
        if argv == ["--version"]:
            continue
        ns = parser.parse_args(argv)  # SystemExit(2) on anything it does not take
        assert callable(ns.func), argv


def test_the_one_progress_bar_shows_counts_rate_and_unit_on_a_terminal_only():
    import io

    from tapis.host.progress import progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    with progress(3, "files", stream=screen) as advance:
        for _ in range(2):
            advance()
        advance(1, total=4)  # the real total, once known
        advance()
    assert "4/4" in screen.getvalue() and "files" in screen.getvalue()
    for quiet, stream in ((True, Terminal()), (False, io.StringIO())):
        with progress(3, "files", quiet=quiet, stream=stream) as advance:
            advance()
            advance(1, total=5)
        assert stream.getvalue() == ""


def test_the_atlas_draws_its_bar_in_classes_and_none_when_quiet():
    out, screen = on_a_terminal_stderr("odds", "ecarte", "--all", "--limit", "3", "--out", os.devnull, "--json")
    assert json.loads(out)["schema"] == "tapis.odds.ecarte.atlas/1" and "3/3" in screen and "classes" in screen
    out, screen = on_a_terminal_stderr("odds", "ecarte", "--all", "--limit", "3", "--out", os.devnull, "--quiet")
    assert out and screen == ""
    one_clear_line(tapis("odds", "ecarte", "--hand", "7H KS QS JS 7D", "--turned", "8H", "--quiet"), "--quiet")


def test_the_readme_names_every_subcommand_that_takes_no_json():
    """README: "Every subcommand but ... takes --json": true of the parser, both ways."""
    import argparse
    import re

    from tapis.host.cli import build_parser

    def without(p, path, out):
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        for n, sp in (subs[0].choices.items() if subs else ()):
            without(sp, path + [n], out)
        runs = not subs or p.get_default("func") is not None  # (tapis pit serves; pit user ... administers)
        if runs and not any("--json" in a.option_strings for a in p._actions):
            out.append(" ".join(path))
        return out

    said = re.search(r"Every subcommand but (.*?) \(", (ROOT / "README.md").read_text().replace("\n", " ")).group(1)
    assert sorted(re.findall(r"`([a-z ]+)`", said)) == sorted(without(build_parser(), [], []))
