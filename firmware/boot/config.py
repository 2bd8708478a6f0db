# What this table plays (SPEC §9): the game, its variant and its options (seats, stakes,
# ...), from /config.json, which `tapis flash --game G --variant V` writes and lists in the
# signed manifest (so it is checked at boot like the code). The firmware hard-codes none:
#   {"v": 1, "game": "ecarte", "variant": "pool" or null, "options": the Options snapshot,
#    "check_minutes": N (optional: the software check's interval, swcheck.py; 0: none),
#    "text_shoe": true (optional: a text-dialect shoe taken, unpaired and unauthenticated),
#    "host_link": "usb" (optional: the operator's link, keyed, on the USB, where the console
#    was: usb.py; without it the USB stays MicroPython's console)}
# Boot-time only: main.py unloads it once the table is built.
import json

from ..games import find


class ConfigError(ValueError):
    """The configuration is missing or wrong: the table refuses to run."""


def parse(raw):
    """(game name, its Options) from config.json's bytes."""
    try:
        c = json.loads(raw)
    except ValueError:
        raise ConfigError("config.json is not JSON")
    if not isinstance(c, dict) or c.get("v") != 1:
        raise ConfigError("config.json is not a version 1 configuration: flash it again")
    game = c.get("game")
    try:
        kit = find(game)
    except ValueError as e:
        raise ConfigError("config.json: %s" % e)
    frozen = c.get("options")
    if not isinstance(frozen, dict):
        raise ConfigError("config.json: the options of %s are not a snapshot" % game)
    try:
        options = kit.Options.restore(frozen)
    except (TypeError, ValueError, KeyError) as e:
        raise ConfigError("config.json: %s refuses its options: %s" % (game, e))
    m = c.get("check_minutes", 0)
    if not isinstance(m, int) or isinstance(m, bool) or not 0 <= m <= 1440:
        raise ConfigError("config.json: check_minutes is a whole number of minutes 0..1440, not %r" % (m,))
    t = c.get("text_shoe", False)
    if t is not True and t is not False:  # (1 == True: compared by identity)
        raise ConfigError("config.json: text_shoe is true or false, not %r" % (t,))
    h = c.get("host_link")
    if h is not None and h != "usb":
        raise ConfigError("config.json: host_link is \"usb\" or absent, not %r" % (h,))
    return game, options


def text_shoe(raw):
    """Whether the signed configuration takes a text-dialect shoe (bus.route_for)."""
    return json.loads(raw).get("text_shoe", False) is True


def host_link(raw):
    """Whether the signed configuration puts the operator's link on the USB (usb.py)."""
    return json.loads(raw).get("host_link") == "usb"


def tilts(raw):
    """The bus-attack policy from config.json's bytes: (refused frames that make an attack,
    within how many ms, whether it locks the table), from its optional
    "tilts": {"attack": n, "window": seconds, "lock": true or false}; tilts.py's defaults
    (alert only) for what it leaves out."""
    from ..table.watch import ATTACK, WINDOW_MS
    t = json.loads(raw).get("tilts") or {}
    if not isinstance(t, dict):
        raise ConfigError("config.json: tilts is not an object")
    a, w, lock = t.get("attack", ATTACK), t.get("window", WINDOW_MS // 1000), t.get("lock", False)
    if not (type(a) is int and 0 < a < 65536 and type(w) is int and 0 < w <= 3600
            and lock in (True, False)):
        raise ConfigError("config.json: tilts wants attack 1..65535 frames, window 1..3600 s, lock true or false")
    return a, w * 1000, lock


def load(path):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        raise ConfigError("no configuration at %s: flash it with tapis flash --game G" % path)
    return parse(raw)


def signer(root="/"):
    """Who authorised the configuration: the signed manifest that lists it (checked at
    boot, manifest.py), as its version and key id (the public key's first 16 hex digits);
    None on a board without one. boot.build journals it when it changes."""
    try:
        with open(root + "manifest.json") as f:
            v = json.loads(f.read())["version"]
        with open(root + "manifest.pub") as f:
            k = f.read().strip()[:16]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return "manifest v%s key %s" % (v, k)


CHECK_MINUTES = 15  # the software check's interval when the configuration names none


def check_ms(path):
    """How often the board checks its software while idle between deals (swcheck.py), in
    ms: config.json's "check_minutes" (a whole number, 0 for never); config.load refused
    anything else before."""
    with open(path, "rb") as f:
        m = json.loads(f.read()).get("check_minutes", CHECK_MINUTES)
    return m * 60000
