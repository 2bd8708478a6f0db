# Argument types shared by the subcommands: each refuses bad text with a clear message
# (argparse turns it into exit code 2).
import argparse

from tapis.firmware.cards import CardError, parse, parse_list


def positive(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a whole number, got %r" % text)
    if n < 1:
        raise argparse.ArgumentTypeError("expected a number of at least 1, got %r" % text)
    return n


def seed(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a seed is a whole number, got %r" % text)
    if not 0 <= n < 2 ** 63:
        raise argparse.ArgumentTypeError("a seed is between 0 and 2**63-1, got %r" % text)
    return n


def card(text):
    try:
        return parse(text)
    except CardError as e:
        raise argparse.ArgumentTypeError(str(e))


def cards(text):
    try:
        return parse_list(text)
    except CardError as e:
        raise argparse.ArgumentTypeError(str(e))
