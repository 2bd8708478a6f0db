# tapis table --host-port PATH: a CPython table's operator's link (firmware/operator/hostlink.py, the
# board's host interface) on a pseudo-terminal linked at PATH, as a board's USB is a serial
# port: `tapis pit --table PATH` (or any host tool) opens it with pyserial. With --board pico,
# the emulated Pico's USB, flashed with the link on it (attach_pico); with --board
# micropython, the virtual board's operator's link (attach_vboard).
import os
import tty

from tapis.firmware import wire as W
from tapis.firmware.link.hello import TEST_KEY
from tapis.firmware.operator.hostlink import board_end
from tapis.simulator.port import Port
from tapis.simulator.table import emulated as table


class Pty(Port):
    """The table's end of a pty, raw and non-blocking, as a Port (read, write)."""

    def __init__(self):
        self.master, self.slave = os.openpty()  # the slave held open: no EIO while no host is on it
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.name = os.ttyname(self.slave)

    def read(self):
        try:
            return os.read(self.master, 4096)
        except OSError:
            return b""

    def write(self, b):
        try:
            return os.write(self.master, bytes(b))
        except OSError:  # full (no host reading): the link resends
            return 0

    def close(self):
        os.close(self.master)
        os.close(self.slave)


def attach(sim, path, device_key=None):
    """The operator's link of `sim` (a simulator.table.EmulatedTable) on a pty linked at
    `path`, keyed with device_key (else the test key); which key, in words."""
    table.STALL_STEPS = 1 << 62  # disabled or locked, it waits for its host: never "stalled"
    port = Pty()
    _link(port, path)
    key = device_key or TEST_KEY
    link = board_end(port, key)
    from tapis.host.flash.verify import emulated
    sim.controller.runs = emulated  # its seeded check: no manifest, the files it runs (tapis verify)
    sim.controller.route[W.HOST] = link
    sim.controller.links.append(link)
    return "journal's device key" if device_key else "test key"


def _link(port, path):
    if os.path.islink(path):
        os.unlink(path)
    os.symlink(port.name, path)


def attach_vboard(sim, path):
    """The virtual board's operator's link (a simulator.boards.vtable.VirtualBoardTable built
    with host=Pty()) linked at `path`; the files its flash's manifest lists kept in the host's
    key store under its device id, as tapis flash keeps what it flashed, so that tapis verify
    finds them. What was done, in words."""
    from tapis.simulator.boards.vboard import flashed
    from tapis.firmware.verify.swcheck import MANIFEST
    table.STALL_STEPS = 1 << 62  # disabled or locked, it waits for its host: never "stalled"
    _link(sim.host, path)
    to = _keep("vboard", {p: d for p, d in flashed(True).items() if p != MANIFEST})
    return ("the virtual board's operator's link at %s (keyed with the test key); the files it runs kept at %s "
            "(tapis verify reads them)" % (path, to))


def _keep(device, files):
    from tapis.host.keys import image_path
    from tapis.host.flash.verify import keep_image
    to = image_path(device)
    keep_image(to, files)
    return to


def attach_pico(sim, path):
    """The emulated Pico's USB (a host.picotable.PicoTable flashed with --host-link usb) bridged
    to a pty linked at `path`; what was flashed kept in the host's key store, as tapis flash
    keeps it, so that tapis verify finds it. What was done, in words."""
    import shutil
    from tapis.host.keys import image_path
    sim.usb = port = Pty()
    _link(port, path)
    kept, device = sim.record()
    said = "the Pico's USB, its operator's link, at %s (keyed with the test key)" % path
    if kept is None:
        return said
    to = image_path(device)
    to.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    shutil.copyfile(kept, to)
    return said + "; what was flashed to it kept at %s (tapis verify reads it)" % to
