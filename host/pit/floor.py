# A table `tapis pit --floor N` starts itself: a simulated table (simulator/table/emulated.py, the
# firmware's controller with its emulated shoe, consoles and bots) with an identity of its own
# (host/table/identity.py's device name, a key of its own), dealt at a pace by the floor's process
# (floorproc.py), keeping what a board keeps for its host interface: its finished deal
# records and its events, each numbered from 1. A table keeps dealing while no pit listens.
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


def image_digest(seed, config):
    """The seeded software check: HMAC-SHA256(seed, every firmware file's bytes in name order,
    then the configuration), as a board answers it (SPEC §10). The pit, holding the same image,
    computes what it expects alike."""
    import tapis.firmware as fw

    root = os.path.dirname(fw.__file__)
    h = hmac.new(seed, digestmod=hashlib.sha256)
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                with open(os.path.join(d, f), "rb") as fh:
                    h.update(fh.read())
    h.update(config.encode())
    return h.hexdigest()


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
        now = time.time()
        with self.lock:
            self.deals.extend((now, r) for r in done)
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
        from tapis.firmware.offboard import named
        from tapis.simulator import kits
        from tapis.simulator.table.emulated import EmulatedTable

        options = named.options(self.game, self.variant) if self.variant else None
        # the first session is `tapis table --seed S`'s deals; the next ones seeded apart
        seed = self.seed + self.sessions * 1000003
        self.sim = EmulatedTable(seed, self.game, options=options, evaluator=evaluate)
        self.recorder, self.n, self.fed = kits.find(self.game).Recorder(seed, options), 0, 0
        self.sessions += 1

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
            return {"records": [(records + i + 1, at, r) for i, (at, r) in enumerate(self.deals[records:records + limit])],
                    "events": [dict(e) for e in self.logged[events:events + limit]], "state": self.state,
                    "meters": None}

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

