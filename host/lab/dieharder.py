# The shuffle's bits through Debian's dieharder (Robert G. Brown's Diehard, NIST and his own
# tests; `make install` installs it where missing). Dieharder reads some 4 MB a p-sample, far
# more than a file worth keeping, so each test reads its own stream of the generator on its
# standard input (-g 200, raw), Seeded keyed "tapis lab dieharder <seed> <test>", written as
# fast as the generator goes until dieharder has read enough; a lab reruns one with
#     python -m tapis.host.lab.dieharder SEED TEST | dieharder -g 200 -d TEST -p PSAMPLES
# A test's verdict is dieharder's (PASSED, WEAK, FAILED: p outside 0.5 %, 0.0001 %); the
# section fails only on FAILED. Tests left out: operm5 and sums (dieharder's manual calls
# them suspect), rgb_minimum_distance's default (which fails good generators here).
import re
import shutil
import subprocess
import sys

from tapis.firmware.offboard.rng import Seeded

TESTS = {0: "diehard_birthdays", 3: "diehard_rank_6x8", 4: "diehard_bitstream", 8: "diehard_count_1s_str",
         10: "diehard_parking_lot", 12: "diehard_3dsphere", 15: "diehard_runs", 101: "sts_runs"}
PSAMPLES = {"quick": 10, "full": 40}
QUICK = (0, 101)
ROW = re.compile(r"^\s*(\w+)\|\s*(\d+)\|\s*(\d+)\|\s*(\d+)\|\s*([0-9.eE+-]+)\|\s*(PASSED|WEAK|FAILED)\s*$")
BLOCK = 1 << 18


def key(seed, test):
    return b"tapis lab dieharder %d %d" % (seed, test)


def available():
    return shutil.which("dieharder")


def one(job):
    """Dieharder test `number` on its stream: (number, its output, rows)."""
    number, psamples, seed, exe = job
    cmd = [exe, "-g", "200", "-d", str(number), "-p", str(psamples)]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    g = Seeded(key(seed, number))
    try:
        while p.poll() is None:
            p.stdin.write(g.read(BLOCK))
    except (BrokenPipeError, OSError):
        pass
    out = p.communicate()[0].decode(errors="replace")
    rows = []
    for line in out.splitlines():
        m = ROW.match(line)
        if m:
            rows.append({"test": m.group(1), "number": number, "ntup": int(m.group(2)), "tsamples": int(m.group(3)),
                         "psamples": int(m.group(4)), "p": float(m.group(5)), "assessment": m.group(6)})
    return number, "$ python -m tapis.host.lab.dieharder %d %d | %s\n%s" % (
        seed, number, " ".join(["dieharder"] + cmd[1:]), out), rows


def battery(seed, raw_dir, quick, pool_map, advance=lambda n=1: None):
    """The chosen tests, each on its stream: {"tests": [...], "pass": ...}; dieharder's whole
    output to raw_dir/dieharder.txt. Without dieharder: "pass" None and why."""
    exe = available()
    if exe is None:
        return {"pass": None, "tests": [], "note": "dieharder is not installed (Debian's dieharder: make install)"}
    psamples = PSAMPLES["quick" if quick else "full"]
    jobs = [(n, psamples, seed, exe) for n in (QUICK if quick else TESTS)]
    got = {}
    for number, text, rows in pool_map(one, jobs):
        got[number] = (text, rows)
        advance(1)
    (raw_dir / "dieharder.txt").write_text("\n".join(got[n][0] for n in sorted(got)))
    rows = [r for n in sorted(got) for r in got[n][1]]
    return {"pass": bool(rows) and all(r["assessment"] != "FAILED" for r in rows), "psamples": psamples,
            "tests": rows, "weak": sum(r["assessment"] == "WEAK" for r in rows),
            "failed": sum(r["assessment"] == "FAILED" for r in rows)}


def main(argv=None):
    """Write test TEST's stream for seed SEED to standard output, for ever (a lab's rerun)."""
    seed, test = [int(a) for a in (argv or sys.argv[1:])[:2]]
    g, out = Seeded(key(seed, test)), sys.stdout.buffer
    try:
        while True:
            out.write(g.read(BLOCK))
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
