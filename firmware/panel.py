# Panel buttons, as the panels send them in BUTTON frames: [button, arg].
from firmware.compat import const

STAND = const(1)  # "I play": play without proposing (PLAY/PROPOSE key, play side)
PROPOSE = const(2)
ACCEPT = const(3)
REFUSE = const(4)
SELECT = const(5)  # arg: the card's place in the hand as displayed, 1..12
CONFIRM = const(6)
KING = const(7)  # MARK KING
BET_PLUS = const(8)
BET_MINUS = const(9)
SUPERVISOR = const(10)

NAMES = ("", "STAND", "PROPOSE", "ACCEPT", "REFUSE", "SELECT", "CONFIRM", "KING",
         "BET+", "BET-", "SUPERVISOR")
