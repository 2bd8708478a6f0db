# `tapis ports`: the serial ports of this computer (pyserial's list_ports), and which of them
# look like a MicroPython board: the one `--port auto` would take is marked.
import json


def register(sub):
    p = sub.add_parser("ports", help="list the serial ports, and which is a board (--port auto)",
                       description="List this computer's serial ports with their USB ids, as pyserial "
                       "sees them, and name the ones that look like a MicroPython board. `--port auto` "
                       "(tapis flash) takes the board when exactly one is plugged in.")
    p.add_argument("--json", action="store_true", help="one JSON object: the ports")
    p.set_defaults(func=run, parser=p)


def run(args):
    from tapis.host.ports import PortError, find_board, serial_ports

    ports = serial_ports()
    try:
        auto = find_board(ports)
    except PortError:
        auto = None
    for p in ports:
        p["auto"] = p["device"] == auto
    if args.json:
        print(json.dumps({"schema": "tapis.ports/1", "ports": ports}))
        return 0
    if not ports:
        print("no serial ports")
        return 0
    for p in ports:
        usb = "%04X:%04X" % (p["vid"], p["pid"] or 0) if p["vid"] is not None else "-"
        what = p["board"] or " ".join(x for x in (p["manufacturer"], p["product"] or p["description"]) if x) or "-"
        print("%-20s %-9s %s%s" % (p["device"], usb, what, "  <- --port auto" if p["auto"] else ""))
    return 0
