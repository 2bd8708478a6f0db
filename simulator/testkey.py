# The simulator's boards' device key and id: a test key, public, for the emulated and
# virtual boards only (a real board's key is random, made by tapis flash; its main.py
# refuses to run without one). The key is firmware/hello.py's, which the virtual board's
# firmware entry (firmware/vboard.py) uses for the journal and the pairing alike.
from tapis.firmware.hello import TEST_KEY  # noqa: F401 (the one place it is made)

TEST_DEVICE = "vboard"  # (a name the board already has: no new qstr)
