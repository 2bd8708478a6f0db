# The shuffle's bits through Debian's dieharder (Robert G. Brown's Diehard, NIST and his own
# tests; `make install` installs it where missing): the raw stream file read as raw binary
# (-g 201), one dieharder run per test so that each starts at the file's beginning, each
# with the psamples that its share of the file allows without rewinding it (a rewound file
# repeats its bits and would fail a test for the file's size, not the generator). A test's
# verdict is dieharder's own (PASSED, WEAK, FAILED at 0.5 % and 0.0001 %); the section
# fails only on FAILED. Its text output is kept whole beside the stream.
import re
import shutil
import subprocess

TESTS = {  # dieharder -d N: name, psamples (quick, full)
    0: ("diehard_birthdays", 20, 100),
    2: ("diehard_2dsphere", 20, 100),
    3: ("diehard_3dsphere", 20, 100),
    8: ("diehard_squeeze", 20, 100),
    10: ("diehard_runs", 20, 100),
    12: ("diehard_craps", 20, 100),
    15: ("marsaglia_tsang_gcd", 2, 20),
    100: ("sts_monobit", 20, 100),
    101: ("sts_runs", 20, 100),
    202: ("rgb_kstest_test", 20, 100),
    204: ("dab_bytedistrib", 1, 1),
}
ROW = re.compile(r"^\s*(\w+)\|\s*(\d+)\|\s*(\d+)\|\s*(\d+)\|\s*([0-9.eE+-]+)\|\s*(PASSED|WEAK|FAILED)\s*$")
REWOUND = re.compile(r"rewound (\d+) times")


def available():
    return shutil.which("dieharder")


def battery(path, raw_dir, quick, timeout=600):
    """Each test of TESTS on the file at path: {"tests": [...], "pass": ...}; the whole output
    to raw_dir/dieharder.txt. Without dieharder: "pass" None and why."""
    exe = available()
    if exe is None:
        return {"pass": None, "tests": [], "note": "dieharder is not installed (Debian's dieharder: make install)"}
    rows, text = [], []
    for number, (name, p_quick, p_full) in TESTS.items():
        cmd = [exe, "-g", "201", "-f", str(path), "-d", str(number), "-p", str(p_quick if quick else p_full)]
        got = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        text.append("$ " + " ".join(["dieharder"] + cmd[1:]) + "\n" + got.stdout + got.stderr)
        rewound = sum(int(m.group(1)) for m in REWOUND.finditer(got.stdout + got.stderr))
        for line in got.stdout.splitlines():
            m = ROW.match(line)
            if m:
                rows.append({"test": m.group(1), "number": number, "ntup": int(m.group(2)),
                             "tsamples": int(m.group(3)), "psamples": int(m.group(4)),
                             "p": float(m.group(5)), "assessment": m.group(6), "rewound": rewound})
    (raw_dir / "dieharder.txt").write_text("\n".join(text))
    ok = all(r["assessment"] != "FAILED" and not r["rewound"] for r in rows) and bool(rows)
    return {"pass": ok, "tests": rows, "weak": sum(r["assessment"] == "WEAK" for r in rows),
            "failed": sum(r["assessment"] == "FAILED" for r in rows),
            "rewound": sum(1 for r in rows if r["rewound"])}
