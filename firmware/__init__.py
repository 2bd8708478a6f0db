# Tapis firmware: runs on the board under MicroPython and imports nothing from the host.
