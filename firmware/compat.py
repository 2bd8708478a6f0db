# What the firmware needs of its interpreter, in one place: const() on CPython (a board's
# compiler inlines it), and forgetting modules needed only for a moment (boot, a game's
# end), since on a board their bytecode is heap.
try:
    from micropython import const  # type: ignore
except ImportError:  # CPython

    def const(x):
        return x


def unload(*names):
    """Unload the firmware's modules named (their last name: "boot", "selftest"...), at any
    depth of the package, once nothing refers to them."""
    import sys
    top = __name__[:__name__.rfind(".")]  # "firmware" on a board, "tapis.firmware" on a host
    while True:  # one at a time (a list of every module is 0.5 KB of a fragmented heap)
        for key in sys.modules:  # (a host's hundreds of others passed over before a slice is made)
            if key.startswith(top):
                name = key[key.rfind(".") + 1:]
                if name in names:
                    break
        else:
            return
        del sys.modules[key]
        parent = sys.modules.get(key[:key.rfind(".")])
        if parent is not None and name in parent.__dict__:
            delattr(parent, name)
