# A table `tapis pit --floor N` starts itself: a simulated table (simulator/table/emulated.py, the
# firmware's controller with its emulated shoe, consoles and bots) with an identity of its own
# (host/table/identity.py's device name, a key of its own), dealt at a pace by the floor's process
# (floorproc.py), keeping what a board keeps for its host interface: its finished deal
# records and its events, each numbered from 1, and its meters: the board's own (the
# firmware's journal and its two copies of the meters, in memory), read at the end of each
# deal, so the pit shows them and checks the records against them as on a board (checks.py).
# A table keeps dealing while no pit listens.
#
# Its events, until the board's event log (issue 30) is what the pit reads: power-up, a law
# applied in a deal, a limited bank broken, a tilt (--tilt-rate: a door opened, at random),
# and the supervisor's actions with who asked.
import hashlib
import hmac
import os
import random
import threading
import time

from tapis.host.pit.link import ACTIONS, LinkRefused

# The simulated table keeps its game's whole event log (the host's table simulator does): after
# this many deals it starts afresh (a new session, the next seed), so a floor left running for
# days holds a bounded log. Its records stay (about 3 KB a deal) for the pit to fetch.
SESSION = 1000
TILTS = ("door open", "wrong pack count")  # the simulated ones (SPEC §10's tilts that lock play)


def floor_image(root=None):
    """{path: bytes} of every file the floor's tables run: the firmware package's tree (its
    .py and .mpy files and any other; not Python's own __pycache__)."""
    import tapis.firmware as fw

    root = root or os.path.dirname(fw.__file__)
    out = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root).replace(os.sep, "/")] = fh.read()
    return out


def image_digest(seed, config, image=None):
    """The seeded software check (SPEC §10) as a board answers it (firmware/verify/swcheck.py,
    host/verify.expected): HMAC-SHA256(seed, every file in path order, each framed by its
    path and length, then the configuration as one more), hex. `image`: the files as the pit
    took them at its start (its reference); None: as they are now (what the table runs)."""
    from tapis.host.flash.verify import expected

    files = dict(image if image is not None else floor_image(), **{CONFIG: config.encode()})
    return expected(files, seed).hex()


CONFIG = "@config"  # the configuration's entry in the check (no file's path begins with @)


def credential_hash(credential, salt):
    return hashlib.pbkdf2_hmac("sha256", credential.encode(), salt, 20000)


