# The simulator's boards' device key and id: a test key, public, for the emulated and
# virtual boards only (a real board's key is random, made by tapis flash). The virtual
# board's firmware entry (firmware/vboard.py) makes the same key the same way.
from hashlib import sha256

TEST_DEVICE = "vboard"  # (a name the board already has: no new qstr)
TEST_KEY = sha256(b"tapis: the simulator's test device key").digest()
