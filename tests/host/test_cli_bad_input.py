# Every option of every subcommand given a bad value (issue 46): exit 2, one error line on
# stderr (after argparse's usage, if it prints one), no traceback, nothing written anywhere.
# The options are walked from the parser itself, so a new one is fuzzed or named below with
# why not; the values are hypothesis's (empty, negative, huge, not numbers, non-UTF-8 paths,
# folders, missing files, files of garbage). tapis runs in this process (host.cli.main) with
# its output captured: a process per example would take minutes.
import argparse
import contextlib
import io
import os
import signal
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tapis.host import args as A
from tapis.host.cli import build_parser, main
from tapis.host.image.source import MICROPYTHON_ENV, PICOTOOL_ENV

NUMBER_TYPES = {A.positive, A.seconds, A.seconds_or_zero, A.seed, A.workers, int, float}
HUGE_IS_A_RUN = {"--deals", "--rounds", "--count", "--limit", "--last", "n"}  # a long run, not a bad value

# The rest of a command line that is good, so the fuzzed option is what is wrong; a port
# option gets pyserial's loopback, which opens and never answers.
BASE = {
    ("table",): ["--deals", "1", "--delay", "0"],
    ("play",): [],
    ("eval", "club"): ["--banker", "KS JS 9S 2H", "--punter", "QS JS 2S 3D", "--trump", "S"],
    ("eval", "ecarte"): ["--hand", "7H KS QS JS 7D", "--turned", "8H"],
    ("eval", "piquet"): ["--elder", "AS KS QS JS TS 9S AH KH QH AD KD QD",
                         "--younger", "8S 7S JH TH 9H 8H 7H JD TD 9D AC KC"],
    ("odds", "club"): [],
    ("odds", "ecarte"): ["--hand", "7H KS QS JS 7D", "--turned", "8H"],
    ("simulate",): ["--rounds", "1"],
    ("flash",): ["--port", "loop://", "--timeout", "0.2"],  # (loop:// never answers: a value let through waits it)
    ("shoe", "monitor"): ["--port", "loop://", "--duration", "0.2"],
    ("shoe", "emulate"): ["--port", "loop://", "--count", "1"],
    ("shoe", "draw"): ["--port", "loop://", "--timeout", "0.2", "1"],
    ("recall",): ["--port", "loop://", "--timeout", "0.2"],
    ("board", "emulate"): ["--duration", "0.1"],
    ("board", "journal"): ["--port", "loop://", "--timeout", "0.2"],
    ("pair",): ["--port", "loop://", "--timeout", "0.2", "--board", "tapis-test-board"],
    ("image", "build"): [],
    ("pit",): ["--floor", "1", "--port", "0"],
    ("pit", "user", "add"): ["--db", "pit.db", "someone"],
    ("pit", "user", "remove"): ["--db", "pit.db", "someone"],
    ("pit", "user", "list"): ["--db", "pit.db"],
    ("pit", "db", "upgrade"): ["--db", "pit.db"],
    ("events",): ["--port", "loop://", "--timeout", "0.2"],
    ("clear",): ["--port", "loop://", "--timeout", "0.2", "--yes"],
    ("meters",): ["--port", "loop://", "--timeout", "0.2"],
    ("replay",): ["-"],
    ("verify",): ["--port", "loop://", "--timeout", "0.2", "--seed", "00" * 16],
    ("lab",): ["--out", "pack", "--quick"],
}

# What each path or text option is: "in" a file read (it must be there and be one), "dir" a
# folder read, "out" a file written (not a folder, not in a missing one), "outdir" a folder
# written to, "port" a serial port, "text" words the command checks.
KIND = {
    "--image": "in", "--uf2": "in", "--journal": "in", "--from": "in", "--boot-py": "in",
    "--source": "in", "--picotool": "in", "--lib": "dir", "--flash": "out", "--counter": "out",
    "--capture": "out", "--plot": "out", "--db": "out", "--out": "out",
    "--port": "port", "--shoe": "port", "--bus": "port", "--table": "port",
    "record": "in", "--drive": "dir",
    "--variant": "text", "--game": "text", "--bots": "text", "--faults": "text", "--class": "text", "--entry": "text",
    "--option": "text", "--table-key": "text", "--device": "text", "--public-key": "text", "--seed": "text",
    "--hand": "text", "--turned": "text", "--banker": "text", "--punter": "text", "--trump": "text",
    "--elder": "text", "--younger": "text",
    "--tls-cert": "in", "--tls-key": "in", "--allowed-host": "text", "--trusted-proxy": "text",
}
BY_COMMAND = {  # where a command means something else by a name
    (("table",), "--journal"): "out",  # kept in this file: made when missing
    (("image", "build"), "--out"): "outdir",
    (("image", "build"), "--key-file"): "out",  # made when missing, as tapis flash makes it
    (("flash",), "--key-file"): "out",
    (("board", "emulate"), "--port"): "out",  # a symlink it makes
    (("table",), "--host-port"): "out",
    (("flash",), "--drive"): "text",  # 'auto' or a mounted drive: with --image only
    (("image", "build"), "--device"): "name",  # any name names a key (made at its first use)
    (("pit", "user", "add"), "name"): "text",  # an operator's name (accounts.NAME)
    (("pit", "user", "remove"), "name"): "text",
    (("lab",), "--out"): "outdir",
    (("lab",), "--seeds"): "in",
    (("lab",), "--pico"): "in",  # a MicroPython RPI_PICO .uf2 image (simulator/pico/setup.image_path)
}
NOT_FUZZED = {  # (command, option): why
    (("pit",), "--host"): "any address; one it cannot listen on is tested as --port's",
    (("simulate",), "--scheduler"): "a dask scheduler's address: reached over the network",
    (("lab",), "--scheduler"): "a dask scheduler's address: reached over the network",
    (("pair",), "--board"): "a device name in the key store: --table-key's kind, fuzzed there",
}


