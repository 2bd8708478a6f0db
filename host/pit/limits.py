# Limits no client can exhaust (issue 45.2), above the connections (guard.py): a request's body
# refused at once when its Content-Length says too much, and counted as it streams in when it
# does not say (never read whole first); a body that dawdles cut off; at most INFLIGHT requests
# served at once (the event streams apart, hub.MAX_LISTENERS); the browser's protections on
# every answer. Guessing costs time: a failed login or credential makes an address wait longer
# each time, and locks it out after LOCKOUT_AFTER failures (Throttle); refusals are counted per
# address (models.Refusal), not stored one row each. Logs are rate-limited (OncePerSecond).
import asyncio
import json
import logging
import threading
import time
from collections import OrderedDict

from sqlalchemy import select

from tapis.host.pit.api import error
from tapis.host.pit.models import Refusal

MAX_BODY = 16 * 1024  # bytes: an action's JSON, a login form
BODY_TIMEOUT = 10.0  # seconds for a body to arrive whole
INFLIGHT = 64  # requests served at once; past it: 503 with Retry-After
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
           (b"referrer-policy", b"same-origin"),
           (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
                                        b"form-action 'self'; base-uri 'none'")]


class Refused(Exception):
    def __init__(self, status, why):
        super().__init__(why)
        self.status, self.why = status, why


async def answer(send, status, why, headers=()):
    body = json.dumps(error(why)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body)),
                            (b"connection", b"close")] + list(headers)})
    await send({"type": "http.response.body", "body": body})


class Limits:
    """ASGI middleware: the body's size and time, the requests in flight, the answers' headers."""

    def __init__(self, app, unlimited=("/api/stream",), max_body=MAX_BODY, inflight=INFLIGHT):
        self.app, self.unlimited, self.max_body, self.inflight, self.busy = app, unlimited, max_body, inflight, 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        said = dict(scope["headers"]).get(b"content-length")
        if said is not None and (not said.isdigit() or int(said) > self.max_body):
            return await answer(send, 413, "a request's body is at most %d bytes" % self.max_body)
        counted = scope["path"] not in self.unlimited
        if counted and self.busy >= self.inflight:
            return await answer(send, 503, "busy: try again in a second", [(b"retry-after", b"1")])
        got, whole, started = 0, False, False

        async def limited():
            nonlocal got, whole
            if whole:
                return await receive()  # the body is in: what follows is a disconnect, waited for freely
            try:
                m = await asyncio.wait_for(receive(), BODY_TIMEOUT)
            except asyncio.TimeoutError:
                raise Refused(408, "the request's body did not arrive in %g s" % BODY_TIMEOUT) from None
            if m["type"] == "http.request":
                got += len(m.get("body", b""))
                whole = not m.get("more_body", False)
                if got > self.max_body:
                    raise Refused(413, "a request's body is at most %d bytes" % self.max_body)
            return m

        async def sending(m):
            nonlocal started
            if m["type"] == "http.response.start":
                started = True
                m = dict(m, headers=list(m.get("headers", [])) + HEADERS)
            await send(m)

        self.busy += counted
        try:
            await self.app(scope, limited, sending)
        except Refused as e:
            if not started:
                await answer(send, e.status, e.why)
        finally:
            self.busy -= counted


class Throttle:
    """Failed logins and credentials per address: FREE failures cost nothing, each one more
    doubles the wait before the next try (up to MAX_WAIT s), LOCKOUT_AFTER of them lock the
    address out for LOCKOUT s. A success forgets them; so does FORGET s without a failure."""
    FREE, MAX_WAIT, LOCKOUT_AFTER, LOCKOUT, FORGET, KEEP = 3, 60.0, 10, 900.0, 900.0, 100_000

    def __init__(self):
        self.seen, self.lock = OrderedDict(), threading.Lock()  # address -> [failures, not before]

    def wait(self, address, now=None):
        """Seconds before `address` may try again (0: now)."""
        now = time.time() if now is None else now
        with self.lock:
            f = self.seen.get(address)
            if f is None or now - f[1] > self.FORGET:
                return 0.0
            return max(0.0, f[1] - now)

    def failed(self, address, now=None):
        now = time.time() if now is None else now
        with self.lock:
            f = self.seen.pop(address, None)
            n = 1 if f is None or now - f[1] > self.FORGET else f[0] + 1
            wait = self.LOCKOUT if n >= self.LOCKOUT_AFTER else \
                0.0 if n <= self.FREE else min(2.0 ** (n - self.FREE), self.MAX_WAIT)
            self.seen[address] = [n, now + wait]
            while len(self.seen) > self.KEEP:
                self.seen.popitem(last=False)
            return n, wait

    def succeeded(self, address):
        with self.lock:
            self.seen.pop(address, None)


class Refusals:
    """Refusals counted per (address, kind) in memory, written to models.Refusal at most once
    a second: a guessing storm is a counter, not a row per guess."""

    def __init__(self, sessions, every=1.0):
        self.sessions, self.every, self.due, self.last, self.lock = sessions, every, {}, 0.0, threading.Lock()

    def count(self, address, kind):
        with self.lock:
            self.due[(address[:64], kind)] = self.due.get((address[:64], kind), 0) + 1
        if time.time() - self.last >= self.every:
            self.flush()

    def flush(self):
        with self.lock:
            due, self.due, self.last = self.due, {}, time.time()
        if not due:
            return
        with self.sessions() as s, s.begin():
            rows = {(r.address, r.kind): r for r in s.scalars(select(Refusal).where(
                Refusal.address.in_({a for a, _k in due})))}
            for (a, k), n in due.items():
                r = rows.get((a, k))
                if r is None:
                    s.add(Refusal(address=a, kind=k, count=n, first_at=self.last, last_at=self.last))
                else:
                    r.count, r.last_at = r.count + n, self.last


class OncePerSecond(logging.Filter):
    """A log line of a kind (logger and message) at most once a second: the next one past the
    second says how many like it were left out. An error storm is a line a second, a count."""

    def __init__(self, every=1.0):
        super().__init__()
        self.every, self.kinds = every, {}  # (logger, message) -> [since, left out]

    def filter(self, record):
        key, now = (record.name, str(record.msg)[:200]), record.created
        k = self.kinds.get(key)
        if k is not None and now - k[0] < self.every:
            k[1] += 1
            return False
        if len(self.kinds) > 1000:
            self.kinds.clear()
        self.kinds[key] = [now, 0]
        if k is not None and k[1]:
            record.msg, record.args = "%s (and %d more like it since the last)" % (record.getMessage(), k[1]), None
            record.exc_info = record.exc_text = None  # its traceback was printed the first time
        return True
