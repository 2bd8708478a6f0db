# In-memory serial links: a pair of ends, each with the Port interface (read/write).
from collections import deque

from tapis.simulator.port import Port


class End(Port):
    def __init__(self, inbox, outbox):
        self.inbox, self.outbox = inbox, outbox

    def read(self):
        if not self.inbox:
            return b""
        data = b"".join(self.inbox)
        self.inbox.clear()
        return data

    def write(self, data):
        self.outbox.append(bytes(data))
        return len(data)


def pipe():
    """Two connected ends: what one writes, the other reads."""
    a, b = deque(), deque()
    return End(a, b), End(b, a)
