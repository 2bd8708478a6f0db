# The dashboard: a Starlette app (ASGI, served by uvicorn). The pages are static HTML and a
# script that read the JSON API and listen to /api/stream (server-sent events) for what the
# ingest stores, so they update without a reload. Nothing answers without a signed-in
# operator (webauth.py). A supervisor's action is a POST that carries the operator's own
# password again, each time; the pit checks it (throttled per address), records the action
# with the operator's name, and the table checks the pit's credential again (TableLink.act).
# Whatever a client sends, a bad request is a 4xx: limits.py bounds the bodies and requests.
import asyncio
import json
import os
import secrets
import time
from functools import partial

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tapis.host.pit import accounts, api, memory, queries, webauth
from tapis.host.pit.api import error, result
from tapis.host.pit.limits import Limits, Refused
from tapis.host.pit.link import ACTIONS, LinkLost, LinkRefused
from tapis.host.pit.models import Action

STATIC = os.path.join(os.path.dirname(__file__), "static")
HEARTBEAT = 15.0  # seconds between the stream's keep-alive comments
MAX_STREAMS = 200  # event streams open at once (a page holds one)
BIGGEST = 2 ** 63 - 1  # a deal's number past this is no deal (the database's integers)


def app(pit, hosts=("127.0.0.1", "localhost", "::1", "[::1]")):
    """The ASGI app for a service.Pit (its sessions, hub, links, throttle); `hosts`: the Host
    names it answers to (TrustedHost: a page elsewhere cannot read it by DNS rebinding)."""

    def floor(request):
        with pit.sessions() as s:
            return JSONResponse(queries.floor(s))

    def table(request):
        t = _table_id(request)
        with pit.sessions() as s:
            out = queries.table(s, t)
        return JSONResponse(out) if out else JSONResponse(error("no such table"), 404)

    def deal(request):
        t, seq = _table_id(request), request.path_params["seq"]
        if not (seq.isdigit() and len(seq) < 20 and 0 < int(seq) <= BIGGEST):
            return JSONResponse(error("no such deal"), 404)
        with pit.sessions() as s:
            out = queries.deal(s, t, int(seq))
        return JSONResponse(out) if out else JSONResponse(error("no such deal"), 404)

    async def stream(request):
        if len(pit.hub.listeners) >= MAX_STREAMS:
            return JSONResponse(error("too many pages listening: try again later"), 503,
                                headers={"Retry-After": "5"})
        q = pit.hub.listen()

        async def events():
            try:
                yield "retry: 1000\n\n"
                while True:
                    try:
                        m = await asyncio.wait_for(q.get(), HEARTBEAT)
                    except asyncio.TimeoutError:
                        yield ": alive\n\n"
                        continue
                    yield "data: %s\n\n" % json.dumps(dict(m, schema=api.NEWS))
            finally:
                pit.hub.leave(q)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def act(request):
        name, role, _csrf = request.scope["operator"]
        if not accounts.may(role, "supervisor"):
            return JSONResponse(error("%s is a %s: a supervisor acts on tables" % (name, role)), 403)
        body = await json_body(request)
        where = webauth.address(request.scope)
        wait = pit.throttle.wait(where)
        if wait:
            pit.refusals.count(where, "throttled")
            return JSONResponse(error("too many wrong passwords from here: try again in %d s" % (wait + 1)),
                                429, headers={"Retry-After": "%d" % (wait + 1)})
        if await webauth.checked(pit.sessions, name, str(body.get("credential") or "")) is None:
            _n, wait = pit.throttle.failed(where)
            await asyncio.to_thread(pit.refusals.count, where, "credential")
            return JSONResponse(error("not your password" + (" (wait %d s)" % wait if wait else "")), 401)
        pit.throttle.succeeded(where)
        return await asyncio.to_thread(_act, pit, _table_id(request), request.path_params["action"], name)

    def page(name):
        return lambda request: FileResponse(os.path.join(STATIC, name), headers={"Cache-Control": "no-store"})

    routes = [Route("/", page("floor.html")), Route("/table/{table}", page("table.html")),
              Route("/login", webauth.login_page), Route("/login", partial(webauth.login, pit=pit), methods=["POST"]),
              Route("/logout", partial(webauth.logout, pit=pit), methods=["POST"]),
              Route("/api/me", webauth.me),
              Route("/api/floor", floor), Route("/api/tables/{table}", table),
              Route("/api/tables/{table}/deals/{seq}", deal), Route("/api/stream", stream),
              Route("/api/tables/{table}/{action}", act, methods=["POST"]),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    inner = Starlette(routes=routes, exception_handlers={HTTPException: _http_error})
    return TrustedHostMiddleware(Limits(webauth.SignedIn(inner, pit)), allowed_hosts=list(hosts))


async def _http_error(request, e):
    return JSONResponse(error(e.detail), e.status_code, headers=getattr(e, "headers", None))


def _table_id(request):
    t = request.path_params["table"]
    if len(t) > 64 or not t.isprintable():
        raise HTTPException(404, "no such table")
    return t


async def json_body(request):
    """The request's body as a JSON object (limits.py bounds its size and time), or a 4xx."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise HTTPException(415, "the body is JSON (Content-Type: application/json)")
    try:
        body = json.loads(await request.body())
    except Refused as e:
        raise HTTPException(e.status, e.why) from None
    except (ValueError, RecursionError):  # not JSON, or nested past what the parser recurses
        body = None
    if not isinstance(body, dict):
        raise HTTPException(400, "the body is a JSON object: {\"credential\": your password}")
    return body


def _act(pit, table_id, action, who):
    """A supervisor's action, the password checked: done at the table (which checks the pit's
    credential again), recorded with who asked (pit_action), the answer as JSON. `acknowledge`
    is the pit's own: a table whose memory went back (memory.py) is no longer suspect."""
    if action == "acknowledge":
        return _acknowledge(pit, table_id, who)
    if action not in ACTIONS:
        return JSONResponse(error("no action %r: %s, acknowledge" % (action, ", ".join(ACTIONS))), 404)
    link = pit.link_of(table_id)
    if link is None:
        return JSONResponse(error("no such table"), 404)
    status, out = 200, {}
    seed = secrets.token_hex(16) if action == "verify" else None
    try:
        answer = link.act(action, who, pit.table_credential, seed)
        if action == "verify":
            expected = pit.expected_digest(table_id, seed)
            out = result("software check passed" if answer == expected else "software check FAILED",
                         seed=seed, digest=answer, expected=expected)
        else:
            out = result(answer)
    except LinkRefused as e:
        status, out = 403, error(str(e))
    except LinkLost as e:
        status, out = 503, error(str(e))
    with pit.sessions() as s, s.begin():
        s.add(Action(at=time.time(), table_id=table_id, action=action, who=who,
                     result=out.get("result") or out.get("error")))
    pit.ingest.woken.set()  # what the table logged of it, on the pages at once
    return JSONResponse(out, status)


def _acknowledge(pit, table_id, who):
    from tapis.host.pit.models import Table

    with pit.sessions() as s, s.begin():
        t = s.get(Table, table_id)
        if t is None:
            return JSONResponse(error("no such table"), 404)
        out = memory.acknowledge(s, t)
        s.add(Action(at=time.time(), table_id=table_id, action="acknowledge", who=who, result=out))
        row = queries.row(t)
    pit.hub.publish({"type": "table", "row": row, "deals": [], "events": [], "alerts": []})
    return JSONResponse(result(out))
