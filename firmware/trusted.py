# The interpreter's own modules that the software check (manifest.py, wots.py) uses,
# imported with the filesystem off the import path: under MicroPython a hashlib.py on the
# path is imported in place of the built-in, and what a boot.py may have imported under
# these names is forgotten first. (On a host's CPython the path holds the standard
# library: left as it is.) Those modules take them from here, never import them
# themselves, so no file can stand in for hashlib, json or os.
import sys

MP = sys.implementation.name == "micropython"

_saved = sys.path[:]
if MP:
    del sys.path[:]
    for _n in ("binascii", "hashlib", "json", "os", "machine"):
        sys.modules.pop(_n, None)
try:
    import binascii
    import hashlib
    import json
    import os

    try:
        import machine  # type: ignore
    except ImportError:  # a host's CPython
        machine = None
finally:
    if MP:
        sys.path.extend(_saved)
del _saved
