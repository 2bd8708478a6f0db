# The `tapis` command: the subcommands live in host/commands/, one module each.
# Bad input exits 2 with a message on stderr (argparse does so for malformed arguments, with
# the usage of the subcommand that was given them). One handler at the top for what any
# command may meet: Ctrl-C (exit 130, no traceback), a closed pipe (`tapis ... | head`), a
# terminal that is not UTF-8 (host/console.py), a part of the tool not installed yet.
import argparse
import importlib
import os
import sys

COMMANDS = ("info", "setup", "table", "play", "eval", "odds", "simulate", "flash", "ports", "shoe", "recall", "replay", "board", "pair", "image", "pit", "events", "clear", "meters", "verify", "lab")
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C


class Parser(argparse.ArgumentParser):
    """Every parser of the command refuses what it does not know itself, so an unknown option
    is reported with the usage of the subcommand it was given to, not the top level's."""

    def parse_known_args(self, args=None, namespace=None):
        ns, extra = super().parse_known_args(args, namespace)
        if extra:
            self.error("unrecognized arguments: %s" % " ".join(extra))
        return ns, extra


def build_parser():
    import tapis

    p = Parser(prog="tapis",
               description="Tapis: the electronic card table for écarté, club écarté and piquet.")
    p.add_argument("--version", action="version", version="tapis %s" % tapis.__version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module("tapis.host.commands." + name).register(sub)
    return p


def main(argv=None):
    from tapis.host import console
    from tapis.simulator.boards.micropython import MissingRuntime

    console.fit(sys.stdout)
    console.fit(sys.stderr)
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except KeyboardInterrupt:
        if sys.stderr.isatty():
            sys.stderr.write("\n")  # the prompt after the ^C, on a line of its own
        return INTERRUPTED
    except BrokenPipeError:  # the reader went away: stop quietly, and do not flush into it again
        _silence_stdout()
        return 0
    except MissingRuntime as e:  # the MicroPython runtime is installed apart: say how
        sys.stderr.write("tapis: %s\n" % e)
        return 1


def _silence_stdout():
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
