# The pit's operators (issue 45.1): a name, a role and a password kept as its argon2id hash
# (argon2-cffi), and the browsers signed in as them. A viewer reads every page; a supervisor
# also acts on tables (each action asks for the password again, web.py); an administrator also
# manages the operators (`tapis pit user`). A signed-in browser holds a random session cookie;
# the database keeps only its SHA-256, with the operator's name and the session's CSRF token,
# so a copy of the database signs nobody in, and removing an operator ends their sessions.
import hashlib
import os
import re
import secrets
import time

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select

from tapis.host.pit.models import Login, Operator

ROLES = ("viewer", "supervisor", "administrator")  # each may do what the ones before it may
FIRST = "admin"  # the first administrator's name, made when the pit starts with none
PASSWORD_ENV = "TAPIS_PIT_ADMIN_PASSWORD"
MIN_PASSWORD = 8
LIFETIME = 12 * 3600.0  # seconds a sign-in lasts (a shift), then the login page again
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}\Z")
_hasher = PasswordHasher()  # argon2id, RFC 9106's second recommended parameters (64 MiB, t=3)
_DUMMY = _hasher.hash("no such operator")  # an unknown name costs the same time as a wrong password


class AccountError(ValueError):
    """Not a name, role or password the pit takes, or no such operator (one line)."""


def may(role, needed):
    """Whether `role` may do what `needed` may."""
    return role in ROLES and ROLES.index(role) >= ROLES.index(needed)


def add(sessions, name, role, password):
    if not NAME.match(name or ""):
        raise AccountError("an operator's name is 1 to 64 letters, digits or . _ @ -, starting with a letter "
                           "or digit, not %r" % name)
    if role not in ROLES:
        raise AccountError("a role is %s, not %r" % (", ".join(ROLES), role))
    if len(password) < MIN_PASSWORD:
        raise AccountError("a password has at least %d characters" % MIN_PASSWORD)
    with sessions() as s, s.begin():
        if s.get(Operator, name) is not None:
            raise AccountError("there is an operator %r already (remove it first)" % name)
        s.add(Operator(name=name, role=role, hash=_hasher.hash(password), created_at=time.time()))


def remove(sessions, name):
    """Remove an operator and end their sessions; never the last administrator."""
    with sessions() as s, s.begin():
        o = s.get(Operator, name)
        if o is None:
            raise AccountError("no operator %r" % name)
        if o.role == "administrator" and len(s.scalars(select(Operator.name).where(
                Operator.role == "administrator")).all()) == 1:
            raise AccountError("%r is the last administrator: add another first" % name)
        s.execute(delete(Login).where(Login.name == name))
        s.delete(o)


def listing(sessions):
    with sessions() as s:
        return [(o.name, o.role, o.created_at) for o in s.scalars(select(Operator).order_by(Operator.name))]


def check(sessions, name, password):
    """The operator (name, role) if `password` is theirs, else None. Slow on purpose (argon2)."""
    with sessions() as s:
        o = s.get(Operator, name) if isinstance(name, str) and len(name) <= 64 else None
        try:
            _hasher.verify(o.hash if o else _DUMMY, password)
        except (VerificationError, InvalidHashError):
            return None
        if o is None:
            return None
        if _hasher.check_needs_rehash(o.hash):  # the library's parameters moved on: stored anew
            with s.begin():
                s.get(Operator, name).hash = _hasher.hash(password)
        return o.name, o.role


def first_administrator(sessions):
    """When there is no administrator, make one (FIRST), with $TAPIS_PIT_ADMIN_PASSWORD or a
    fresh password: (name, the fresh password) to print once, or None."""
    with sessions() as s:
        if s.scalars(select(Operator.name).where(Operator.role == "administrator")).first() is not None:
            return None
    given = os.environ.get(PASSWORD_ENV)
    password = given or secrets.token_urlsafe(12)
    name = FIRST
    with sessions() as s:
        while s.get(Operator, name) is not None:  # an "admin" who is no longer one keeps their account
            name = "%s-%s" % (FIRST, secrets.token_hex(2))
    add(sessions, name, "administrator", password)
    return name, None if given else password


def _digest(cookie):
    return hashlib.sha256(cookie.encode()).hexdigest()


def sign_in(sessions, name):
    """A new session for operator `name`: (its cookie, its CSRF token)."""
    cookie, csrf, now = secrets.token_urlsafe(32), secrets.token_urlsafe(24), time.time()
    with sessions() as s, s.begin():
        s.execute(delete(Login).where(Login.created_at < now - LIFETIME))  # the expired ones, on the way
        s.add(Login(token=_digest(cookie), name=name, csrf=csrf, created_at=now))
    return cookie, csrf


def session_of(sessions, cookie):
    """(name, role, csrf) of a live session cookie, else None."""
    if not cookie or len(cookie) > 100:
        return None
    with sessions() as s:
        row = s.execute(select(Login.name, Operator.role, Login.csrf, Login.created_at).join(
            Operator, Operator.name == Login.name).where(Login.token == _digest(cookie))).first()
    if row is None or row[3] < time.time() - LIFETIME:
        return None
    return row[0], row[1], row[2]


def sign_out(sessions, cookie):
    with sessions() as s, s.begin():
        s.execute(delete(Login).where(Login.token == _digest(cookie)))
