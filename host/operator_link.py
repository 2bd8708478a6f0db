# A host tool's end of a table's operator's link (tapis recall, events, meters, verify, clear
# --port; the pit's boards): in a session under the table's device key when the table keys it
# (firmware/operator/hostlink.py: `tapis table --host-port`, a board built with it), else the unkeyed
# link of its own that tables built the old way answer. One place for --table-key's meaning.
import functools
import os


def add_option(p):
    p.add_argument("--table-key", metavar="DEVICE|FILE", type=_key,
                   help="with --port: the table's device key (a device name in the host's key store, "
                   "or a key file, hex) when its operator's link is keyed; the tool then speaks in a "
                   "session under it (default: the unkeyed link of its own)")


def key_of(spec):
    """The device key `spec` names: a key file's path, else a device in the key store;
    None for None. FlashError when it is not there."""
    from tapis.host.keys import load_key
    if spec is None:
        return None
    return load_key(None, spec) if os.path.exists(spec) else load_key(spec)


def _key(spec):
    import argparse
    from tapis.host.errors import FlashError
    try:
        return key_of(spec)
    except FlashError as e:
        raise argparse.ArgumentTypeError(str(e))


class KeyRequired(ConnectionRefusedError):
    """The table keys its operator's link and this tool has no key (its NAK [NAK_KEY])."""

    def __init__(self):
        super().__init__("the table's operator's link is keyed: give its device key with --table-key "
                         "(a device in the host's key store, or a key file)")


def open_link(port, serial, key=None, timeout=None, **kw):
    """The tool's Link on `port` (read()/write()), named `serial` (what the table logs as
    who asked), keyed with the table's device key (bytes, --table-key's; None: unkeyed);
    with `timeout` (the tool's wait for an answer, s), as patient as the tool (patience()).
    Its poll() raises KeyRequired as soon as a keyed table says it wants the key."""
    from tapis.firmware.operator.hostlink import host_end
    if timeout is not None:
        rto, retries = patience(timeout)
        kw.setdefault("rto_ms", rto)
        kw.setdefault("retries", retries)
    return host_end(port, serial, key, cls=_tool_link(), **kw)


@functools.cache
def _tool_link():
    """The firmware's Link, and a table's NAK [NAK_KEY] read: an unkeyed tool stops at once
    (KeyRequired); a keyed one's session the board lost (a reboot) goes on as before, its
    resends asking for a new one."""
    from tapis.firmware import wire as W
    from tapis.firmware.link.link import Link

    class ToolLink(Link):
        def take(self, addr, seq, ftype, payload, out):
            if ftype & 0x7F == W.NAK and bytes(payload[:1]) == bytes((W.NAK_KEY,)):
                self.count(self.peer(addr), "naks_got")
                if not self.keyed(addr):
                    raise KeyRequired()
                return
            Link.take(self, addr, seq, ftype, payload, out)
    return ToolLink


def patience(timeout):
    """(resend timeout in ms, resends) for a host tool's link that waits `timeout` s for an
    answer: the link gives the board up only once the tool would. A board acknowledges a
    question at its poll after it answered it (firmware/link/delivery.py), and a long answer (the
    pit's DEALS: a game read from flash, sealed a frame at a time) takes it longer than the
    link's own 6 resends 40 ms apart. Given up after those 0.3 s, the host's end dropped its
    session (link.die), refused the answer's frames sealed in it as forged and began a new
    one; on a board slower than that at each try (the emulated Pico on a loaded machine) the
    pit never stored a deal (issue 31). Resent at most once a second meanwhile."""
    ms = max(int(timeout * 1000), 1)
    rto = min(max(ms // 7, 40), 1000)
    return rto, max(6, -(-ms // rto) - 1)
