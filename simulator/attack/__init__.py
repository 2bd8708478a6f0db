# Attackers: a device spliced into the bus or the shoe's cable of an emulated table.
