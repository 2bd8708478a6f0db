# tapis pit as a whole: the database (db.py), the tables' links (floor.py today), the ingest
# thread (ingest.py), the pages' hub and the ASGI app (web.py) served by uvicorn.
import logging
import os
import secrets
import socket
import sys

from tapis.host.pit import db
from tapis.host.pit.limits import OncePerSecond, Refusals, Throttle
from tapis.host.pit.floor import floor_image, image_digest
from tapis.host.pit.floorlink import FloorLink
from tapis.host.pit.floorproc import Floor
from tapis.host.pit.hub import Hub
from tapis.host.pit.ingest import Ingest

# a demonstration floor deals them in turn: (game, variant); the fourth a club with the house's
# commission, where the exact theoretical win is not 0
GAME_ORDER = (("ecarte", None), ("club", None), ("piquet", None), ("club", "commission-5"))


def floor_links(n, credential, games=GAME_ORDER, seed=1, pace=1.0, tilt_rate=0.0):
    """n simulated tables in their floor process (started), and the pit's links to them, each
    with the table's key (the pit made the tables, so it holds their keys)."""
    floor = Floor([(games[i % len(games)][0], seed + i, games[i % len(games)][1], pace, tilt_rate)
                   for i in range(n)], credential)
    return floor, [FloorLink(floor, i, floor.request("key", i)[1]) for i in range(n)]


def board_links(urls, keys=(), timeout=5.0):
    """The pit's links to boards (boardlink.BoardLink) on pyserial URLs, each keyed with its
    device key: keys[i] is a key file or a device name in the host's key store (flash_keys),
    the last one for the tables after it; none: the test key (a `tapis table --host-port`
    without --journal); each waits `timeout` s for an answer. FlashError when a key is not there."""
    from tapis.firmware.link.hello import TEST_KEY
    from tapis.host.operator_link import key_of
    from tapis.host.pit.boardlink import BoardLink

    out = []
    for i, url in enumerate(urls):
        k = keys[min(i, len(keys) - 1)] if keys else None
        name = k if k is not None and not os.path.exists(k) else url  # a device's name, else the URL
        out.append(BoardLink(url, key_of(k) if k is not None else TEST_KEY, name, timeout=timeout))
    return out


class Pit:
    """table_credential: what the pit's own floor tables were given (floor_links), which the pit
    hands to a table's action once an operator's password was checked (a board's is its session)."""

    def __init__(self, engine, links, table_credential, floor=None):
        self.engine, self.sessions, self.floor = engine, db.sessions(engine), floor
        self.links, self.hub, self.table_credential = links, Hub(), table_credential
        self.throttle, self.refusals = Throttle(), Refusals(self.sessions)
        self.ingest = Ingest(self.sessions, links, self.hub)
        self.image = floor_image() if floor is not None else None  # the reference its floor's checks answer to

    def link_of(self, table_id):
        for f in self.ingest.feeds:
            if f.id == table_id:
                return f.link
        return None

    def expected_digest(self, table_id, seed):
        """What the table's software check must answer to this seed: the image the pit took at
        its start (the firmware it started its floor with), and the configuration the table was
        given (its game and variant); a board's from the image the host flashed to it."""
        from tapis.host.pit.models import Table

        link = self.link_of(table_id)
        if hasattr(link, "expected"):  # a board: from the image the host flashed to it
            return link.expected(seed)
        with self.sessions() as s:
            t = s.get(Table, table_id)
            return image_digest(bytes.fromhex(seed), "%s/%s" % (t.game, t.variant), self.image)

    def serve(self, sock, ready=None, tls=None, hosts=(), proxies=None):
        """Run the ingest and the dashboard on a listening socket (listen()) until Ctrl-C or
        SIGTERM; ready(url) once listening. tls: (certificate file, key file); hosts: the Host
        names it answers to besides the loopback's; proxies: the reverse proxies' addresses
        whose X-Forwarded-For and -Proto it believes."""
        import uvicorn

        from tapis.host.pit.guard import Guard, protocol
        from tapis.host.pit.web import app

        host, port = sock.getsockname()[:2]
        url = "%s://%s:%d/" % ("https" if tls else "http", host if ":" not in host else "[%s]" % host, port)
        names = ["127.0.0.1", "localhost", "::1", "[::1]"] + [h for h in hosts if h]
        self.guard = Guard()
        config = uvicorn.Config(app(self, names), log_level="warning", log_config=None, lifespan="off",
                                timeout_graceful_shutdown=1, http=protocol(self.guard), timeout_keep_alive=5,
                                ssl_certfile=tls[0] if tls else None, ssl_keyfile=tls[1] if tls else None,
                                proxy_headers=bool(proxies), forwarded_allow_ips=list(proxies or []) or None,
                                server_header=False, backlog=BACKLOG)
        server = uvicorn.Server(config)
        self.ingest.start()
        if ready:
            ready(url)
        try:
            server.run(sockets=[sock])
        finally:
            self.close()

    def close(self):
        self.ingest.stop()
        self.refusals.flush()
        if self.floor is not None:
            self.floor.stop()
        for k in self.links:
            k.close()
        self.engine.dispose()


# connections waiting to be accepted; also how many the event loop accepts at a time, before it
# serves what is waiting: a flood of connections is taken in small bites, between the answers
BACKLOG = 64


def quiet_logs():
    """The pit's log lines on stderr, each kind at most once a second (limits.OncePerSecond)."""
    h = logging.StreamHandler(sys.stderr)
    h.addFilter(OncePerSecond())
    h.setFormatter(logging.Formatter("tapis pit: %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [h]
    root.setLevel(logging.WARNING)


def table_credential():
    """The credential the pit gives its own floor's tables: $TAPIS_PIT_CREDENTIAL or a fresh
    one (no operator types it: they give their own password, which the pit checks)."""
    return os.environ.get("TAPIS_PIT_CREDENTIAL") or secrets.token_urlsafe(16)


def listen(host, port):
    """The dashboard's socket, bound and listening before anything starts (OSError: taken)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(BACKLOG)  # connections wait in the backlog until uvicorn accepts them
    except OSError:
        sock.close()
        raise
    return sock


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
