# The deal records' schema, in one place (docs/records.md): what every game's record
# carries, and its inputs as text. `tapis table --json` and `tapis recall --json` print
# these records; `tapis replay` reads them back (simulator/kits/replay.py).
from tapis.firmware.cards import CardError, is_card, name, parse
from tapis.firmware.games.replay import inputs as replayed
from tapis.firmware.games.rules import CARDS

SCHEMA = 2  # the records' version: a change of meaning or of a key's type is a new one
# the keys every record carries, whatever the game (the games add theirs)
COMMON = ("schema", "game", "deal", "seed", "options", "complete", "journal", "inputs",
          "start")


class Records:
    """What every game's Recorder shares (its EVENTS: the game's declaration; `current`
    the record in progress, `events` its events)."""
    EVENTS = {}

    def partial(self):
        """The record of the deal in progress, as far as it has gone (None between deals)."""
        if self.current is None:
            return None
        r = dict(self.current, complete=False)
        r["inputs"] = inputs_text(self.EVENTS, self.events)
        return r

    def finish(self):
        """The record in progress, closed with its inputs; none is in progress after it."""
        r = self.current
        r["inputs"] = inputs_text(self.EVENTS, self.events)
        self.current, self.events = None, []
        return r


def base(game, deal, seed, options):
    """The keys every record carries: `game` is always the game's name."""
    return {"schema": SCHEMA, "game": game, "deal": deal, "seed": seed,
            "options": options_json(options), "complete": True, "journal": None,
            "inputs": [], "start": {}}


def options_json(options):
    """A game's Options as plain JSON (its FIELDS: the constructor's keyword arguments)."""
    return dict((k, as_json(getattr(options, k))) for k in options.FIELDS)


def options_from(game, data):
    """The Options a record's `options` describe (ValueError if they are not the game's)."""
    fields = game.Options.FIELDS
    if not isinstance(data, dict) or set(data) - set(fields):
        raise ValueError("the record's options %r are not %s options (%s)" % (
            data, game.__name__.rsplit(".", 1)[-1], ", ".join(fields)))
    return game.Options(**dict((k, tuples(v)) for k, v in data.items()))


def as_json(v):
    """Tuples as lists, sets as sorted lists."""
    if isinstance(v, set):
        return sorted(as_json(x) for x in v)
    if isinstance(v, (tuple, list)):
        return [as_json(x) for x in v]
    return v


def tuples(v):
    """JSON lists back to tuples."""
    if isinstance(v, list):
        return tuple(tuples(x) for x in v)
    return v


def thawed(frozen):
    """A snapshot's fields (firmware/games/snapshot.py), thawed; nested snapshots stay frozen."""
    from tapis.firmware.games.snapshot import thaw

    out = {}
    for k, v in frozen.items():
        try:
            out[k] = thaw(v)
        except ValueError:
            out[k] = v
    return out


def cards_text(v):
    """Every card in a value by name, tuples as lists."""
    if isinstance(v, (tuple, list)):
        return [cards_text(x) for x in v]
    return name(v) if is_card(v) and not isinstance(v, bool) else v


def cards_from(v):
    """cards_text, undone: a text that names a card is its code, lists are tuples."""
    if isinstance(v, list):
        return tuple(cards_from(x) for x in v)
    if isinstance(v, str):
        try:
            return parse(v)
        except CardError:
            return v
    return v


def inputs_text(declared, events):
    """The actions that replay `events` (the rules' declaration, firmware/games/replay.py), as
    [kind, seat, value] with the cards by name."""
    out = []
    for kind, seat, value in replayed(declared, events):
        cards = kind == "shoe" or declared.get(kind, 0) & CARDS
        out.append([kind, seat, cards_text(value) if cards else as_json(value)])
    return out


def inputs_from(declared, rows):
    """The actions of a record's `inputs` (ValueError quoting a malformed one)."""
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != 3 or not isinstance(row[0], str) or \
                not isinstance(row[1], int):
            raise ValueError("input %d is not [kind, seat, value]: %r" % (i, row))
        kind, seat, value = row
        cards = kind == "shoe" or declared.get(kind, 0) & CARDS
        out.append((kind, seat, cards_from(value) if cards else tuples(value)))
    return out
