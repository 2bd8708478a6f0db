import os
import signal
import sys
import time

from tapis.host import args as A


def register(sub):
    p = sub.add_parser("board", help="an emulated Raspberry Pi Pico to flash and talk to",
                       description="Boards without the hardware: `tapis board emulate` runs the official "
                       "MicroPython image for the Raspberry Pi Pico on an emulated RP2040 (rp2040js) and "
                       "puts its USB serial port on a pseudo-terminal, for `tapis flash --port`, mpremote or "
                       "a serial terminal.")
    sp = p.add_subparsers(dest="action", metavar="ACTION")
    sp.required = True
    e = sp.add_parser("emulate", help="run an emulated Pico with its USB serial port on a pty")
    e.add_argument("--image", help="the MicroPython RPI_PICO .uf2 image (default: $TAPIS_PICO_IMAGE)")
    e.add_argument("--flash", help="the board's 2 MB flash as a file, kept between runs "
                   "(default: a fresh board, forgotten at exit)")
    e.add_argument("--counter", help="an ATECC608 on I2C0 (GP8 SDA, GP9 SCL), its monotonic counters kept in this "
                   "file, off the flash (default: no part on the bus; docs/security.md)")
    e.add_argument("--port", type=A.link_path, help="also make this path a symlink to the pty (a stable name to use)")
    e.add_argument("--duration", type=A.seconds, help="stop after this many seconds (default: until Ctrl-C)")
    e.set_defaults(func=emulate, parser=e)
    j = sp.add_parser("journal", help="copy a board's journal off over its USB link, and move it aside",
                      description="Copies the board's /journal.bin over its USB serial link (mpremote's raw "
                      "REPL: a board that refuses its journal still answers there) to --out; with "
                      "--move-aside then renames it on the board to /journal.bin.aside-N, so the table "
                      "starts a fresh journal at its next boot. Nothing is ever deleted, and a board "
                      "never moves its journal aside by itself.")
    j.add_argument("--port", type=A.port, required=True, help="the board's USB serial port (pyserial URL, or auto)")
    j.add_argument("--out", help="where to write the copy (default: journal-<device>-<UTC time>.bin)")
    j.add_argument("--timeout", type=A.seconds, default=5.0,
                   help="seconds the board may take to answer on its port (default 5)")
    j.add_argument("--move-aside", action="store_true",
                   help="after the copy is written and read back equal, rename the board's journal aside")
    j.set_defaults(func=journal, parser=j)


_READ = """
import binascii
with open('/journal.bin', 'rb') as f:
    f.seek(%d)
    print(binascii.hexlify(f.read(%d)).decode())
"""
_SIZE = "import os\ntry:\n print(os.stat('/journal.bin')[6])\nexcept OSError:\n print(-1)\n"
_ASIDE = """
import os
n = 1
while True:
    try:
        os.stat('/journal.bin.aside-%d' % n)
        n += 1
    except OSError:
        break
os.rename('/journal.bin', '/journal.bin.aside-%d' % n)
print('/journal.bin.aside-%d' % n)
"""


def journal(args):
    """tapis board journal: export the journal, then (--move-aside) rename it on the board."""
    from tapis.host.flash.board import connect, device_id
    from tapis.host.errors import FlashError

    try:
        t = connect(args.port, args.timeout)
    except FlashError as e:
        sys.stderr.write("tapis board: %s\n" % e)
        return 2
    try:
        size = int(t.exec(_SIZE).decode().strip())
        if size < 0:
            sys.stderr.write("tapis board: the board on %s has no /journal.bin\n" % args.port)
            return 2
        data = b""
        while len(data) < size:
            data += bytes.fromhex(t.exec(_READ % (len(data), min(4096, size - len(data)))).decode().strip())
        out = args.out or "journal-%s-%s.bin" % (device_id(t) or "board", time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))
        with open(out, "wb") as f:
            f.write(data)
        with open(out, "rb") as f:
            if f.read() != data:
                sys.stderr.write("tapis board: the copy %s does not read back equal: nothing moved\n" % out)
                return 2
        print("copied the board's journal (%d bytes) to %s" % (len(data), out))
        if args.move_aside:
            if int(t.exec(_SIZE).decode().strip()) != size:
                sys.stderr.write("tapis board: the journal changed while it was copied: nothing moved\n")
                return 2
            aside = t.exec(_ASIDE).decode().strip()
            print("moved the board's journal aside to %s: the table starts a fresh journal at its next boot" % aside)
        return 0
    except OSError as e:
        sys.stderr.write("tapis board: %s\n" % e)
        return 2
    except Exception as e:  # mpremote's TransportError, TransportExecError: the board's reply
        sys.stderr.write("tapis board: the board on %s failed: %s\n" % (args.port, (str(e).strip().splitlines() or [repr(e)])[-1]))
        return 2
    finally:
        try:
            t.exit_raw_repl()
        finally:
            t.close()


def emulate(args):
    from tapis.simulator.pico.board import EmulatedPico, PicoError, image_path

    if args.duration is not None and args.duration <= 0:
        args.parser.error("--duration must be positive, got %r" % args.duration)
    for opt, path in (("--flash", args.flash), ("--counter", args.counter)):
        if path is not None and (os.path.isdir(path) or not os.path.isdir(os.path.dirname(os.path.abspath(path)))):
            args.parser.error("%s %s: give a file (kept between runs) in a folder that is there" % (opt, path))
    if args.port and os.path.lexists(args.port) and not os.path.islink(args.port):
        args.parser.error("--port %s exists and is not a symlink: give a new path" % args.port)
    try:
        image = image_path(args.image)
    except PicoError as e:
        args.parser.error(str(e))
    try:
        pico = EmulatedPico(image, args.flash)
        pico.atecc = args.counter
        path = pico.pty()
    except PicoError as e:
        sys.stderr.write("tapis board: %s\n" % e)
        return 1
    try:
        if args.port:
            if os.path.islink(args.port):
                os.unlink(args.port)
            os.symlink(path, args.port)
        print("emulated Raspberry Pi Pico (MicroPython %s) on %s%s; Ctrl-C to stop"
              % (image.name, path, " (link %s)" % args.port if args.port else ""), flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        end = time.monotonic() + args.duration if args.duration else None
        while end is None or time.monotonic() < end:
            time.sleep(0.2)
            failure = pico.bridge.failure if pico.bridge else None
            if failure is not None:
                sys.stderr.write("tapis board: %s\n" % failure)
                return 1
    except KeyboardInterrupt:
        pass
    finally:
        if args.port and os.path.islink(args.port):
            os.unlink(args.port)
        try:
            pico.close()  # the flash file is saved
        except PicoError as e:
            sys.stderr.write("tapis board: %s\n" % e)
            return 1
    return 0
