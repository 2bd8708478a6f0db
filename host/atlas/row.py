# One class of the écarté atlas (`tapis odds ecarte --all`, host/atlas/run.py) as a row:
# the double-dummy odds over the 65,780 dealer hands, how many of those hold 0..5 trumps, and
# the seed-002 verdict (firmware/offboard/ecarte_verdict.py). The summary (host/atlas/summary.py)
# reads rows too, and computes the few it needs that a partial atlas left out.
from tapis.host.atlas import classes as K

COLUMNS = ("hand", "turned", "elder_trumps", "trump_king", "multiplicity", "dd_total", "dd_wins", "dd_voles",
           "dd_advice", "dealer_trumps_0", "dealer_trumps_1", "dealer_trumps_2", "dealer_trumps_3",
           "dealer_trumps_4", "dealer_trumps_5", "dealer_fewer_than_two", "sure_point", "plain_suits",
           "sure_vole", "jeu_de_regle", "advice")


def row(k):
    """The CSV row of class `k`, as a dict (values, not text)."""
    from tapis.firmware.cards import name
    from tapis.cython_core.twins import ecarte_solver, ecarte_verdict

    hand, turned = K.representative(k)
    total, wins, voles = ecarte_solver.odds(hand, turned, True)
    split = ecarte_solver.dealer_trumps(hand, turned)
    jeu, stand, point, plain, vole, _reason = ecarte_verdict.verdict(hand, turned)
    n, _tmask, king, _plain = k
    dd_stand = 3 * wins >= 2 * total and (not king or 2 * voles >= total)  # ecarte_solver.advice's rule
    out = {"hand": " ".join(name(c) for c in hand), "turned": name(turned), "elder_trumps": n,
           "trump_king": king, "multiplicity": K.multiplicity(k), "dd_total": total, "dd_wins": wins,
           "dd_voles": voles, "dd_advice": "stand" if dd_stand else "propose",
           "dealer_fewer_than_two": split[0] + split[1], "sure_point": point, "plain_suits": plain,
           "sure_vole": vole, "jeu_de_regle": jeu, "advice": "stand" if stand else "propose"}
    for i in range(6):
        out["dealer_trumps_%d" % i] = split[i]
    return out