def options():
    out = []

    def walk(p, path):
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for n, sp in a.choices.items():
                    walk(sp, path + (n,))
            elif a.nargs != 0 and not isinstance(a, (argparse._HelpAction, argparse._VersionAction)):
                name = a.option_strings[-1] if a.option_strings else a.dest
                out.append((path, name, a))

    walk(build_parser(), ())
    return out


def kind(path, name, action):
    if (path, name) in BY_COMMAND:
        return BY_COMMAND[(path, name)]
    if action.choices is not None:
        return "choice"
    if action.type in NUMBER_TYPES or getattr(action.type, "__name__", "") in ("_minutes", "_positive", "_seat", "_decks"):
        return "number"
    if name == "--key-file":
        return "in"
    return KIND.get(name)


def fuzzed():
    return [pytest.param(path, name, kind(path, name, a), id="%s %s" % (" ".join(path), name))
            for path, name, a in options() if (path, name) not in NOT_FUZZED]


def test_every_option_is_fuzzed_or_says_why_not():
    unknown = [(path, name) for path, name, a in options()
               if (path, name) not in NOT_FUZZED and kind(path, name, a) is None]
    assert not unknown
    assert all(path in BASE for path, _n, _a in options())
    for path, base in BASE.items():  # each base line is whole: what fails is the fuzzed value
        assert callable(build_parser().parse_args(list(path) + base).func)


GOOD_ANSWER = {  # (command, option, what): why it is no error
    (("recall",), "--journal", "empty"): "an empty journal is a table with no games yet: recall says so",
}
NON_UTF8 = os.fsdecode(b"no-such-\xff\xfe")


def values(k, name):
    garbage = st.binary(min_size=1, max_size=64).map(lambda b: ("garbage", b))
    if k == "number":
        numbers = st.one_of(st.integers(max_value=-1).map(str), st.floats(max_value=-1e-9).map(repr),
                            st.sampled_from(["", " ", "nan", "inf", "-inf", "1e999", "0x10", "one", "1,5"]))
        return numbers if name in HUGE_IS_A_RUN else st.one_of(numbers, st.integers(10 ** 80, 10 ** 90).map(str))
    if k == "choice":
        return st.sampled_from(["", "none-such", "\u00e9"])
    if k == "text":
        return st.sampled_from(["", " ", "@@@", "=", "\x7f"])
    if k == "name":
        return st.sampled_from(["", " ", "\t"])
    files = [("missing", None), ("non-utf8", None), ("folder", None)]
    if k == "in":
        return st.one_of(st.sampled_from(files + [("empty", b"")]), garbage)
    if k == "dir":
        return st.one_of(st.sampled_from([("missing", None), ("non-utf8", None), ("empty", b"")]), garbage)
    if k == "out":
        return st.sampled_from([("folder", None), ("in-missing-folder", None)])
    if k == "outdir":
        return st.one_of(st.sampled_from([("in-missing-file", None)]), garbage)
    if k == "port":
        return st.one_of(st.sampled_from(["", " "] + files), garbage)
    raise AssertionError(k)


def materialise(value, where):
    """A drawn value as the text given on the command line (making the file it names)."""
    if isinstance(value, str):
        return value
    what, data = value
    if what == "missing":
        return str(where / "no-such-file")
    if what == "non-utf8":
        return str(where / NON_UTF8)
    if what == "folder":
        (where / "a-folder").mkdir(exist_ok=True)
        return str(where / "a-folder")
    if what == "in-missing-folder":
        return str(where / "no-such-folder" / "file")
    if what == "in-missing-file":
        return str(where / "no-such-folder" / "out")  # a folder to make in one that is not there
    path = where / ("empty" if what == "empty" else "garbage.bin")
    path.write_bytes(data)
    return str(path)


def snapshot(root):
    return {str(p.relative_to(root)): (p.is_dir(), p.stat().st_size if p.is_file() else 0)
            for p in root.rglob("*")}


