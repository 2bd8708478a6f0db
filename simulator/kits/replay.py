# A deal re-derived from its record alone (`tapis replay`): the game is put where the
# record says the deal began (`start`, the kit's records.at_start), the record's inputs
# are applied to the rules, and the events they give are folded into a record again by
# the game's recorder. The record matches when both are the same, key for key.
import importlib

from tapis.firmware.games import find as find_game
from tapis.firmware.games.rules import IllegalAction
from tapis.simulator import kits
from tapis.simulator.kits.schema import COMMON, SCHEMA, inputs_from

NOT_DERIVED = ("journal",)  # where a record came from, not what the deal was


class BadRecord(ValueError):
    """Not a deal record this version of the schema describes (the message says why)."""


def check(record):
    """The game's kit for a record, or BadRecord saying what is wrong with it."""
    if not isinstance(record, dict):
        raise BadRecord("a deal record is a JSON object, got %s" % type(record).__name__)
    if record.get("schema") != SCHEMA:
        raise BadRecord("schema %r: this tapis reads deal records of schema %d" % (record.get("schema"), SCHEMA))
    missing = [k for k in COMMON if k not in record]
    if missing:
        raise BadRecord("the record lacks %s" % ", ".join(missing))
    try:
        find_game(record["game"])
    except (ValueError, TypeError) as e:
        raise BadRecord(str(e))
    return kits.find(record["game"])


def rederive(record, evaluator=None):
    """(the record re-derived, None) or (None, why the inputs cannot be replayed).
    BadRecord if it is no deal record."""
    kit = check(record)
    declared = find_game(record["game"]).Rules.EVENTS
    try:
        actions = inputs_from(declared, record["inputs"])
        game, recorder = importlib.import_module(kit.__name__ + ".records").at_start(record, evaluator)
    except (ValueError, TypeError, KeyError, IndexError, IllegalAction) as e:
        raise BadRecord("the record does not say where its deal began: %s" % (e,))
    done = []
    for i, action in enumerate(actions):
        if done:
            return None, "input %d %r comes after the deal has ended" % (i, record["inputs"][i])
        try:
            events = game.apply(action)
        except IllegalAction as e:
            return None, "input %d %r is refused by the rules: %s" % (i, record["inputs"][i], e)
        done.extend(recorder.feed(events))
    if done:
        return done[0], None
    if record["complete"]:
        return None, "its %d inputs do not finish the deal" % len(actions)
    return recorder.partial(), None


def differences(record, again):
    """[(key, recorded, re-derived)] where the two differ."""
    keys = sorted((set(record) | set(again)) - set(NOT_DERIVED))
    return [(k, record.get(k), again.get(k)) for k in keys if record.get(k) != again.get(k)]


def audit(record, evaluator=None):
    """{"deal", "game", "matches", "differences": [...], "why"} for one record (BadRecord
    if it is not one)."""
    again, why = rederive(record, evaluator)
    diffs = [] if again is None else differences(record, again)
    return {"game": record["game"], "deal": record["deal"], "matches": again is not None and not diffs,
            "why": why, "differences": [{"key": k, "recorded": a, "rederived": b} for k, a, b in diffs]}
