# A stored deal told as `tapis recall` tells a recalled game (host/memory/games.py text: the
# game's renderer as a watcher of the whole log): the deal is put where its record says it
# began (the kit's records.at_start, as tapis replay does), its inputs applied to the rules,
# and the events they give rendered. The deal is over, so nothing in it is hidden any more.
import importlib
import threading

from tapis.firmware.games import find
from tapis.simulator import kits
from tapis.simulator.kits.schema import inputs_from

# The firmware loads and unloads modules as a board does (compat.unload): in the pit one thread
# at a time runs firmware code, the floor's dealer or a page's recalled deal.
ONE_AT_A_TIME = threading.RLock()


def lines(record):
    """The deal's lines, or one line saying why it cannot be told."""
    out = []
    with ONE_AT_A_TIME:
        _tell(record, out)
    return "\n".join(line.strip("\n") for line in out)


def _tell(record, out):
    try:
        kit = kits.find(record["game"])
        game, _recorder = importlib.import_module(kit.__name__ + ".records").at_start(record, None)
        renderer = kit.Renderer(out.append, None, True, watcher=True)
        for action in inputs_from(find(record["game"]).Rules.EVENTS, record["inputs"]):
            renderer.feed(game.apply(action))
        renderer.flush()
    except Exception as e:  # a record this version cannot replay: say so on the page
        out.append("(this deal cannot be told: %s)" % e)
