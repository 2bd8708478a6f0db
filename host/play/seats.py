# Who sits behind each console at a played table. Every seat is an emulated console
# (panel + display over its own link, simulator/table/devices.py); here a seat's player may
# also press buttons between views (`take`): the person presses when a key is hit, and
# a bot's presses wait a short while (real time), so that a person can follow the play.
import time


class KeyPanel:
    """The person's panel: keys queue presses, which the table sends at its next step.
    The screen reads the console's view."""

    def __init__(self):
        self.queue = []
        self.views = 0  # views shown so far

    def presses(self, view):
        self.views += 1
        return []

    def press(self, button, arg=0):
        if not 0 <= arg <= 255:
            raise ValueError("a panel argument is a byte, got %r" % (arg,))
        self.queue.append((button, arg))

    def take(self, now_ms):
        out, self.queue = self.queue, []
        return out


class Paced:
    """A bot whose presses on each view go out `pause_s` seconds (real time, by `clock`)
    after the view came; views that come meanwhile are answered in turn, each after its
    own pause."""

    def __init__(self, bot, pause_s, clock=time.monotonic):
        self.bot, self.pause_s, self.clock = bot, pause_s, clock
        self.waiting = []  # [release time, presses], oldest first

    def presses(self, view):
        out = self.bot.presses(view)
        if out:
            self.waiting.append([self.clock() + self.pause_s, list(out)])
        return []

    def take(self, now_ms):
        out = []
        if self.waiting:
            now = self.clock()
            while self.waiting and self.waiting[0][0] <= now:
                out.extend(self.waiting.pop(0)[1])
        return out
