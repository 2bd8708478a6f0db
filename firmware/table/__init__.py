# The table: the controller's loop, what leaves the board at a safe point, the tilts, the pack counted.
