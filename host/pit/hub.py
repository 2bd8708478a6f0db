# What the ingest has just stored, handed to every page listening (server-sent events): the
# ingest thread publishes, each listener's asyncio queue receives on its own event loop.
import asyncio
import threading

BACKLOG = 1000  # a listener that falls this far behind is dropped (its page reconnects)


class Hub:
    def __init__(self):
        self.lock = threading.Lock()
        self.listeners = []  # (loop, queue)

    def listen(self):
        """A new listener's queue, on the running event loop."""
        q = asyncio.Queue(BACKLOG)
        with self.lock:
            self.listeners.append((asyncio.get_running_loop(), q))
        return q

    def leave(self, q):
        with self.lock:
            self.listeners = [(lp, x) for lp, x in self.listeners if x is not q]

    def publish(self, message):
        with self.lock:
            listeners = list(self.listeners)
        for loop, q in listeners:
            try:
                loop.call_soon_threadsafe(_put, q, message)
            except RuntimeError:  # its loop has closed
                self.leave(q)


def _put(q, message):
    if q.full():
        return  # too slow: it misses this one; its page refetches on reconnect
    q.put_nowait(message)
