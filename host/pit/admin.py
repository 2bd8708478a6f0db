# `tapis pit user add/remove/list` (the operators, accounts.py) and `tapis pit db upgrade` (the
# schema brought to this pit's head revision, for a database the pit does not migrate itself at
# start: a shared PostgreSQL whose pits are upgraded one at a time, say).
import argparse
import getpass
import sys

from tapis.host.pit import accounts


def operator_name(text):
    """An operator's name as accounts.NAME allows it, refused before any database is opened."""
    if not accounts.NAME.match(text):
        raise argparse.ArgumentTypeError("an operator's name is 1 to 64 letters, digits or . _ @ -, starting "
                                         "with a letter or digit, not %r" % text)
    return text


def register(p, default_db):
    sub = p.add_subparsers(dest="pit_command", metavar="{user,db}")
    u = sub.add_parser("user", help="the pit's operators: add, remove, list")
    us = u.add_subparsers(dest="user_command", metavar="{add,remove,list}", required=True)
    a = us.add_parser("add", help="add an operator (the password is asked twice, or read from stdin's first line)")
    a.add_argument("name", type=operator_name)
    a.add_argument("--role", choices=accounts.ROLES, default="viewer", help="what they may do (default viewer)")
    r = us.add_parser("remove", help="remove an operator and end their sessions")
    r.add_argument("name", type=operator_name)
    us.add_parser("list", help="the operators and their roles")
    d = sub.add_parser("db", help="the pit's database")
    ds = d.add_subparsers(dest="db_command", metavar="{upgrade}", required=True)
    ds.add_parser("upgrade", help="bring the database's schema to this pit's head revision (Alembic)")
    for q in (a, r, us.choices["list"], ds.choices["upgrade"]):
        q.add_argument("--db", default=default_db, metavar="URL", help="the database (default %s)" % default_db)
        q.set_defaults(func=run, parser=q)


def _password():
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass("password: ")
    if getpass.getpass("again: ") != first:
        raise accounts.AccountError("the two passwords differ")
    return first


def run(args):
    from tapis.host.pit import db

    try:
        engine = db.connect(args.db)
    except db.DatabaseError as e:
        args.parser.error(str(e))
    try:
        if args.pit_command == "db":
            print("tapis pit: %s at revision %s" % (engine.url.render_as_string(), db.revision(engine)))
            return 0
        sessions = db.sessions(engine)
        if args.user_command == "add":
            accounts.add(sessions, args.name, args.role, _password())
            print("tapis pit: operator %s added (%s)" % (args.name, args.role))
        elif args.user_command == "remove":
            accounts.remove(sessions, args.name)
            print("tapis pit: operator %s removed" % args.name)
        else:
            import time

            for name, role, at in accounts.listing(sessions):
                print("%-24s %-14s since %s" % (name, role, time.strftime("%Y-%m-%d %H:%M", time.localtime(at))))
    except accounts.AccountError as e:
        args.parser.error(str(e))
    finally:
        engine.dispose()
    return 0
