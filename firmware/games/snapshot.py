# A game's state as JSON, and back: the journal keeps it for the game that begins after
# another ended in the same session. Each game says which of its fields are its state
# (rules.py Rules.FIELDS); these functions only carry values across JSON, keeping
# lists, tuples, dicts, sets and bytes apart (JSON alone would turn them all into lists).


def freeze(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, list):
        return [freeze(x) for x in v]
    if isinstance(v, tuple):
        return {"t": [freeze(x) for x in v]}
    if isinstance(v, dict):
        return {"d": [[freeze(k), freeze(x)] for k, x in v.items()]}
    if isinstance(v, set):
        return {"s": [freeze(x) for x in sorted(v)]}  # (a canonical order: a set built otherwise is the same)
    if isinstance(v, bytearray):
        return {"y": [x for x in v]}
    if isinstance(v, bytes):
        return {"b": [x for x in v]}
    raise ValueError("a game's state holds only plain values, not %r" % (v,))


def thaw(v):
    if isinstance(v, list):
        return [thaw(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "t" in v:
        return tuple(thaw(x) for x in v["t"])
    if "d" in v:
        return dict((thaw(k), thaw(x)) for k, x in v["d"])
    if "s" in v:
        return set(thaw(x) for x in v["s"])
    if "y" in v:
        return bytearray(v["y"])
    if "b" in v:
        return bytes(v["b"])
    raise ValueError("not a frozen value: %r" % (v,))


def take(obj, names):
    """The named fields of obj, frozen."""
    out = {}  # type: dict
    for k in names:
        out[k] = freeze(getattr(obj, k))
    return out


def restore(obj, frozen, names):
    """Set the named fields of obj from a frozen snapshot; a field missing is an error."""
    for k in names:
        if k not in frozen:
            raise ValueError("the snapshot lacks %r" % (k,))
        setattr(obj, k, thaw(frozen[k]))
