import os
import signal
import sys
import time


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
    e.add_argument("--port", help="also make this path a symlink to the pty (a stable name to use)")
    e.add_argument("--duration", type=float, help="stop after this many seconds (default: until Ctrl-C)")
    e.set_defaults(func=emulate, parser=e)


def emulate(args):
    from tapis.simulator.pico.board import EmulatedPico, PicoError, image_path

    if args.duration is not None and args.duration <= 0:
        args.parser.error("--duration must be positive, got %r" % args.duration)
    if args.port and os.path.lexists(args.port) and not os.path.islink(args.port):
        args.parser.error("--port %s exists and is not a symlink: give a new path" % args.port)
    try:
        image = image_path(args.image)
    except PicoError as e:
        args.parser.error(str(e))
    try:
        pico = EmulatedPico(image, args.flash)
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
