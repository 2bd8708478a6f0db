"""Tapis: the electronic card table for écarté, club écarté and piquet.

One import package: `tapis.firmware` (the board's code), `tapis.cython_core` (the compiled
twins), `tapis.simulator` (the emulated table) and `tapis.host` (the `tapis` command). In the
wheel they are folders of this package; in a source checkout they are the repository's
top-level folders, which this package's path is extended to reach.
"""
import os as _os

_here = _os.path.dirname(_os.path.abspath(__file__))
_checkout = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "firmware")) and \
        _os.path.isfile(_os.path.join(_checkout, "firmware", "cards.py")):
    __path__.append(_checkout)  # type: ignore[name-defined]  # tapis.firmware is ../firmware
