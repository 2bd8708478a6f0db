# `tapis odds GAME ...`: exact odds, by complete enumeration (host/odds_<game>.py).
from tapis.host.commands import by_game


def register(sub):
    by_game(sub, "odds", "exact odds, by complete enumeration")
