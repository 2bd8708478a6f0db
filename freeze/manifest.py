# A MicroPython manifest that freezes the Tapis firmware into a custom image (issue 11.3),
# for people who build their own MicroPython: frozen bytecode runs from flash instead of
# being loaded into the heap, which leaves the table far more room (the issue measured
# the resident heap falling from 55 KB to 17 KB). Build, from a MicroPython v1.27 checkout:
#
#   make -C mpy-cross
#   make -C ports/rp2 BOARD=RPI_PICO submodules
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/tapis/freeze/manifest.py
#
# then copy ports/rp2/build-RPI_PICO/firmware.uf2 to the Pico in BOOTSEL mode. The
# firmware package is frozen as `firmware` (the name the board imports it by), all but
# firmware/offboard/, the host's code, which no board imports (docs/architecture.md).
# See docs/hardware.md, "A custom image with the firmware frozen". `tapis image build`
# (host/image/build.py) builds the same for RPI_PICO, with the signing key baked in as well.
# The port's manifest, not the board's: RPI_PICO has no manifest of its own, and
# $(BOARD_DIR)/manifest.py stopped the build ("No such file or directory").
import os

include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821 (the manifest's own functions)
# (run from this folder: makemanifest changes to a manifest's folder while it runs it)
_board = sorted(os.path.relpath(os.path.join(d, f), "../firmware") for d, _s, fs in os.walk("../firmware")
                for f in fs if f.endswith(".py") and not os.path.relpath(d, "../firmware").startswith("offboard"))
package("firmware", files=_board, base_path="..")  # noqa: F821
