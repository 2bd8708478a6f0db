# A device spliced into the RS-485 bus (issue 29.2): it hears every frame on the line and,
# in the line's silent moments, sends what a forger can make of them, each with a valid
# CRC: a frame heard replayed verbatim, with another address, with its sequence byte or its
# counter byte changed, a forged challenge (a HELLO with a nonce of its own), a POLL answer
# for another device, or garbage. Seeded (tests draw the seed, mix and rate with
# hypothesis); attacked() runs a table under it, silences it and measures the recovery.
import json
import random

from tapis.firmware import wire as W
from tapis.firmware.link.frames import Decoder, encode

MIXES = ("verbatim", "address", "sequence", "counter", "challenge", "poll", "garbage")


class BusAttacker:
    def __init__(self, t, seed=0, rate=0.05, mix=MIXES, line=1):
        """On the table's line `line` (1: the bus); `rate`: the chance it speaks in a silent ms."""
        self.end = t.lines[line].end("attacker")
        self.line = t.lines[line]
        self.rng = random.Random(seed)
        self.rate, self.mix = rate, tuple(mix)
        self.decoder = Decoder()
        self.heard = []  # raw frames, latest last (at most 200)
        self.sent = 0
        self.on = True

    def forge(self):
        r = self.rng
        kind = r.choice(self.mix)
        if kind == "garbage":
            return bytes(r.randrange(256) for _ in range(r.randrange(1, 24)))
        if not self.heard:
            return b""
        a, s, t, p = r.choice(self.heard)
        if kind == "verbatim":
            pass
        elif kind == "address":
            a = r.choice([W.PANEL, W.PANEL + 1, W.DISPLAY, W.DISPLAY + 1, W.TABLE_DISPLAY,
                          W.CONTROLLER, W.SUPERVISOR, W.SHOE, W.PANEL + 2, W.DISPLAY + 2])
        elif kind == "sequence":
            s = (s + r.choice((1, 2, -1, 128, r.randrange(256)))) & 255
        elif kind == "counter":
            if len(p) >= 5:
                p = bytearray(p)
                i = len(p) - 5  # a sealed frame's counter byte
                p[i] = (p[i] + r.choice((1, 2, 255, 128, r.randrange(256)))) & 255
                p = bytes(p)
            else:
                s = (s + 1) & 255
        elif kind == "challenge":
            t = W.HELLO | (W.TURN if r.random() < 0.5 else 0)
            sess = r.randrange(65536)
            p = bytes((W.VERSION, r.choice((0, 1, 2, 3)), r.choice((0, 1, 3)), r.randrange(256),
                       sess >> 8, sess & 255)) + bytes(r.randrange(256) for _ in range(8)) + \
                (p[14:] if t & 0x7F == W.HELLO and len(p) > 14 else b"EMU") + \
                (bytes(r.randrange(256) for _ in range(8)) if r.random() < 0.5 else b"")
            s = r.randrange(256)
        elif kind == "poll":
            t, p = W.POLL | W.TURN, b""
            s = 0
        return encode(a & 255, s & 255, t & 255, p[:1024])

    def step(self, now):
        data = self.end.read()
        if data:
            for f in self.decoder.feed(data):
                self.heard.append(f)
            del self.heard[:-200]
        line = self.line
        if self.on and not any(e.tx for e in line.ends) and self.rng.random() < self.rate:
            f = self.forge()
            if f:
                self.end.write(f)
                self.sent += 1


def in_sync(t):
    """Every bus device in session with the controller, and every seat's display showing the
    last view the controller sent it (as JSON carries it): what the link owed is delivered."""
    c = t.controller
    sent = getattr(t, "views_sent", None)
    if sent is None:
        sent = t.views_sent = {}
        for s, d in enumerate(c.seats):
            def encode(view, encode=d.codec.encode, s=s):
                out = encode(view)
                if out is not None:
                    sent[s] = json.loads(json.dumps(view))
                return out
            d.codec.encode = encode
        return False
    for a, p in c.bus.peers.items():
        if p.greet and (not p.helloed or p.dead or p.refused or p.expect is not None):
            return False
    for s, console in enumerate(t.consoles):
        if s in sent and console.view != sent[s]:
            return False
    return True


