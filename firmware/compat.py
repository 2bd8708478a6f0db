# What the firmware needs of its interpreter, in one place: const() on CPython (a board's
# compiler inlines it), and forgetting modules needed only for a moment (boot, a game's
# end), since on a board their bytecode is heap.
try:
    from micropython import const  # type: ignore
except ImportError:  # CPython

    def const(x):
        return x


def unload(*names):
    """Unload the firmware's modules named in full below the firmware package ("boot.build",
    "games.ecarte.limits"; a package, "eventlog", after its modules), once nothing refers to
    them; one not loaded is passed over."""
    import sys
    top = __name__[:__name__.rfind(".") + 1]  # "firmware." on a board, "tapis.firmware." on a host
    for name in names:
        key = top + name
        if sys.modules.pop(key, None) is not None:
            dot = key.rfind(".")
            parent = sys.modules.get(key[:dot])
            if parent is not None and key[dot + 1:] in parent.__dict__:
                delattr(parent, key[dot + 1:])
