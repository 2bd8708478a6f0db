# The wire vocabulary, named once (docs/protocol.md is the byte-level reference): device
# addresses, frame types, the link's control codes, device types and the shoe's fault
# codes (the packs a shoe loads are deck.py's). The board, the emulated devices and the host tools all
# speak these names; frames.py encodes them, dialect.py is the shoe's text dialect.
from .compat import const

VERSION = const(2)  # protocol version carried by HELLO; a peer with another one is refused
MAX_PAYLOAD = const(1024)

# ---- addresses: the controller is 0; devices by kind ----------------------------------------
CONTROLLER = const(0x00)
SHOE = const(0x10)
PANEL = const(0x20)  # + seat
DISPLAY = const(0x40)  # + seat
TABLE_DISPLAY = const(0x4F)
HOST = const(0x60)  # a host tool on a link of its own, the operator's USB (tapis recall --port)
SUPERVISOR = const(0x70)  # the supervisor device: its presses and RECALL are the operator's credential
SEATS = const(8)  # the panels and seat displays a table is wired for

# ---- frame types -----------------------------------------------------------------------------
CARD = const(0x10)  # shoe -> controller: [card code]
FAULT = const(0x11)  # shoe -> controller: [fault code] + its arguments
DRAW = const(0x12)  # controller -> shoe: [n]: deliver n cards, then stop
SHUFFLE = const(0x13)  # controller -> shoe: [pack size]: load and shuffle a fresh pack (deck.py)
COUNT = const(0x14)  # shoe -> controller: [LOADED or LEFT, n hi, n lo]: a pack counted (packcount.py)
BUTTON = const(0x20)  # panel -> controller: [button, arg] (firmware/games/panel.py)
SUPERVISE = const(0x21)  # supervisor -> controller: [command] + amounts, 2 bytes each, big-endian
SHOW = const(0x30)  # controller -> display: JSON view of the seat (or the table)
WHOLE = const(0x31)  # display -> controller: [] its view did not decode: the next SHOW whole
RECALL = const(0x50)  # host -> controller: [last n games]
RECORD = const(0x51)  # controller -> host: [index, count, chunk, chunks] + a game's JSON
RECORD_CHUNK = const(900)  # bytes of a game's JSON per RECORD frame
EVENTS = const(0x52)  # host -> controller: [since: 4 bytes]: the event log's entries after it, in RECORDs
METERS = const(0x53)  # host or supervisor -> controller: no payload (the supervisor's credential)
METERED = const(0x54)  # controller -> host: a meters copy's bytes (firmware/meters/tally.py), empty: no meters
VERIFY = const(0x55)  # host or supervisor -> controller: [16-byte seed]: the seeded software check
# controller -> host: [0] + HMAC-SHA256(seed, what the board runs) + its id + 0x00 + its counter's words; [1] + why
CHECKED = const(0x56)
NO_COUNTER = "no monotonic counter"  # CHECKED's and the power-up's words for a board without one (link/counter.py)
DEALS = const(0x57)  # host -> controller: [since: 4 bytes, n]: the last n games, if a deal after since is over
SUBSCRIBE = const(0x58)  # host -> controller: [1]: NOTICE at each deal's end and each event; [0]: no more
NOTICE = const(0x59)  # controller -> host: [deals over: 4, last event: 4, state: 0 running, 1 locked, 2 disabled]
TIME = const(0x5A)  # host or supervisor -> controller: [UTC seconds: 4 bytes]: the board's clock (recall.clock)
CLEAR = const(5)  # BUTTON [CLEAR, n] from the host or the supervisor: a clear (0, 1: clears.py), play
# disabled or enabled (2, 3: hostframes.py); a panel's BUTTON is games/panel.py's
# Link control (link.py): never handed to the devices' code
ACK = const(0x01)  # either way: SEQ = the last frame taken, cumulative; no payload
NAK = const(0x02)  # either way: SEQ = the frame expected next; [reason]
HELLO = const(0x03)  # either way: SEQ = oldest unacknowledged; [version, type, flags, next, session] + serial
PING = const(0x04)  # controller -> device heartbeat; answered by an ACK
POLL = const(0x05)  # on the bus: controller -> device "speak now" (SEQ: its last frame taken); device -> controller "nothing to say"
TURN = const(0x80)  # on the bus, or'ed into TYPE: the sender hands the bus over after this frame (bus.py)
# (ACK, NAK, HELLO and POLL are not sequenced and not acknowledged)

# NAK reasons
NAK_ORDER = const(1)  # a frame came out of order (one was lost)
NAK_VERSION = const(2)  # HELLO with another protocol version
# HELLO flags
HELLO_REPLY = const(1)
HELLO_SYNC = const(2)  # "this is where my frames stand" (answering a NAK for an old frame)
# Device types in HELLO
DEV_CONTROLLER = const(0)
DEV_SHOE = const(1)
DEV_CONSOLE = const(2)  # a seat: panel and display
DEV_DISPLAY = const(3)
DEV_HOST = const(4)  # a host tool (tapis recall)
DEV_SUPERVISOR = const(5)  # the operator's supervisor device (bank, stakes, configuration, recall, void)

# ---- the shoe's faults: the first byte of a FAULT payload (an ASCII letter) -------------------
UNREAD = const(0x55)  # "U": a card came out that the reader could not read
FACE_UP = const(0x46)  # "F" card: a card came out face up
DOUBLE = const(0x44)  # "D" card card: two cards came out together
EMPTY = const(0x45)  # "E": the shoe ran empty
CUT = const(0x43)  # "C": the cut card came out (club écarté's shoe); the next DRAW goes on
OUT_OF_TURN = const(0x54)  # "T" seat: the shoe is being dealt from that seat
# ---- a COUNT's first byte: when the shoe counted the pack (firmware/table/packcount.py) ---------------
LOADED = const(0x4C)  # "L": as a SHUFFLE loaded it, the cards it holds
LEFT = const(0x52)  # "R": as the next SHUFFLE unloaded it, the cards still in it
