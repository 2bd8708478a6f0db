# The emulated table a person plays at: the same controller, links and devices as
# `tapis table`, with the person's console at one seat and paced bots at the others.
# The UI steps it from a timer (`advance`), with no stall detector: while the person
# thinks, nothing is on the wires and the table rests, a step a tick (virtual time goes
# on slowly, the links keep their heartbeats).
from tapis.firmware import wire as W
from tapis.firmware.games import find
from tapis.firmware.journal.writer import Journal
from tapis.firmware.meters.holder import Meters
from tapis.firmware.link.link import Link
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.simulator import kits
from tapis.simulator.table.pipes import pipe
from tapis.simulator.table.supervisor import EmuSupervisor
from tapis.simulator.table.emulated import EmulatedTable

from tapis.host.play.seats import KeyPanel, Paced

WIRE_MOST = 0xFFFF  # SUPERVISE [LIMITS, ...] carries each value in 2 bytes (firmware/operator/commands.py)
BOT_PAUSE_S = 0.7  # how long a bot "thinks" before its presses go out
QUIET_STEPS = 50  # steps with nothing on any wire before the table rests (> a link's resend time)


class PlayTable(EmulatedTable):
    """`seat`: the person's seat. `bots(seat)` makes the player behind another seat (the
    game's "rules" bot by default). `on_table(view)` gets the table display's views, as
    `tapis table`'s renderer does."""

    def __init__(self, seed, game, seat, options=None, evaluator=None, bots=None,
                 pause_s=BOT_PAUSE_S, on_table=None):
        self.panel = KeyPanel()
        kit = kits.find(game)
        seats = find(game).Table(kit.new_game(options, evaluator)).SEATS  # how many panels it wires
        if not 0 <= seat < seats:
            raise ValueError("%s has seats 0 to %d, not %r" % (game, seats - 1, seat))
        make = bots or (lambda s: kit.Bot())
        players = [self.panel if s == seat else Paced(make(s), pause_s) for s in range(seats)]
        # a pipe per device, not the polled bus as built: a bus master polls for ever, so
        # the table would never rest while the person thinks (docs/play.md)
        journal = Journal(MemoryStore())
        journal.meters = Meters(MemoryStore(), MemoryStore())  # as a board keeps them (the M key)
        EmulatedTable.__init__(self, seed, game, options, evaluator, players, on_table, wires=False,
                               journal=journal)
        # the operator's supervisor device, on a link of its own (SPEC §8: the credential)
        ctrl_end, dev_end = pipe()
        link = Link(ctrl_end)
        self.controller.route[W.SUPERVISOR] = link
        self.controller.links.append(link)
        self.supervisor = EmuSupervisor(dev_end, bus=False)
        self.devices.append(self.supervisor)
        self.seat = seat
        self.person = self.consoles[seat]
        self.quiet = 0  # steps since something was last on a wire
        self.ports = [d.link.port for d in self.devices] + [link.port for link in self.controller.links]

    def _press(self):
        """Send what each seat's player releases now, as BUTTON frames on its console's link."""
        for c in self.consoles:
            for button, arg in c.player.take(self.now):
                c.link.send(W.PANEL + c.seat, W.BUTTON, bytes((button, arg)))

    def _busy(self):
        return any(getattr(p, "inbox", None) for p in self.ports)

    def advance(self, most, until=None):
        """Step the table (1 ms a step) until it rests: nothing on any wire for QUIET_STEPS
        steps; or until until() is true after a step; `most` steps at most, one at least.
        Returns the steps made."""
        for n in range(1, most + 1):
            self.step()  # the controller, then the devices
            if self.controller.game is not self.game:  # the supervisor voided the deal
                self.game, self.table = self.controller.game, self.controller.table
            self._press()
            if until is not None and until():
                return n
            self.quiet = self.quiet + 1 if not self._busy() else 0
            if self.quiet >= QUIET_STEPS:
                return n
        return most

    def void(self):
        """The operator voids the deal in play, with the supervisor device."""
        from tapis.firmware.operator.commands import VOID
        self.supervisor.command(VOID)
        self.quiet = 0

    def supervise(self, what):
        """The operator's other commands, with the supervisor device (club écarté):
        "limits" doubles the limited bank's size and the minimums in force (from the next
        bank; at écarté the stake a game and the gallery's largest bet, from the next game), "authorise" lets the person's seat hold a responsible bank, "give" gives it
        the bank out of rotation. What the table refuses is counted (controller.errors)."""
        if what == "limits":
            lim = getattr(self.game, "lim", None)
            w = getattr(self.game, "wagers", None)  # écarté: the stake a game and the largest bet
            if lim is None and w is not None:
                lim = [w.stake, w.max_bet]
            if lim is None:  # piquet: no money at the table
                return
            self.supervisor.limits(*doubled_limits(self.name, lim))
        elif what == "authorise":
            self.supervisor.authorise(self.seat)
        elif what == "give":
            self.supervisor.give(self.seat)
        self.quiet = 0

    def screen(self):
        """The supervisor device asks for the meters screen on the table display (or asks
        again: its end; firmware/operator/commands.py SCREEN)."""
        from tapis.firmware.operator.commands import SCREEN
        self.supervisor.command(SCREEN)
        self.quiet = 0

    def view(self):
        """What the person's display shows now (None before the first view)."""
        return self.person.view

    def meters(self):
        """The supervisor's meters screen, as lines of text (the journal's meters)."""
        from tapis.firmware.meters.tally import held
        from tapis.host.memory.meters import as_dict, text
        self.journal.flush()
        return text(as_dict(held(self.journal.meters, self.journal)))


def doubled_limits(game, lim):
    """The limits in force doubled (the operator's L), each held to the most the table takes
    (issue 33.5): écarté's stake and largest bet to games/ecarte/limits.py MOST, club's bank
    and minimums to what the wire carries."""
    most = WIRE_MOST
    if game == "ecarte":
        from tapis.firmware.games.ecarte.limits import MOST as most
    return [min(2 * v, most) for v in lim]