class FloorTable:
    """One simulated table, dealt by the floor's process. pace: seconds between deals (0: flat
    out); tilt_rate: the chance after each deal that it tilts (locks until cleared)."""

    def __init__(self, game, seed, credential, variant=None, pace=1.0, tilt_rate=0.0):
        from tapis.host.table.identity import new_device

        self.device, self.key = new_device(), os.urandom(32)  # its identity, as issue 33.4 makes one
        self.game, self.variant, self.seed, self.pace = game, variant or "", seed, pace
        self.tilt_rate, self.rng = tilt_rate, random.Random(seed)
        self.salt = os.urandom(16)
        self.cred = credential_hash(credential, self.salt)
        self.config = "%s/%s" % (game, self.variant)
        self.disabled, self.tilt = False, None
        self.deals, self.logged = [], []  # [(ended_at, record)], [event dict]
        self.lock = threading.Lock()
        self.watchers = []
        self.sim, self.sessions = None, 0
        self.meters, self.metered = None, None  # the board's meters, and as read at the last deal's end
        self.due = 0.0  # when its next deal starts (the dealer's clock)
        self.log("power-up", "%s %s, seed %d" % (game, self.variant or "(default rules)", seed))

    @property
    def state(self):
        return "locked" if self.tilt else "disabled" if self.disabled else "running"

    def log(self, kind, detail="", who="", tilt=False):
        with self.lock:
            self.logged.append({"seq": len(self.logged) + 1, "at": time.time(), "kind": kind,
                                "tilt": tilt, "detail": detail, "who": who})
        self._wake()

    def _wake(self):
        for w in list(self.watchers):
            w()

    def deal(self):
        """Play one deal (the floor process's dealer: floorproc.py)."""
        if self.sim is None:
            self._build()
        self.n += 1
        self.sim.run_deals(self.n)  # (its on_events would be handed the whole log again each run)
        log = self.sim.game.log
        done, self.fed = self.recorder.feed(log[self.fed:]), len(log)
        metered = self._read_meters()
        now = time.time()
        with self.lock:
            self.deals.extend((now, r) for r in done)
            self.metered = metered
        for r in done:
            self._derive(r)
        self._wake()
        if self.n >= SESSION:
            self.sim = None  # a fresh table next deal: its event log is the memory a long floor would fill
        if self.tilt_rate and self.rng.random() < self.tilt_rate:
            self.tilt = self.rng.choice(TILTS)
            self.log("tilt", self.tilt + ": play stopped until the supervisor clears it", tilt=True)

    def _build(self):
        from tapis.cython_core.twins import evaluate
        from tapis.firmware.journal.writer import Journal
        from tapis.firmware.meters.holder import Meters
        from tapis.firmware.offboard import named
        from tapis.firmware.offboard.memstore import MemoryStore
        from tapis.simulator import kits
        from tapis.simulator.table.emulated import EmulatedTable

        options = named.options(self.game, self.variant) if self.variant else None
        # the first session is `tapis table --seed S`'s deals; the next ones seeded apart
        seed = self.seed + self.sessions * 1000003
        journal = Journal(MemoryStore())
        if self.meters is None:
            self.meters = Meters(MemoryStore(), MemoryStore(), key=self.key)
        else:  # a new session is the board's RAM clear: its meters 0 again, their generation going on
            self.meters.clear(journal)
        journal.meters = self.meters
        self.sim = EmulatedTable(seed, self.game, options=options, evaluator=evaluate, journal=journal)
        self.recorder, self.n, self.fed = kits.find(self.game).Recorder(seed, options), 0, 0
        self.sessions += 1

    def _read_meters(self):
        """The board's meters as METERS answers them (tapis.meters/1), at the end of a deal."""
        from tapis.firmware.meters.tally import held
        from tapis.host.memory.meters import as_dict
        j = self.sim.journal
        j.flush()
        return as_dict(held(self.meters, j))

    def _derive(self, r):
        for law in r.get("laws") or ():
            self.log("law", "deal %d: %s" % (r["deal"], law if isinstance(law, str) else " ".join(map(str, law))))
        if r.get("broken"):
            self.log("bank broken", "deal %d: seat %s's bank broken" % (r["deal"], r.get("banker")))

    # ---- what the host interface answers -------------------------------------------------------------

    def hello(self):
        return {"table": self.device, "game": self.game, "variant": self.variant, "state": self.state,
                "config": self.config}

    def fetch(self, records, events, limit):
        """What came after the numbers given: link.TableLink.fetch's answer."""
        with self.lock:
            given = self.deals[records:records + limit]
            meters = self.metered and dict(self.metered, whole=records + len(given) == len(self.deals))
            return {"records": [(records + i + 1, at, r) for i, (at, r) in enumerate(given)],
                    "events": [dict(e) for e in self.logged[events:events + limit]], "state": self.state,
                    "meters": meters}

    def act(self, action, who, credential, seed=None):
        if action not in ACTIONS:
            raise ValueError("no action %r: %s" % (action, ", ".join(ACTIONS)))
        if not hmac.compare_digest(credential_hash(credential or "", self.salt), self.cred):
            self.log("refused", "%s without the supervisor's credential" % action, who)
            raise LinkRefused("the table refuses %s: not the supervisor's credential" % action)
        if action == "verify":
            digest = image_digest(bytes.fromhex(seed), self.config)
            self.log("software check", "seed %s: %s" % (seed, digest), who)
            return digest
        if action == "clear":
            was, self.tilt = self.tilt, None
            self.log("clear", "cleared: %s" % was if was else "nothing to clear", who)
            return "cleared" if was else "nothing to clear"
        self.disabled = action == "disable"
        self.log(action + "d", "play %s at the next safe point" % ("stops" if self.disabled else "resumes"), who)
        return "%sd" % action

