# Every tapis command in the README and docs/ runs as written (issue 46.1): each is extracted
# from the Markdown's sh blocks and run in a folder of its own (the files the other commands
# make, journal.bin and deals.jsonl, made first), exit 0 and no traceback. A command that
# needs what no test machine has (a board or device plugged in, a person at a terminal, a
# server that runs until stopped, a cluster) is parsed only, with the reason said; the long
# ones (minutes of CPU: the image build, the atlas, millions of rounds) are behind `slow`.
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tapis.host.cli import build_parser
from test_cli_conventions import ROOT, env

DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def commands():
    """(file name, the words after `tapis`) of every tapis command in the docs' sh blocks."""
    out = []
    for path in DOCS:
        for block in re.findall(r"```(?:sh|bash|console)\n(.*?)```", path.read_text(), re.S):
            for line in block.replace("\\\n", " ").splitlines():
                words = shlex.split(line, comments=True)
                while words and "=" in words[0]:  # TAPIS_PURE=1 ...
                    words = words[1:]
                if words[:3] == ["python", "-m", "tapis"]:
                    words = ["tapis"] + words[3:]
                if words and words[0] in ("tapis", ".venv/bin/tapis"):
                    out.append((path.name, words[1:]))
    return out


def not_run(argv):
    """Why this command is only parsed here (None: it is run)."""
    line = " ".join(argv)
    if any(w.startswith("/dev/") for w in argv) or "--port auto" in line or "--board ID" in line:
        return "needs a board or device plugged in"
    if argv[0] == "play" or "--interactive" in argv:
        return "needs a person at a terminal (tests/host/play/test_play*.py drive it with Textual's pilot)"
    if argv[0] == "pit":
        return "serves until stopped (tests/host/pit/test_pit*.py run it)"
    if "--scheduler" in argv:
        return "needs a dask cluster"
    if argv[0] == "lab":
        return "tests/host/lab/test_lab.py runs tapis lab --quick and checks its pack; the full pack takes minutes"
    return None


def slow(argv):
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 0
    game = argv[argv.index("--game") + 1] if "--game" in argv else "ecarte"
    # club's rounds are a fast path's (millions a second); écarté's and piquet's are games the
    # bots play through the rules, minutes on the pure twins for a thousand
    many = rounds >= (200000 if game == "club" else 1000)
    return argv[:2] == ["image", "build"] or "--all" in argv or many or argv[0] == "setup"


CASES = [pytest.param(argv, id="%s: tapis %s" % (name, " ".join(argv))[:120],
                      marks=[pytest.mark.slow] if slow(argv) else [])
         for name, argv in commands() if not_run(argv) is None]


def test_the_docs_have_commands_and_each_parses():
    found = commands()
    assert len(found) >= 40
    for _name, argv in found:
        if argv != ["--version"]:
            assert callable(build_parser().parse_args(argv).func), argv


@pytest.fixture(scope="module")
def here(tmp_path_factory):
    """A folder with what the docs' commands read: a table's journal.bin, deals.jsonl; for the
    image build, MicroPython's source and picotool's beside it as the README has them."""
    d = tmp_path_factory.mktemp("docs")
    tapis = [sys.executable, "-m", "tapis"]
    subprocess.run(tapis + ["table", "--journal", "journal.bin", "--deals", "3", "--seed", "1", "--quiet", "--json"],
                   cwd=d, env=env(), check=True, capture_output=True, timeout=300)
    with open(d / "deals.jsonl", "w") as f:
        subprocess.run(tapis + ["table", "--deals", "3", "--seed", "1", "--json", "--quiet"], cwd=d, env=env(),
                       check=True, stdout=f, timeout=300)
    for var, name in (("TAPIS_MICROPYTHON_SRC", "micropython"), ("TAPIS_PICOTOOL_SRC", "picotool")):
        if os.environ.get(var):
            os.symlink(os.environ[var], d / ("picotool-src.tar.gz" if name == "picotool" else "micropython"))
    return d


@pytest.mark.parametrize("argv", CASES)
def test_each_command_runs_as_written(here, argv):
    if argv[:2] == ["image", "build"] and not (here / "micropython").exists():
        pytest.skip("no MicroPython source: set $TAPIS_MICROPYTHON_SRC (../shared/micropython/)")
    e = env()
    for var in ("TAPIS_MICROPYTHON_SRC", "TAPIS_PICOTOOL_SRC"):  # found as the README says, not by these
        e.pop(var, None)
    p = subprocess.run([sys.executable, "-m", "tapis"] + argv, cwd=here, env=e, capture_output=True, text=True,
                       timeout=1800, stdin=subprocess.DEVNULL)
    assert p.returncode == 0 and "Traceback" not in p.stderr, (argv, p.returncode, p.stderr[-2000:])
