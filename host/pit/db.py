# The pit's database: a URL checked, an engine made (SQLite by default, PostgreSQL through
# psycopg 3), the schema brought to the head revision by Alembic, and sessions.
#
# SQLite runs in WAL mode: the web pages read while the ingest writes, and a pit killed in the
# middle of a write leaves the last committed transaction whole (the write-ahead log is
# replayed or dropped on the next open). synchronous=NORMAL is durable against a killed
# process, which is what a test does to it; FULL would add power loss, at a sync per commit.
# PostgreSQL's sessions alike commit without waiting for the disk (synchronous_commit=off, a
# setting of the pit's own sessions): a crash of the database's machine may lose the last
# commits, never make a database inconsistent. Neither loses a deal: the tables keep their
# records, and a pit asks them from the last number its database holds.
import os

from sqlalchemy import create_engine, event, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import sessionmaker

DIALECTS = ("sqlite", "postgresql")
MIGRATIONS = os.path.join(os.path.dirname(__file__), "migrations")


class DatabaseError(ValueError):
    """The database URL, or the database behind it, is not one the pit can use (one line)."""


def url_of(text):
    """A database URL (a bare path is an SQLite file) -> a sqlalchemy URL, or DatabaseError."""
    if "://" not in text:
        d = os.path.dirname(os.path.abspath(text))
        if not os.path.isdir(d):
            raise DatabaseError("--db %s: no directory %s" % (text, d))
        text = "sqlite:///" + os.path.abspath(text)
    try:
        url = make_url(text)
    except ArgumentError:
        raise DatabaseError("--db %r is not a database URL (sqlite:///FILE or "
                            "postgresql+psycopg://USER@HOST/NAME)" % text) from None
    if url.get_backend_name() not in DIALECTS:
        raise DatabaseError("--db %s: the pit speaks %s, not %s" % (
            url.render_as_string(), " and ".join(DIALECTS), url.get_backend_name()))
    if url.get_backend_name() == "postgresql" and url.get_driver_name() in ("", "psycopg2"):
        url = url.set(drivername="postgresql+psycopg")  # psycopg 3, the one installed
    return url


def connect(text):
    """An engine on the database `text` names, migrated to the head revision (DatabaseError
    if it cannot be reached or is not the pit's)."""
    url = url_of(text)
    try:
        if url.get_backend_name() == "sqlite":
            engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(url, pool_size=8, pool_pre_ping=True)
            event.listen(engine, "connect", _postgresql_session)
        migrate(engine)
    except NoSuchModuleError as e:
        raise DatabaseError("--db %s: %s" % (url.render_as_string(), e)) from None
    except SQLAlchemyError as e:  # not there, not a database, not ours
        orig = getattr(e, "orig", None)
        why = (str(orig) if orig is not None else str(e)).strip().splitlines()[0]
        raise DatabaseError("--db %s: cannot open it: %s" % (url.render_as_string(), why)) from None
    except Exception as e:  # Alembic: a revision this pit does not know (a newer pit's database)
        if type(e).__name__ != "CommandError":
            raise
        raise DatabaseError("--db %s: not a database this pit can use: %s" % (url.render_as_string(), e)) from None
    return engine


def _sqlite_pragmas(dbapi, _record):
    cur = dbapi.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _postgresql_session(dbapi, _record):
    cur = dbapi.cursor()
    cur.execute("SET synchronous_commit TO off")
    cur.close()
    dbapi.commit()


def migrate(engine):
    """Bring the schema to Alembic's head (a new database gets every revision)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", MIGRATIONS)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def revision(engine):
    """The revision the database is at (Alembic's version table)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def tables(engine):
    return sorted(inspect(engine).get_table_names())


def sessions(engine):
    return sessionmaker(engine, expire_on_commit=False)
