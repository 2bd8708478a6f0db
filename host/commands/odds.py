# `tapis odds GAME ...`: exact odds, by complete enumeration (host/odds/<game>.py).
from tapis.host.commands import by_game


def register(sub):
    by_game(sub, "odds", "exact odds, by complete enumeration")
