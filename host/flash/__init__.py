# tapis flash: the firmware built, signed, written to a board and read back; tapis verify, the seeded check.
