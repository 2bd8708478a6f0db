# The simulator's boards' device key and id: a test key, public, for the emulated and
# virtual boards only (a real board's key is random, made by tapis flash; its main.py
# refuses to run without one). The key is firmware/link/hello.py's, which the virtual board's
# firmware entry (firmware/offboard/vboard.py) uses for the journal and the pairing alike.
from tapis.firmware.link.hello import TEST_KEY  # noqa: F401 (the one place it is made)

TEST_DEVICE = "vboard"  # (a name the board already has: no new qstr)

# The emulated Pico's product image (tapis image build --test-key) bakes the public key of
# this signing seed, public too, so that its build is cached once for every emulated table.
TEST_SIGNING_SEED = bytes.fromhex("5d6a0c1f3b9e4d7285a1c6f0e2b4d8937a1c5e9f0b2d4f6a8c0e1f3a5b7c9d1e")
