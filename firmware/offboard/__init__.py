# Off the board: MicroPython-compatible code the host, the simulator and the tests run beside the firmware; never deployed, never frozen (docs/architecture.md).
