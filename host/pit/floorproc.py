# The floor's tables run in a process of their own (spawned), apart from the pit's: a second
# core for the dealing, and one more reason the firmware can run there as on a board. The
# firmware loads and unloads its modules (compat.unload walks sys.modules), which another
# thread importing anything at that moment would break: the pit's web and database threads
# import lazily, so the tables cannot share their process. In the floor's process one thread
# deals (the table due first, a deal at a time) and one answers the pit's requests from the
# tables' memory, taking nothing but a lock; it tells the pit which table has news.
import multiprocessing
import sys
import threading
import time


def main(conn, notify, specs, credential):
    """The floor process: specs [(game, seed, variant, pace, tilt_rate)]."""
    from tapis.host.pit.floor import FloorTable

    sys.setswitchinterval(0.001)  # the requests' thread answers within a millisecond of dealing
    tables = [FloorTable(g, seed, credential, variant=v, pace=p, tilt_rate=r) for g, seed, v, p, r in specs]
    said = threading.Lock()

    def news(i):
        with said:
            try:
                notify.send(i)
            except OSError:
                pass

    for i, t in enumerate(tables):
        t.watchers.append(lambda i=i: news(i))
    stopping = threading.Event()
    threading.Thread(target=_answer, args=(conn, tables, stopping), daemon=True).start()
    while not stopping.is_set():
        playing = [t for t in tables if t.state == "running"]
        t = min(playing, key=lambda t: t.due) if playing else None
        wait = t.due - time.time() if t is not None else 0.05
        if wait > 0:
            stopping.wait(min(wait, 0.05))  # a table enabled meanwhile may be due first
            continue
        t.deal()
        t.due = time.time() + t.pace


def _answer(conn, tables, stopping):
    from tapis.host.pit.link import LinkRefused

    while True:
        try:
            op, i, *rest = conn.recv()
        except (EOFError, OSError):  # the pit has gone: so does its floor
            break
        if op == "stop":
            break
        t = tables[i]
        try:
            if op == "hello":
                import hmac
                if not hmac.compare_digest(rest[0], t.key):
                    raise LinkRefused("table %s refuses a host without its key" % t.device)
                out = ("ok", t.hello())
            elif op == "fetch":
                out = ("ok", t.fetch(*rest))
            elif op == "act":
                out = ("ok", t.act(*rest))
            elif op == "key":  # the pit's own floor hands it each table's key, once, at its start
                out = ("ok", t.key)
            else:
                out = ("error", "no request %r" % op)
        except LinkRefused as e:
            out = ("refused", str(e))
        except ValueError as e:
            out = ("error", str(e))
        conn.send(out)
    stopping.set()


class Floor:
    """The pit's handle on its floor process: requests one at a time over a pipe, and the
    news of each table handed to wake(i)."""

    def __init__(self, specs, credential):
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.news, child_news = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=main, args=(child, child_news, specs, credential), name="pit floor",
                                daemon=True)
        self.proc.start()
        child.close()
        child_news.close()
        self.lock = threading.Lock()
        self.wakes = {}
        self.n = len(specs)
        threading.Thread(target=self._listen, name="pit floor news", daemon=True).start()

    def _listen(self):
        while True:
            try:
                i = self.news.recv()
            except (EOFError, OSError):
                return
            w = self.wakes.get(i)
            if w is not None:
                w()

    def request(self, op, i, *args):
        """The floor's answer: ("ok", value), ("refused", why) or ("error", why); EOFError if
        the floor process is gone."""
        with self.lock:
            self.conn.send((op, i) + args)
            return self.conn.recv()

    def stop(self):
        try:
            with self.lock:
                self.conn.send(("stop", 0))
        except OSError:
            pass
        self.proc.join(10)
        if self.proc.is_alive():
            self.proc.terminate()
