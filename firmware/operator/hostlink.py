# The operator's link as a paired device's (docs/protocol.md, "The host interface"): both
# ends of it. The board's end keys the host tool's address (W.HOST) with the table's device
# key, as bus.route_for keys the shoe's own wire, so a host speaks only in a session under
# hello.pair_key(device key, DEV_HOST, HOST, its serial): paired key, MAC, replay counter
# (link.py, hello.py); a frame from a host without the key is refused and counted (the
# communication tilt). A board built without it keeps the unkeyed link of its own, whose
# being a link of its own is the credential (recall.credential). Used where a link is
# built (boot, a host tool); the board's end (Operator) stays, as its link does.
from .. import wire as W
from ..link.link import Link


class Operator(Link):
    """The board's end of the operator's link: a Link that, once a host subscribed
    (hostframes.py sets `notify`: [controller, address, what it was told]), tells it at its
    poll when the deals over or the last event moved (hostframes.notice, loaded for that)."""

    notify = None  # type: list | None

    def poll(self, now_ms):
        got = Link.poll(self, now_ms)
        n = self.notify
        if n is not None:
            c = n[0]
            if n[2] != c.game.finished_deals() or n[3] != (c.events["seq"] if c.events else 0):  # (EventLog.park)
                from ..compat import unload
                from .hostframes import notice
                notice(self)
                unload("operator.hostframes")
        return got


def board_end(port, device_key=None, **kw):
    """The board's Link for W.HOST on `port`: keyed with `device_key` (bytes) if given,
    else unkeyed (a link of its own, as before)."""
    link = Operator(port, **kw)
    if device_key:
        link.keys, link.own = bytes(device_key), W.HOST
    return link


def host_end(port, serial, device_key=None, **kw):
    """A host tool's Link to a table's operator link: with the table's `device_key`, paired
    as W.HOST under the key pair_key derives for `serial` (the tool's name, which the board
    logs as who asked); without it, unkeyed (a board built the old way)."""
    keys = None
    if device_key:
        from ..link.hello import pair_key
        keys = {W.HOST: pair_key(bytes(device_key), W.DEV_HOST, W.HOST, bytes(serial))}
    return Link(port, W.DEV_HOST, bytes(serial), keys=keys, **kw)


def paired(link):
    """Whether `link` is a board's end keyed for the host (its frames opened under a session)."""
    return link.keys is not None and link.own == W.HOST
