# What one end of a link knows about the frames of one device address (delivery.py keeps a
# Peer an address; link.py's Session adds the sessions of a paired device).


class Peer:
    """What one end knows about the frames of one device address. The defaults are the class's: an
    instance holds only what was set (27 slots a peer, 464 B on a 64-bit port, a board lacked)."""

    seq = 0  # the last sequence number sent to it
    rx = None  # type: int | None  # the last sequence number taken from it
    restored = None  # type: int | None  # the last taken, says the journal
    expect = None  # type: int | None  # its last frame in flight, from its HELLO
    ack_due = False
    nakked = None  # type: int | None
    heard = 0
    greet = False  # this end greets it (the controller's end)
    keep = False  # what is queued for it survives its death (greet(keep=True))
    hello_ms = None  # type: int | None  # when HELLO was last sent (greeting end)
    hellos = 0  # HELLOs sent without an answer
    helloed = False  # it answered HELLO
    ping_ms = 0
    quiet = False  # gave up resending until greeted again (device end)
    lost = False  # what was queued for it is gone, since the controller last looked
    dead = False
    refused = None  # type: str | None  # why it was refused
    info = None  # type: tuple | None  # (type, serial, version) from its HELLO
    session = None  # type: int | None  # its session (drawn at its boot), from its HELLO
    took = None  # type: int | None  # the last frame taken, while a HELLO has moved rx off it (-1: none)
    stream = None  # an answer going out as the window has room (Delivery.stream)

    def __init__(self):
        self.pending = []  # [seq, frame, sent_ms, tries], oldest first
        self.errors = {}  # type: dict
