# The `tapis` command: the subcommands live in host/commands/, one module each.
# Bad input exits 2 with a message on stderr (argparse does so for malformed arguments).
import argparse
import importlib
import sys

COMMANDS = ("info", "table", "eval", "odds", "simulate", "flash", "shoe", "recall", "board")


def build_parser():
    p = argparse.ArgumentParser(
        prog="tapis", description="Tapis: the electronic card table for écarté, club écarté and piquet.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module("tapis.host.commands." + name).register(sub)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
