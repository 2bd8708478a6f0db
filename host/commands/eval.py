# `tapis eval GAME ...`: the hand evaluator, a hand's value by the rules
# (host/eval/<game>.py).
from tapis.host.commands import by_game


def register(sub):
    by_game(sub, "eval", "the hand evaluator: a hand's value by the rules")
