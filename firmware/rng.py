# A seeded generator for reproducible runs on the host: xorshift32, so CPython and
# MicroPython draw the same numbers from the same seed. The board shuffles with
# os.urandom instead (deck.urandom_below).
_MASK = 0xFFFFFFFF


class Seeded:
    def __init__(self, seed):
        s = (seed * 2654435761 + 0x9E3779B9) & _MASK
        self.state = s or 1

    def next32(self):
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x
        return x

    def below(self, n):
        """Uniform int in [0, n), by rejection so that no value is favoured."""
        limit = 0x100000000 - 0x100000000 % n
        while True:
            v = self.next32()
            if v < limit:
                return v % n
