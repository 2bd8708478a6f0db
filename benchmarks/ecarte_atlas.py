"""Écarté seed-002 verdict and the atlas (`tapis odds ecarte --all`): the compiled twin against
the pure twin, measured in one run on the same seeded positions, then the atlas's rows and
(with --command) the whole command on two workers.

    .venv/bin/python benchmarks/ecarte_atlas.py [--positions N] [--pure-positions N] [--rows N] [--command] [--quick]

The pure twin is timed on the first --pure-positions positions (the compiled one on those as
well, for the ratio); the pure atlas is extrapolated from --pure-rows rows, and says so.
"""
import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tapis.cython_core import ecarte_verdict as compiled  # noqa: E402
from tapis.firmware.offboard import ecarte_verdict as pure  # noqa: E402
from tapis.host.atlas import classes as K  # noqa: E402

from _quick import parse  # noqa: E402
from ecarte_odds import hands as positions  # noqa: E402  the seeded positions the odds benchmark times


def per_call(fn, sample):
    t0 = time.perf_counter()
    for h, t in sample:
        fn(h, t)
    return (time.perf_counter() - t0) / len(sample)


def rows_per_class(keys, twin_env):
    """Seconds a class for atlas rows, in a child process with TAPIS_PURE as given."""
    code = ("import sys, time; sys.path.insert(0, %r)\n"
            "from tapis.host.atlas import row as A, classes as K\n"
            "keys = K.classes(); step = len(keys) // %d; keys = keys[::step][:%d]\n"
            "t0 = time.perf_counter(); [A.row(k) for k in keys]\n"
            "print((time.perf_counter() - t0) / len(keys))" % (ROOT, len(keys), len(keys)))
    env = dict(os.environ, TAPIS_PURE=twin_env)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(p.stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=400)
    p.add_argument("--pure-positions", type=int, default=40)
    p.add_argument("--rows", type=int, default=2000, help="atlas rows timed on the compiled core")
    p.add_argument("--pure-rows", type=int, default=30, help="atlas rows timed on the pure twins")
    p.add_argument("--command", action="store_true", help="also time the whole `tapis odds ecarte --all --workers 2`")
    a = parse(p, {"positions": 10, "pure_positions": 1, "rows": 20, "pure_rows": 1})
    sample = positions(a.positions)
    few = sample[:a.pure_positions]
    for h, t in few:  # the twins agree on what is timed
        assert pure.verdict(h, t) == compiled.verdict(h, t)

    def point(twin):
        return lambda h, t: twin.sure(h, t, 3)

    c = min(per_call(point(compiled), sample) for _ in range(3))
    cs = min(per_call(point(compiled), few) for _ in range(3))
    pu = per_call(point(pure), few)
    cv = min(per_call(compiled.verdict, few) for _ in range(3))
    pv = per_call(pure.verdict, few)
    keys = K.classes()
    rc = rows_per_class(keys[:a.rows], "")
    rp = rows_per_class(keys[:a.pure_rows], "1")
    n = len(keys)
    print("écarté seed-002 verdict (seeded random positions, same run)")
    print("  sure of the point, compiled  %8.3f ms  (mean over %d positions, best of 3)" % (c * 1e3, a.positions))
    print("  sure of the point, pure      %8.1f ms  (on %d of them: compiled on those %.3f ms)"
          % (pu * 1e3, a.pure_positions, cs * 1e3))
    print("  verdict(), compiled %.3f ms, pure %.1f ms (same %d positions)" % (cv * 1e3, pv * 1e3, a.pure_positions))
    print("  atlas row (DD odds + dealer trumps + verdict): compiled %.3f ms (%d classes spread over the atlas), "
          "pure %.0f ms (%d classes)" % (rc * 1e3, a.rows, rp * 1e3, a.pure_rows))
    print("  whole atlas, %d classes, one core: compiled %.0f s, pure %.1f h (both extrapolated from the rows)"
          % (n, rc * n, rp * n / 3600))
    print("ratio compiled/pure: sure %.0fx   verdict %.0fx   atlas row %.0fx" % (pu / cs, pv / cv, rp / rc))
    if a.command:
        os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "tapis", "odds", "ecarte", "--all", "--workers", "2", "--out",
                        os.path.join(ROOT, "build", "ecarte-atlas.csv")], cwd=ROOT, check=True, capture_output=True)
        print("  tapis odds ecarte --all --workers 2, whole command: %.1f s" % (time.perf_counter() - t0))


if __name__ == "__main__":
    main()
