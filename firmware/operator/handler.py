# What the controller hands the supervisor's frames (boot.build gives it this): a RECALL,
# a SUPERVISE, any frame from the supervisor's address. They come seldom, so recall.py
# (the credential, the answer) and commands.py (the commands) are out of the board's heap
# until one does: loaded for it here, and unloaded after. Above the controller: it calls
# them, they call back only the controller's public methods.
from ..compat import unload


def frame(ctrl, link, addr, ftype, payload, seq=None):
    """Controller: a RECALL, a SUPERVISE, or any frame from the supervisor's address."""
    from .recall import on_frame
    on_frame(ctrl, link, addr, ftype, payload, seq)
    unload("operator.recall", "operator")  # (this module is the controller's: the package need not stay)
