# tapis pit: the floor's tables in a database, and a live web dashboard (docs/pit.md).
import ipaddress
import os
import sys

from tapis.firmware.games import GAMES
from tapis.host import args as A

DEFAULT_DB = "tapis-pit.db"
MAX_FLOOR = 500


def register(sub):
    p = sub.add_parser("pit", help="the floor: tables' records and events in a database, a live web dashboard")
    p.add_argument("--floor", type=A.positive, metavar="N",
                   help="start N simulated tables and watch them (a demonstration floor)")
    p.add_argument("--table", action="append", metavar="URL", default=[],
                   help="a board's operator's link (pyserial URL; `tapis table --host-port PATH` makes one), "
                   "in a session under its device key (repeatable; beside --floor N too)")
    p.add_argument("--table-key", action="append", metavar="DEVICE|FILE", default=[],
                   help="--table's device key: a device name in the key store or a key file, in the order of "
                   "the --table options (the last one for the rest; default: the test key)")
    p.add_argument("--timeout", type=A.seconds, default=5.0,
                   help="--table: seconds a board has to answer before its link is begun afresh "
                   "(default 5; more for an emulated Pico on a loaded machine)")
    p.add_argument("--game", choices=sorted(GAMES), help="--floor: every table plays this game "
                   "(default: écarté, club écarté, piquet and club écarté with a commission, in turn)")
    p.add_argument("--variant", help="--floor with --game: the game's variant by name")
    p.add_argument("--pace", type=A.seconds_or_zero, default=2.0,
                   help="--floor: seconds between a table's deals (default 2; 0: as fast as it deals)")
    p.add_argument("--tilt-rate", type=float, default=0.0, metavar="P",
                   help="--floor: the chance after each deal that a table tilts (a door opened), 0 to 1")
    p.add_argument("--seed", type=A.seed, default=1, help="--floor: the first table's seed (default 1)")
    p.add_argument("--db", default=DEFAULT_DB, metavar="URL",
                   help="the database: an SQLite file (default %s) or a URL, e.g. "
                   "postgresql+psycopg://user@host/pit" % DEFAULT_DB)
    p.add_argument("--host", default="127.0.0.1", help="the address the dashboard listens on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8031, help="its port (default 8031; 0: any free one)")
    p.add_argument("--tls-cert", metavar="FILE", help="serve HTTPS with this certificate (PEM; with --tls-key)")
    p.add_argument("--tls-key", metavar="FILE", help="the certificate's private key (PEM)")
    p.add_argument("--insecure", action="store_true",
                   help="let a --host other than the loopback serve plain HTTP (behind a TLS proxy on the same "
                   "machine, say; docs/pit.md)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME", type=A.host_name,
                   help="a Host name the dashboard answers to besides the loopback's and --host (repeatable: "
                   "the name operators type; any other is refused, against DNS rebinding)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS", type=A.ip_address,
                   help="a reverse proxy's address: its X-Forwarded-For and X-Forwarded-Proto are believed "
                   "(the client's address for the login throttle, https for the cookie)")
    p.set_defaults(func=run, parser=p)
    from tapis.host.pit import admin

    admin.register(p, DEFAULT_DB)


def _local(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_device(path):
    """A serial port's path: a character device (a tty, a pty), or a symlink to one."""
    import stat
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def run(args):
    from tapis.host.pit import db
    from tapis.host.pit import accounts
    from tapis.host.pit.service import GAME_ORDER, Pit, floor_links, listen, quiet_logs, say, table_credential

    if args.floor is None and not args.table:
        args.parser.error("say which tables: --floor N (a simulated floor) and/or --table URL (a board)")
    if (args.floor or 0) + len(args.table) > MAX_FLOOR:
        args.parser.error("--floor and --table: %d tables, at most %d in one pit"
                          % ((args.floor or 0) + len(args.table), MAX_FLOOR))
    if not 0 <= args.tilt_rate <= 1:
        args.parser.error("--tilt-rate is a chance, 0 to 1, got %r" % args.tilt_rate)
    if not 0 <= args.port < 65536:
        args.parser.error("--port is 0 to 65535, got %d" % args.port)
    if bool(args.tls_cert) != bool(args.tls_key):
        args.parser.error("--tls-cert and --tls-key go together")
    for f in (args.tls_cert, args.tls_key):
        if f and not os.path.isfile(f):
            args.parser.error("--tls-cert/--tls-key: no file %s" % f)
    if not _local(args.host) and not args.tls_cert and not args.insecure:
        args.parser.error("--host %s opens the pit to a network: give --tls-cert and --tls-key (or --insecure, "
                          "behind a TLS proxy)" % args.host)
    tls = (args.tls_cert, args.tls_key) if args.tls_cert else None
    if tls:
        import ssl
        try:
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(*tls)
        except (ssl.SSLError, OSError) as e:
            args.parser.error("--tls-cert/--tls-key: not a certificate and its key: %s" % (e.strerror or e))
    if args.variant is not None:
        if args.game is None:
            args.parser.error("--variant needs --game")
        A.variant_options(args)  # a name the game does not have: exit 2 naming those it has
    for url in args.table:  # a device path that is not one: said now, not by a link that never answers
        if not url.strip() or ("://" not in url and not _is_device(url)):
            args.parser.error("--table %r: no such serial port (a device path, a pty or a pyserial URL)" % url)
    if args.table_key and not args.table:
        args.parser.error("--table-key keys a --table's link: give the --table it goes with")
    for key in args.table_key:
        if not key.strip():
            args.parser.error("--table-key %r: give a device name in the key store or a key file" % key)
    try:  # the port first: a pit that cannot listen makes no database
        sock = listen(args.host, args.port)
    except OSError as e:
        args.parser.error("cannot listen on %s:%d: %s" % (args.host, args.port, e.strerror or e))
    try:
        engine = db.connect(args.db)
    except db.DatabaseError as e:
        sock.close()
        args.parser.error(str(e))
    credential = table_credential()
    games = ((args.game, args.variant),) if args.game else GAME_ORDER
    floor, links = floor_links(args.floor, credential, games, args.seed, args.pace, args.tilt_rate) \
        if args.floor else (None, [])
    from tapis.host.errors import FlashError
    from tapis.host.pit.service import board_links
    try:
        links += board_links(args.table, args.table_key, args.timeout)
    except FlashError as e:
        sock.close()
        args.parser.error(str(e))
    pit = Pit(engine, links, credential, floor)
    made = accounts.first_administrator(pit.sessions)
    if made and made[1]:
        sys.stderr.write("tapis pit: no administrator yet: made %r, password %s (printed once: keep it; "
                         "`tapis pit user add` makes the other operators)\n" % made)
    elif made:
        sys.stderr.write("tapis pit: no administrator yet: made %r with $%s\n" % (made[0], accounts.PASSWORD_ENV))
    quiet_logs()
    url = engine.url.render_as_string()
    pit.serve(sock, lambda at: say("tapis pit: %d tables, database %s, the floor at %s" % (len(links), url, at)),
              tls, [args.host] + args.allowed_host, args.trusted_proxy)
    return 0
