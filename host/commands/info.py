import json


def register(sub):
    p = sub.add_parser("info", help="version, which core is in use, the MicroPython runtime")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args):
    from importlib.metadata import PackageNotFoundError, version

    from tapis.cython_core.twins import CORE
    from tapis.simulator import micropython

    try:
        ver = version("tapis")
    except PackageNotFoundError:
        ver = "unknown"
    info = {"version": ver, "core": CORE, "micropython": micropython.version_or_none()}
    if args.json:
        print(json.dumps(info))
    else:
        for k, v in info.items():
            print("%-12s %s" % (k, v))
    return 0
