# Connections no client can exhaust (issue 45.2), at uvicorn's HTTP protocol (h11): a
# connection has HEADER_TIMEOUT seconds to send a whole request's head (slowloris: a request
# sent a byte at a time, or never finished); an address holds at most PER_ADDRESS connections
# and the pit at most TOTAL, far below its file descriptors. Past either, the oldest connection
# waiting for a request is closed to make room (one that sent half a request and stopped is
# the first to go); a connection serving a request, or an event stream, is never taken. So a
# client holding thousands of half-sent requests takes no room a normal client needs: the
# normal client's request comes whole at once and is answered, and its idle keep-alive
# connection goes only after every one that never sent a whole request. Idle keep-alive
# connections close after uvicorn's timeout_keep_alive.
import resource
from collections import OrderedDict

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0  # seconds for a request's head to arrive whole
TOTAL = 2048  # connections at most (the pit raises its file descriptor limit past this, or less)
PER_ADDRESS = 256  # from one address (a reverse proxy is one address: it keeps few open)


class Guard:
    """The open connections, oldest first, and how many each address holds."""

    def __init__(self, total=TOTAL, per_address=PER_ADDRESS, header_timeout=HEADER_TIMEOUT):
        self.total = min(total, room())
        self.per_address, self.header_timeout = per_address, header_timeout
        self.open, self.by_address = OrderedDict(), {}
        self.evicted = self.timed_out = 0  # counted, never logged one by one

    def arrive(self, p):
        self.open[p] = None
        n = self.by_address[p.address] = self.by_address.get(p.address, 0) + 1
        if n > self.per_address:
            self._evict(p, lambda q: q.address == p.address)
        if len(self.open) > self.total:
            self._evict(p, None)

    def leave(self, p):
        if self.open.pop(p, 0) is None:
            n = self.by_address[p.address] - 1
            if n:
                self.by_address[p.address] = n
            else:
                del self.by_address[p.address]

    def _evict(self, newcomer, which):
        """Close the oldest connection that never sent a whole request, else the oldest idle
        between requests (a client that was served reconnects), else the newcomer."""
        q = self._oldest(newcomer, which, lambda q: q.cycle is None) or self._oldest(newcomer, which, None) or newcomer
        self.leave(q)
        self.evicted += 1
        q.transport.close()

    def _oldest(self, newcomer, which, first):
        for q in self.open:
            if q is not newcomer and q.waiting() and (which is None or which(q)) and (first is None or first(q)):
                return q
        return None


def room():
    """Connections the process can hold: its file descriptor limit raised to the hard limit,
    less what the database, the tables' links and Python need."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return max(16, soft - 256) if soft != resource.RLIM_INFINITY else TOTAL


def protocol(guard):
    """uvicorn's h11 protocol, guarded by `guard` (uvicorn.Config(http=protocol(guard)))."""

    class Guarded(H11Protocol):
        def connection_made(self, transport):
            super().connection_made(transport)
            self.address = self.client[0] if self.client else ""
            self._awaited, self._deadline = None, None
            guard.arrive(self)
            self._arm()

        def connection_lost(self, exc):
            guard.leave(self)
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            super().connection_lost(exc)

        def data_received(self, data):
            super().data_received(data)
            self._arm()

        def waiting(self):
            """No request being served: waiting for the next one's head (or for nothing)."""
            return self.cycle is None or self.cycle.response_complete

        def _arm(self):
            if self._deadline is None and self.waiting() and not self.transport.is_closing():
                self._awaited = self.cycle
                self._deadline = self.loop.call_later(guard.header_timeout, self._late)

        def _late(self):
            self._deadline = None
            if self.cycle is self._awaited and self.waiting():  # no whole request came in time
                guard.timed_out += 1
                guard.leave(self)
                self.transport.close()
            else:
                self._arm()

    return Guarded
