# Écarté scoring beyond the hand: the game to 5, its value, the stakes and the gallery's
# bets settled (firmware/wagers.py), rubbers, and pool écarté's rotation.
from . import CHANCE


def score(g, seat, points, reason):
    """Add points; return True if that ended the game (and so the deal)."""
    g.scores[seat] += points
    g.deal_points[seat] += points
    g._emit(("score", seat, (points, reason)))
    if g.scores[seat] < g.options.target:
        return False
    loser = 1 - seat
    value = g.ev.game_value(g.scores[loser])
    g._emit(("game", seat, value))
    for payer, payee, amount in g.wagers.settle(g.seated[seat], g.seated[loser], value):
        g._emit(("pay", payer, (payee, amount)))
    g._emit(("balances", CHANCE, tuple(g.wagers.balances)))
    if g.options.pool:
        rotate(g, seat)
    else:
        g.games[seat] += 1
        if g.games[seat] * 2 > g.options.rubber:
            g.rubbers[seat] += 1
            g._emit(("rubber", seat, tuple(g.games)))
            g.games = [0, 0]
    g.scores = [0, 0]
    g.game_no += 1
    g.wagers.lock(g.players())
    g._new_deal()
    return True


def rotate(g, pos):
    """Pool écarté (000:91-93): the loser swaps with the watcher until a seat wins two
    games running, which wins the pool."""
    s = g.seated
    w = s[pos]
    g.streak = [w, g.streak[1] + 1 if g.streak[0] == w else 1]
    if g.streak[1] == 2:
        g.pools[w] += 1
        g._emit(("pool", w, 2))
        g.streak = [-1, 0]
    s[1 - pos], s[2] = s[2], s[1 - pos]
    g._emit(("seats", CHANCE, tuple(s)))
