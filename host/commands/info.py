import json


def register(sub):
    p = sub.add_parser("info", help="version, which core is in use, the MicroPython runtime and tools")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args):
    import tapis
    from tapis.cython_core.twins import CORE
    from tapis.host.commands.setup import tools
    from tapis.simulator.boards import micropython

    runtime = micropython.package()
    info = {"version": tapis.__version__, "core": CORE, "micropython": micropython.version_or_none(),
            "runtime": str(runtime) if runtime else None, **tools()}
    if args.json:
        print(json.dumps(dict(info, schema="tapis.info/1")))
    else:
        for k, v in info.items():
            print("%-12s %s" % (k, v))
    return 0
