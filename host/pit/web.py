# The dashboard: a Starlette app (ASGI, served by uvicorn). The pages are static HTML and a
# script that read the JSON API and listen to /api/stream (server-sent events) for what the
# ingest stores, so they update without a reload. The supervisor's actions are POSTs that
# carry the credential each time; the pit checks it, records the attempt, and the table
# checks it again (link.TableLink.act).
import asyncio
import json
import os
import secrets
import time

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tapis.host.pit import queries
from tapis.host.pit.link import ACTIONS, LinkLost, LinkRefused
from tapis.host.pit.models import Action

STATIC = os.path.join(os.path.dirname(__file__), "static")
HEARTBEAT = 15.0  # seconds between the stream's keep-alive comments


def app(pit):
    """The ASGI app for a service.Pit (its sessions, hub, links and credential check)."""

    def floor(request):
        with pit.sessions() as s:
            return JSONResponse(queries.floor(s))

    def table(request):
        with pit.sessions() as s:
            out = queries.table(s, request.path_params["table"])
        return JSONResponse(out) if out else JSONResponse({"error": "no such table"}, 404)

    def deal(request):
        with pit.sessions() as s:
            out = queries.deal(s, request.path_params["table"], request.path_params["seq"])
        return JSONResponse(out) if out else JSONResponse({"error": "no such deal"}, 404)

    async def stream(request):
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
                    yield "data: %s\n\n" % json.dumps(m)
            finally:
                pit.hub.leave(q)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def act(request):
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return JSONResponse({"error": "a JSON object: who, credential"}, 400)
        return await asyncio.to_thread(_act, pit, request.path_params["table"],
                                       request.path_params["action"], body)

    def page(name):
        return lambda request: FileResponse(os.path.join(STATIC, name), headers={"Cache-Control": "no-store"})

    routes = [Route("/", page("floor.html")), Route("/table/{table}", page("table.html")),
              Route("/api/floor", floor), Route("/api/tables/{table}", table),
              Route("/api/tables/{table}/deals/{seq:int}", deal), Route("/api/stream", stream),
              Route("/api/tables/{table}/{action}", act, methods=["POST"]),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    return Starlette(routes=routes)


def _act(pit, table_id, action, body):
    """A supervisor's action: the credential checked here and at the table, every attempt
    recorded with who asked (pit_action), the answer as JSON."""
    who = str(body.get("who") or "").strip()[:64]
    if action not in ACTIONS:
        return JSONResponse({"error": "no action %r: %s" % (action, ", ".join(ACTIONS))}, 404)
    link = pit.link_of(table_id)
    if link is None:
        return JSONResponse({"error": "no such table"}, 404)
    if not who:
        return JSONResponse({"error": "say who you are (who)"}, 400)
    credential = str(body.get("credential") or "")
    status, out = 200, {}
    if not pit.credential_ok(credential):
        status, out = 401, {"error": "not the supervisor's credential"}
    else:
        seed = secrets.token_hex(16) if action == "verify" else None
        try:
            answer = link.act(action, who, credential, seed)
            if action == "verify":
                expected = pit.expected_digest(table_id, seed)
                out = {"result": "software check passed" if answer == expected else "software check FAILED",
                       "seed": seed, "digest": answer, "expected": expected}
            else:
                out = {"result": answer}
        except LinkRefused as e:
            status, out = 403, {"error": str(e)}
        except LinkLost as e:
            status, out = 503, {"error": str(e)}
    with pit.sessions() as s, s.begin():
        s.add(Action(at=time.time(), table_id=table_id, action=action, who=who,
                     result=out.get("result") or out.get("error")))
    pit.ingest.woken.set()  # what the table logged of it, on the pages at once
    return JSONResponse(out, status)
