# What piquet speaks: its phases, its actions, and its events declared once
# (rules.py says what each flag means; the comment says what the event carries).
from ...compat import const
from ..rules import CARDS, COUNT, DEAL_END, DEALT, FAULT, HIDDEN, INPUT, LAW, NEW_DEAL, OFF

CUT = const(0)  # the shoe gives each seat a card; the higher deals first
DEAL = const(1)  # 12 each in packets, then the talon
BLANCHE = const(2)  # a holder of carte blanche declares it, or not
EXCHANGE = const(3)  # the seat to act discards and takes from the talon
LOOK = const(4)  # the seat to act may look at the talon cards it left
DECLARE = const(5)  # point, sequence, sets: declare or sink, elder first
PLAY = const(6)  # 12 tricks
PHASE_NAMES = ("cut", "deal", "blanche", "exchange", "look", "declare", "play")

CATEGORIES = ("point", "sequence", "sets")
# ("blanche", seat, True|False)  declare carte blanche, or keep quiet
# ("exchange", seat, (cards...))  discard 1..n cards and take as many from the talon
# ("look", seat, True|False)      look at the talon cards left behind, or not
# ("declare" | "sink", seat, category)  declare one's best holding in it, or sink it
# ("play", seat, card)
PLAYER_ACTIONS = ("blanche", "exchange", "look", "declare", "sink", "play")
# the shoe's card and its faults, as chance actions: a fault voids the deal (SPEC §4 "Misdeals")
CHANCE_ACTIONS = ("shoe", "unread", "exposed", "double feed", "missing", "outofturn")

EVENTS = {
    "cut": DEALT | CARDS,  # (seat, card) cut for the deal
    "deal": NEW_DEAL,  # (dealer, deal number)
    "card": DEALT | CARDS | HIDDEN,  # (seat, card) dealt to the seat
    "talon": DEALT | CARDS | HIDDEN,  # (CHANCE, card) dealt to the talon
    "blanche": INPUT,  # (seat, True|False)
    "show": CARDS,  # (seat, (cards...)): carte blanche shown
    "exchange": INPUT | CARDS | COUNT,  # (seat, (cards...)) discarded
    "draw": CARDS | HIDDEN,  # (seat, card) taken from the talon
    "look": INPUT,  # (seat, True|False)
    "rest": CARDS | HIDDEN,  # (seat, (cards...)): the talon cards it looked at
    # (seat, category): declare (the best; asked again, the winner's others: 003:80, 003:84)
    # or not. Off the table display: an answer must not say whether a seat holds anything
    "declare": INPUT | OFF, "sink": INPUT | OFF,
    "holding": 0,  # (seat, (category, key)): what the declaring brought out (declare.py)
    "verdict": 0,  # (winner or -1, (category, "good" | "not good" | "equal" | "none"))
    "score": 0,  # (seat, (points, reason))
    "play": INPUT | CARDS,  # (seat, card)
    "trick": 0,  # (winner, tricks played)
    "end": DEAL_END,  # (dealer, deal number): the deal is over
    "partie": 0,  # (winner or -1, (value, score, score))
    # misdeals (faults.py): the shoe's faults, and what they do
    "unread": FAULT | LAW,  # (CHANCE, None): a card the shoe could not read
    "exposed": FAULT | LAW | CARDS,  # (CHANCE, card): a card out face up
    "double feed": FAULT | LAW | CARDS | HIDDEN,  # (CHANCE, (card, card)): two cards at once
    "missing": FAULT | LAW,  # (CHANCE, None): the shoe ran empty, the pack is short
    "outofturn": FAULT | LAW,  # (CHANCE, seat): the wrong seat deals
    "duplicate": DEALT | LAW | CARDS,  # (CHANCE, card) a second time: an imperfect pack
    "void": LAW,  # (CHANCE, why): the deal (or the cut) is void, dealt (or cut) again
}
