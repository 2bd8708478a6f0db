# The bots' strengths `tapis simulate --bots` offers: the kit's own (simulator/kits
# `bot(game, level)`, the kit's BOTS or its rules-of-thumb Bot as "rules"), and "random",
# a player who knows the rules and not the game, the floor every strength is measured
# against:
# - écarté and piquet: the rules bot's every decision, except the card it plays, which is
#   any legal card at random;
# - club écarté: the rules bot's banking and stake, on a tableau at random.
# Its coin is its own generator, seeded from the global `random` when the bot is made: in
# a Monte Carlo chunk (the global seeded per chunk) it plays the same in any worker.
import random

from tapis.firmware import panel as B
from tapis.simulator import kits

RANDOM = "random"


class RandomCards:
    """Wraps a bot: its presses, with the card it selects in the play phase (écarté,
    piquet) or the tableau it backs (club) drawn at random from what the view allows."""

    def __init__(self, inner):
        self.inner = inner
        self.coin = random.Random(random.getrandbits(64))

    def presses(self, view):
        out = self.inner.presses(view)
        phase = view.get("phase")
        if phase == "play" and view.get("legal"):
            card = lambda: view["hand"].index(self.coin.choice(view["legal"])) + 1
        elif phase == "stake":
            card = lambda: self.coin.randint(1, 3)
        else:
            return out
        return [(b, card()) if b == B.SELECT else (b, a) for b, a in out]


def _kits(game):
    kit = kits.find(game)
    return list(getattr(kit, "BOTS", {"rules": kit.Bot}))


def names(game):
    """The strengths of bots at `game`'s seats, the kit's first."""
    have = _kits(game)
    return have if RANDOM in have else have + [RANDOM]


def bot(game, level="rules"):
    """A new bot for a seat of `game` at the strength `level` (ValueError naming them)."""
    if level == RANDOM and RANDOM not in _kits(game):
        return RandomCards(kits.bot(game, "rules"))
    if level not in names(game):
        raise ValueError("%s has no bots of strength %r; it has: %s" % (game, level, ", ".join(names(game))))
    return kits.bot(game, level)
