# What écarté speaks: its phases, its actions, and its events declared once
# (rules.py says what each flag means; the comment says what the event carries).
from ...compat import const
from ..rules import BARE, CARDS, COUNT, DEALT, FAULT, HIDDEN, INPUT, LAW, NEW_DEAL, OFF  # noqa: F401

DEAL = const(0)  # the shoe deals the hands in packets, then turns the trump
PROPOSE = const(1)  # elder: propose or stand ("I play")
RESPOND = const(2)  # dealer: accept or refuse
DISCARD = const(3)  # the seat to act discards
DRAW = const(4)  # the shoe replaces the discards
PLAY = const(5)  # tricks
CHOOSE = const(6)  # an irregularity: the non-dealer chooses what the laws offer him
ANSWER = const(7)  # a proposal to double, or an offer of the point, awaits its answer
CUT = const(8)  # the first deal: each player cuts a card, the higher deals (000:39, 001:8)
PHASE_NAMES = ("deal", "propose", "respond", "discard", "draw", "play", "choose", "answer", "cut")

# The shoe's faults the laws answer (laws.py), as chance actions
SHOE_FAULTS = ("unread", "exposed", "double feed", "missing", "outofturn")
PLAYER_ACTIONS = ("propose", "stand", "accept", "refuse", "discard", "king", "play",
                  "choose", "abandon", "claim", "double", "offer", "bet", "limits")

EVENTS = {
    # the deal
    "cut": DEALT | CARDS,  # (seat, card) cut for the first deal
    "deal": NEW_DEAL,  # (dealer, deal number): a deal begins
    "card": DEALT | CARDS | HIDDEN,  # (seat, card) dealt to the seat
    "turn": DEALT | CARDS,  # (CHANCE, card) turned up: its suit is trump
    "draw": DEALT | CARDS | HIDDEN,  # (seat, card) drawn in the exchange
    # the players' actions, as they were taken
    "propose": INPUT, "stand": INPUT,  # (elder, None)
    "accept": INPUT, "refuse": INPUT,  # (seat, None): a proposal, a double, an offer
    "discard": INPUT | CARDS | COUNT,  # (seat, (cards...)): the table display shows how many
    "king": INPUT,  # (seat, None): the trump king announced
    "play": INPUT | CARDS,  # (seat, card)
    "abandon": INPUT,  # (seat, None): thrown in; (seat, "point"): the point conceded (002:27)
    "claim": INPUT,  # (seat, None)
    "double": INPUT, "offer": INPUT,  # (seat, None): the variants' questions
    "bet": INPUT,  # (gallery seat, (side, amount))
    # the supervisor's (firmware/operator/commands.py, limits.py; seat -2, no panel's; who: its serial)
    "limits": INPUT,  # (-2, (who, stake, max_bet)): from the next game begun
    "in_force": 0,  # (-2, (stake, max_bet)): the limits now
    "choose": INPUT | LAW,  # (elder, choice): what he chose of what the laws offered
    # the play and the score
    "trick": 0,  # (winner, tricks played)
    "claimed": 0,  # (seat, tricks it is sure of)
    "showdown": CARDS,  # (winner or CHANCE, (why, hand 0, hand 1)): the quick game
    "score": 0,  # (seat, (points, reason))
    "game": 0,  # (winner, game value 1..3)
    "rubber": 0,  # (winner, (games, games))
    "pool": 0,  # (seat, amount): pool écarté won (two games running): what it takes
    "seats": 0,  # (CHANCE, (seat, seat, watcher)): who plays in pool écarté
    "pay": 0,  # (payer, (payee, amount)); payee "pool": into pool écarté's pool
    "balances": 0,  # (CHANCE, (balance by seat...))
    # the laws of irregularities (laws.py)
    "unread": FAULT | LAW,  # (CHANCE, None)
    "exposed": FAULT | LAW | CARDS,  # (CHANCE, card) came out face up
    "double feed": FAULT | LAW | CARDS | HIDDEN,  # (CHANCE, (card, card))
    "missing": FAULT | LAW,  # (CHANCE, None): the pack ran short
    "outofturn": FAULT | LAW,  # (CHANCE, seat) dealing
    "duplicate": DEALT | LAW | CARDS,  # (CHANCE, card) a second time: an imperfect pack
    "extra": LAW | CARDS | HIDDEN,  # (seat, card) one card too many
    "choices": LAW,  # (elder, (choice...)) the laws offer him
    "set aside": LAW | CARDS | HIDDEN,  # (seat, card): one card too many set aside
    "retake": LAW | CARDS | HIDDEN,  # (seat, card): a discard taken back, the stock out
    "king lost": LAW,  # (dealer, why)
    "void": LAW,  # (CHANCE, why): the deal is void
}
