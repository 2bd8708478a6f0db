# The math sheet's exact figures (issue 47.3; a GLI-11-style probability-and-accounting sheet): for every
# game and variant, what Tapis can count exactly, as fractions, beside the hit frequencies
# the shuffle alone decides (so that a run through the firmware with any players must
# bracket them) and each wager's return and the house's take.
# - club écarté: one punter tableau against the banker's from the shoe (host/odds/club_count.py,
#   the duel solved by the compiled twin): each deal's tableaux are a uniform draw from the
#   shuffled shoe, so these are every deal's chances, wherever it falls in the shoe. A stake
#   wins even money; the house takes its commission (percent) of each decided stake
#   (firmware/games/club/duel.py settle), before rounding down and the limited bank's cap.
# - écarté: the turned card a king (the dealer's point) and the trumps elder is dealt
#   (hypergeometric: 7 trumps left among 31 cards, 5 dealt him); no wager the house takes.
# - piquet: carte blanche, a dealt hand of 12 with no king, queen or jack.
from fractions import Fraction
from math import comb

from tapis.firmware.offboard.named import options as named, variants

GAMES = ("club", "ecarte", "piquet")
Z95 = 1.959963984540054


def frac(f):
    """A fraction as text: "n/d", or "n" for a whole number (as tapis odds prints them)."""
    return "%d/%d" % (f.numerator, f.denominator) if f.denominator != 1 else "%d" % f.numerator


def deals_for(p, rel=0.10):
    """The deals whose 95 % interval is within ±rel of p (p a chance per deal)."""
    p = float(p)
    return int(Z95 ** 2 * (1 - p) / (p * rel * rel)) + 1 if 0 < p < 1 else None


def figure(name, p, what):
    return {"name": name, "fraction": frac(p), "value": float(p), "what": what,
            "deals_for_10pc": deals_for(p)}


_CLUB = {}


def club_odds():
    if not _CLUB:
        from tapis.cython_core import twins
        from tapis.host.odds.club_count import odds

        _CLUB.update(odds(twins.duel.solve))
    return dict(_CLUB)


def sheet(game, variant=None):
    """{game, variant, options, figures: [...], wagers: [...]}: the exact side of the sheet."""
    o = named(game, variant)
    out = {"game": game, "variant": variant, "options": dict((k, getattr(o, k)) for k in o.FIELDS),
           "figures": [], "wagers": []}
    if game == "club":
        odds = club_odds()
        pw, push, bw = odds["punter_win"], odds["push"], odds["banker_win"]
        for key, what in (("punter_win", "a punter tableau beats the banker's"),
                          ("push", "en carte: equal tricks, the stake back"),
                          ("banker_win", "the banker's tableau beats a punter's")):
            out["figures"].append(figure("club " + key, odds[key], what))
        c = Fraction(o.commission, 100)
        ret = pw * (2 - c) + push  # what a unit staked brings back
        mean = ret - 1
        var = pw * (1 - c - mean) ** 2 + push * mean ** 2 + bw * (1 + mean) ** 2
        out["wagers"].append({
            "wager": "a punter's stake on a tableau, even money", "return": frac(ret), "return_value": float(ret),
            "house_take": frac(c * (pw + bw)), "house_take_value": float(c * (pw + bw)),
            "hit_frequency": frac(pw), "variance": float(var),
            "deals_for_return_0_01": int(Z95 ** 2 * float(var) / 0.01 ** 2) + 1,
            "note": "the limited bank's cap and the commission's rounding down to a whole unit only lower what "
                    "is paid: the run's meters say what was"})
        out["wagers"].append({
            "wager": "the banker's side of a tableau", "return": frac(bw * (2 - c) + push),
            "return_value": float(bw * (2 - c) + push), "house_take": frac(c * (pw + bw)),
            "house_take_value": float(c * (pw + bw)), "hit_frequency": frac(bw), "variance": float(var),
            "note": "the duel is symmetric: banker and punter win alike; the bank has no edge but its limit"})
    elif game == "ecarte":
        out["figures"].append(figure("ecarte king turned", Fraction(4, 32), "the turned card is a king: the dealer marks a point"))
        for k in range(6):
            p = Fraction(comb(7, k) * comb(24, 5 - k), comb(31, 5))
            out["figures"].append(figure("ecarte elder dealt %d trumps" % k, p, "elder's five cards hold %d of the 7 trumps left" % k))
        out["wagers"].append({"wager": "a game between the two players at the stake (%d a game)" % o.stake,
                              "return": "1", "return_value": 1.0, "house_take": "0", "house_take_value": 0.0,
                              "note": "player against player: the house takes nothing; the seat's share depends on play"})
    else:
        size = o.pack
        faces = 12  # king, queen, jack of four suits
        p = Fraction(comb(size - faces, 12), comb(size, 12))
        out["figures"].append(figure("piquet carte blanche (%d cards)" % size, p, "a dealt hand of 12 with no king, queen or jack"))
        out["wagers"].append({"wager": "a partie between the two players", "return": "1", "return_value": 1.0,
                              "house_take": "0", "house_take_value": 0.0,
                              "note": "player against player: the house takes nothing"})
    return out


def every_sheet():
    """The sheet of every game and every variant of it (None: the rules of SPEC §4)."""
    return [sheet(g, v) for g in GAMES for v in [None] + sorted(variants(g))]


CLUB_RESULT = {"punter": "punter_win", "push": "push", "banker": "banker_win"}


def hits(game, options, records):
    """The run's side of each figure from its deal records: {name: [hits, trials]}."""
    from tapis.firmware.cards import parse, rank, suit

    king = rank(parse("KS"))
    out = {}

    def add(name, hit):
        row = out.setdefault(name, [0, 0])
        row[0] += bool(hit)
        row[1] += 1

    for r in records:
        if not r.get("complete"):
            continue
        if game == "club":
            for res in r["results"]:
                for key in ("punter_win", "push", "banker_win"):
                    add("club " + key, CLUB_RESULT.get(res) == key)
        elif game == "ecarte":
            trump = parse(r["trump"])
            add("ecarte king turned", rank(trump) == king)
            elder = [p for p in r["players"] if p != r["dealer"]]
            if len(elder) == 1 and len(r["hands"]) == len(r["players"]):
                hand = r["hands"][r["players"].index(elder[0])]
                n = sum(1 for c in hand if suit(parse(c)) == suit(trump))
                for k in range(6):
                    add("ecarte elder dealt %d trumps" % k, n == k)
        else:
            elder = r["dealt"][r["elder"]]
            add("piquet carte blanche (%d cards)" % options.pack,
                not any(c[0] in "KQJ" for c in elder))
    return out
