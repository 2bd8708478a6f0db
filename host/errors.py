# What a flash refuses (host/flash/steps.py and the modules it uses): the exit status of `tapis flash`
# is the error's code.


class FlashError(RuntimeError):
    code = 1  # the command's exit status: the board or its code failed a check


class NoBoard(FlashError):
    """The port named no board: it cannot be opened, or no MicroPython answers there (exit 2)."""
    code = 2


class BadInput(FlashError):
    """What the user gave cannot be used (an image that is not one, a file that cannot be read):
    refused before the board is touched (exit 2)."""
    code = 2
