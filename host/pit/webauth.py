# Signing in to the pit (issue 45.1): the login page, the session cookie (HttpOnly,
# SameSite=Strict, Secure under TLS), and the middleware that lets nothing through without a
# live session but the login page and its style sheet: every page, the JSON API and the event
# stream. Every request that changes something (every POST) also carries the session's CSRF
# token in X-CSRF-Token (the pages read it from /api/me, which another site's page cannot), and
# an Origin, when the browser sends one, must be the pit's own. Logins are throttled per address
# (limits.Throttle) and the argon2 checks run a few at a time.
import asyncio
import hmac
import html
from urllib.parse import parse_qs

from starlette.requests import cookie_parser
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse

from tapis.host.pit import accounts
from tapis.host.pit.api import ME, error, result

COOKIE = "tapis_pit"
OPEN = ("/login", "/static/pit.css")  # all a client without a session may reach
CHECKS = asyncio.Semaphore(2)  # argon2 checks at once (each is 64 MiB and tens of ms, on purpose)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tapis pit · sign in</title>
<link rel="stylesheet" href="/static/pit.css"><link rel="icon" href="data:,"></head>
<body data-page="login"><header><h1>Tapis pit · sign in</h1></header>
<p id="why" class="note">%s</p>
<form method="post" action="/login" class="login">
<label>name <input name="name" autocomplete="username" required autofocus></label>
<label>password <input name="password" type="password" autocomplete="current-password" required></label>
<button id="sign-in">Sign in</button></form></body></html>"""


def address(scope):
    return (scope.get("client") or ("?", 0))[0]


def same_origin(scope):
    """No Origin (not a browser's cross-site request), or the pit's own."""
    h = dict(scope["headers"])
    origin = h.get(b"origin")
    return origin is None or origin.decode("latin-1") == "%s://%s" % (scope["scheme"], h.get(b"host", b"").decode(
        "latin-1"))


async def checked(sessions, name, password):
    async with CHECKS:
        return await asyncio.to_thread(accounts.check, sessions, name, password)


def login_page(request):
    return HTMLResponse(PAGE % "Sign in with your operator's name and password.", headers={"Cache-Control": "no-store"})


async def login(request, pit):
    """POST /login (a form): the session cookie and the floor, or the page again, saying why."""
    if not same_origin(request.scope):
        return HTMLResponse(PAGE % "Sign in from the pit's own page.", 403)
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
        return HTMLResponse(PAGE % "Sign in with the form.", 415)
    form = parse_qs((await request.body()).decode("utf-8", "replace"), max_num_fields=4)
    name, password = (form.get("name") or [""])[0], (form.get("password") or [""])[0]
    where = address(request.scope)
    wait = pit.throttle.wait(where)
    if wait:
        pit.refusals.count(where, "throttled")
        return HTMLResponse(PAGE % html.escape("Too many failed attempts from here: try again in %d s." % (wait + 1)),
                            429, headers={"Retry-After": "%d" % (wait + 1)})
    who = await checked(pit.sessions, name, password)
    if who is None:
        n, wait = pit.throttle.failed(where)
        pit.refusals.count(where, "login")
        later = " Wait %d s before the next try." % wait if wait else ""
        return HTMLResponse(PAGE % html.escape("Not a name and password the pit knows." + later), 401)
    pit.throttle.succeeded(where)
    cookie, _csrf = await asyncio.to_thread(accounts.sign_in, pit.sessions, who[0])
    r = RedirectResponse("/", 303)
    r.set_cookie(COOKIE, cookie, max_age=int(accounts.LIFETIME), httponly=True, samesite="strict",
                 secure=request.url.scheme == "https", path="/")
    return r


async def logout(request, pit):
    await asyncio.to_thread(accounts.sign_out, pit.sessions, request.cookies.get(COOKIE, ""))
    r = JSONResponse(result("signed out"))
    r.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=request.url.scheme == "https")
    return r


def me(request):
    name, role, csrf = request.scope["operator"]
    return JSONResponse({"schema": ME, "name": name, "role": role, "csrf": csrf}, headers={"Cache-Control": "no-store"})


class SignedIn:
    """ASGI middleware: a live session for everything but OPEN; the CSRF token and the origin
    for everything but GET and HEAD. Puts (name, role, csrf) in scope["operator"]."""

    def __init__(self, app, pit):
        self.app, self.pit = app, pit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"] in OPEN:
            return await self.app(scope, receive, send)
        h = dict(scope["headers"])
        cookie = cookie_parser(h.get(b"cookie", b"").decode("latin-1")).get(COOKIE)
        who = await asyncio.to_thread(accounts.session_of, self.pit.sessions, cookie) if cookie else None
        if who is None:
            if scope["path"].startswith("/api/") or scope["method"] not in ("GET", "HEAD"):
                r = JSONResponse(error("sign in first (/login)"), 401)
            else:
                r = RedirectResponse("/login", 303)
            return await r(scope, receive, send)
        if scope["method"] not in ("GET", "HEAD"):
            token = h.get(b"x-csrf-token", b"").decode("latin-1")
            if not same_origin(scope) or not hmac.compare_digest(token.encode(), who[2].encode()):
                return await JSONResponse(error("not from the pit's page (CSRF token)"), 403)(scope, receive, send)
        scope["operator"] = who
        await self.app(scope, receive, send)