class Stuck(BaseException):
    pass


def run_in_process(argv, seconds=20):
    """(exit status, stdout, stderr) of `tapis argv` in this process; Stuck after `seconds`."""
    out, err = io.StringIO(), io.StringIO()

    def stuck(_sig, _frame):
        raise Stuck("tapis %s still running after %d s" % (" ".join(argv), seconds))

    old = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:
                code = e.code
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def home():
    """A home of its own: the key store, caches and the current folder, all watched for writes."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        saved = {k: os.environ.get(k) for k in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "TAPIS_KEY_DIR",
                                                MICROPYTHON_ENV, PICOTOOL_ENV)}
        (root / "home").mkdir()
        for tree, marker in (("mp", "ports/rp2/Makefile"), ("pt", "CMakeLists.txt")):  # sources that look right:
            (root / "src" / tree / marker).parent.mkdir(parents=True)     # image build's other options fuzzed
            (root / "src" / tree / marker).write_text("")                  # before it would build
        os.environ.update(HOME=str(root / "home"), XDG_CONFIG_HOME=str(root / "home/.config"),
                          XDG_CACHE_HOME=str(root / "home/.cache"), TAPIS_KEY_DIR=str(root / "home/keys"),
                          **{MICROPYTHON_ENV: str(root / "src/mp"), PICOTOOL_ENV: str(root / "src/pt")})
        here = os.getcwd()
        os.chdir(root / "home")
        try:
            yield root
        finally:
            os.chdir(here)
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


@pytest.mark.parametrize("path,name,k", fuzzed())
def test_a_bad_value_exits_2_in_one_line_and_writes_nothing(home, path, name, k):
    @settings(max_examples=6, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(values(k, name))
    def one(value):
        with tempfile.TemporaryDirectory(dir=home) as d:
            where = Path(d)
            text = materialise(value, where)
            if not isinstance(value, str) and (path, name, value[0]) in GOOD_ANSWER:
                return
            base = list(BASE[path])
            if name in base:  # the base's own value of this option gives way to the fuzzed one
                i = base.index(name)
                del base[i:i + 2]
            if name.startswith("-"):
                argv = list(path) + base + [name, text]
            else:  # a positional: the base's last word
                argv = list(path) + base[:-1] + [text]
            if name in ("--journal", "--from") and "--port" in argv and path != ("table",):
                i = argv.index("--port")  # one source or the other
                del argv[i:i + 2]
            before = snapshot(home)
            code, out, err = run_in_process(argv)
            said = [line for line in err.strip().splitlines() if line.strip()]
            usage = [line for line in said if line.startswith(("usage:", " "))]
            lines = [line for line in said if line not in usage]
            assert code == 2 and "Traceback" not in err, (argv, code, err)
            assert len(lines) == 1 and lines[0].startswith("tapis"), (argv, err)
            after = snapshot(home)
            assert after == before, (argv, sorted(set(after.items()) ^ set(before.items())))

    one()


@pytest.mark.parametrize("argv", [
    ["meters", "--port", ""],                        # was a TypeError from meters.from_journal
    ["image", "build", "--source", "{garbage}", "--picotool", "{garbage}"],  # was tarfile.ReadError
    ["image", "build", "--source", "{garbage}"],
    ["flash", "--port", "loop://", "--image", "{missing}"],  # the five --image errors exited 1
    ["flash", "--port", "loop://", "--image", "{folder}"],
    ["flash", "--port", "loop://", "--image", "{garbage}"],
    ["flash", "--port", "loop://", "--image", "{empty}"],
    ["flash", "--port", "loop://", "--image", "{garbage}", "--drive", "auto"],
    ["meters", "--journal", "{empty}"],              # exited 0 with all-zero meters
    ["clear", "--ram", "--port", "loop://"],         # no --yes and no terminal: exited 1
    ["pit", "--table", "{missing}", "--port", "0"],  # started serving
], ids=lambda argv: " ".join(argv))
def test_the_bad_inputs_issue_46_found(home, argv):
    with tempfile.TemporaryDirectory(dir=home) as d:
        where = Path(d)
        (where / "garbage").write_bytes(b"not a tar, nor a UF2\n" * 40)
        (where / "empty").write_bytes(b"")
        (where / "folder").mkdir()
        argv = [a.format(garbage=where / "garbage", empty=where / "empty", folder=where / "folder",
                         missing=where / "no-such") for a in argv]
        before = snapshot(home)
        stdin = sys.stdin
        sys.stdin = io.StringIO("n\n")  # not a terminal: was "nothing cleared", exit 1
        try:
            code, _out, err = run_in_process(argv)
        finally:
            sys.stdin = stdin
        lines = [line for line in err.strip().splitlines() if line.strip() and not line.startswith(("usage:", " "))]
        assert code == 2 and "Traceback" not in err and len(lines) == 1 and lines[0].startswith("tapis"), (code, err)
        assert snapshot(home) == before
