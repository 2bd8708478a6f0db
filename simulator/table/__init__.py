# The emulated table: the firmware's controller, its wires and its emulated devices, stepped a millisecond at a time.