def attacked(game, seed, mix=MIXES, rate=0.05, attack_ms=5000, limit_ms=60000, check_ms=10):
    """A table of `game` under a BusAttacker for its first `attack_ms`, then silent: the ms
    from its silence until the table is in sync again (None: not within `limit_ms`), the
    frames it sent, and whether a deal was finished after its silence."""
    from tapis.simulator.table.emulated import EmulatedTable
    t = EmulatedTable(seed, game)
    a = BusAttacker(t, seed, rate, mix)
    pressed, taken = watch_presses(t)
    in_sync(t)  # (it watches the views sent from now on)
    while t.now < attack_ms:
        a.step(t.now)
        t.step()
    a.on = False
    off, synced = t.now, None
    deals = t.game.finished_deals()
    while t.now - off < limit_ms:
        t.step()
        if synced is None and t.now % check_ms == 0 and in_sync(t):
            synced = t.now - off
        if synced is not None and (t.game.finished_deals() > deals):
            break
    return {"recovery_ms": synced, "sent": a.sent, "dealt_on": t.game.finished_deals() > deals,
            "table": t, "pressed": pressed, "taken": taken}


def watch_presses(t):
    """{address: [BUTTON or CARD payloads its device sent]} and {...: [those the controller
    took from it]}, as the table runs (the panels' and the shoe's)."""
    pressed, taken = {}, {}
    for c in t.consoles + [t.shoe]:
        def send(addr, ftype, payload=b"", send=c.link.send):
            if ftype == W.BUTTON or ftype == W.CARD:
                pressed.setdefault(addr, []).append(bytes(payload))
            return send(addr, ftype, payload)
        c.link.send = send
    ctrl = t.controller

    def on_frame(link, addr, seq, ftype, payload, on_frame=ctrl.on_frame):
        if ftype == W.BUTTON or ftype == W.CARD:
            taken.setdefault(addr, []).append(bytes(payload))
        return on_frame(link, addr, seq, ftype, payload)
    ctrl.on_frame = on_frame
    return pressed, taken


def only_pressed(pressed, taken):
    """Is every press (or card) the controller took one its device sent, each at most once and
    in the order sent (a press may be lost to a resynchronised link; none is made up)?"""
    for addr, got in taken.items():
        sent, i = pressed.get(addr, []), 0
        for x in got:
            while i < len(sent) and sent[i] != x:
                i += 1
            if i == len(sent):
                return False
            i += 1
    return True


class CableAttacker:
    """A device in the shoe's cable (issue 29.1): every frame either way passes through it,
    and, while `on`, it drops one, changes a byte of one (its CRC made good), sends an old
    one again, holds one back until the next has gone (reorders), or injects one of its
    own (a CARD, a DRAW, a SHUFFLE with a card code or count of its choosing)."""

    ACTS = ("drop", "change", "replay", "reorder", "inject")

    def __init__(self, t, seed=0, rate=0.2, acts=ACTS):
        self.rng = random.Random(seed)
        self.rate, self.acts = rate, tuple(acts)
        self.on = True
        self.done = {}  # act -> times
        self.heard = []
        for end in t.lines[0].ends:
            self._splice(end)

    def _splice(self, end):
        write, held = end.write, []

        def through(data):
            data = bytes(data)
            frames = Decoder().feed(data)
            if not self.on or len(frames) != 1 or self.rng.random() >= self.rate:
                out = [data] + held
                del held[:]
            else:
                out = self._act(frames[0], data, held)
            for f in out:
                self.heard.append(f)
                write(f)
            del self.heard[:-64]
            return len(data)
        end.write = through

    def _act(self, frame, data, held):
        r = self.rng
        act = r.choice(self.acts)
        self.done[act] = self.done.get(act, 0) + 1
        a, s, t, p = frame
        if act == "drop":
            return []
        if act == "change":
            p = bytearray(p) or bytearray(1)
            p[r.randrange(len(p))] ^= 1 << r.randrange(8)
            return [encode(a, s, t, bytes(p))]
        if act == "replay":
            return [data] + ([r.choice(self.heard)] if self.heard else [])
        if act == "reorder":
            held.append(data)
            return []
        kind = r.choice((W.CARD, W.DRAW, W.SHUFFLE, W.FAULT))
        forged = encode(W.SHOE, (s + r.choice((0, 1, 2))) & 255, kind,
                        bytes((r.randrange(64),)) + bytes(r.randrange(256) for _ in range(r.choice((0, 5)))))
        return [data, forged]
