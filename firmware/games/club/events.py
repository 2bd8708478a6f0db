# What club écarté speaks: its phases, accounts and actions, and its events declared once
# (rules.py says what each flag means; the comment says what the event carries).
from ...compat import const
from ..rules import BARE, CARDS, DEALT, INPUT, LAW, NEW_DEAL, OFF

BANK = const(0)  # the banker decides (see Club.choices)
STAKE = const(1)  # the punter to act stakes or skips
DEAL = const(2)  # the shoe delivers the deal
PHASE_NAMES = ("bank", "stake", "deal")
LIMITED = "limited"
RESPONSIBLE = "responsible"

# banker:  ("lay", s, None)      lay a limited bank of the configured size
#          ("respond", s, fresh) hold a responsible bank; fresh=True asks for a new shoe
#          ("hold", s, None)     keep the bank into the next talia
#          ("pass", s, None)     give the bank up: it goes to the next seat
# punter:  ("stake", s, (tableau, amount)) tableau 1..3 (the punters' tableaux)
#          ("skip", s, None)     no stake this deal
# shoe:    ("shoe", CHANCE, card), ("cut", CHANCE, None) when the cut card comes out,
#          ("missing", CHANCE, None) when it runs empty while the talia should hold cards
# supervisor (firmware/operator/commands.py; seat SUP, no panel's; `who` its serial):
#          ("limits", SUP, (who, bank, first minimum, second minimum)) the limited bank's
#                                size and the punters' minimums, from the next bank laid
#          ("authorise", SUP, (who, seat)) that seat may hold a responsible bank (supervised)
#          ("give", SUP, (who, seat)) the bank to that seat, out of rotation (at a decision)
BANKER_ACTIONS = ("lay", "respond", "hold", "pass")
SUP_ACTIONS = ("limits", "authorise", "give")
SUP = const(-2)
PUNTER_ACTIONS = ("stake", "skip")
DEAL_CARDS = const(17)  # 4 tableaux of 4, then the trump
SHOE = const(104)  # two 52-card decks
# the accounts money moves between, besides the seats
BANKS = "bank"  # a limited bank's money
TABLE = "table"  # stakes on the cloth during a deal
HOUSE = "house"  # the commission

EVENTS = {
    "banker": 0,  # (seat, None): it holds the bank now
    "lay": INPUT | BARE,  # (banker, bank size)
    "respond": INPUT,  # (banker, fresh shoe?)
    "hold": INPUT, "pass": INPUT,  # (banker, None)
    "rotate": 0,  # (banker, why): a responsible bank's time is up
    "limits": INPUT, "authorise": INPUT, "give": INPUT,  # the supervisor's (SUP, (who, ...))
    "in_force": 0,  # (SUP, (bank, first minimum, second minimum)): the limits now
    "move": OFF,  # (seat, (from, to, amount)): money between accounts
    "deal": NEW_DEAL,  # (banker, deal number)
    "stake": INPUT,  # (seat, (tableau, amount))
    "skip": INPUT,  # (seat, None)
    "talia": 0,  # (CHANCE, talia number): a fresh shoe
    "cut": INPUT | BARE,  # (CHANCE, cards left): the cut card came out
    # (CHANCE, cards left): the shoe ran empty while the talia should hold cards (a shoe
    # restarted after a power cut, its pack not the talia's): the talia is over
    "missing": INPUT | BARE | LAW,
    "void": LAW,  # (CHANCE, why): the deal's cards dealt so far set aside, dealt again
    "card": DEALT | CARDS | OFF,  # (tableau 0..3, card), face down
    "turn": DEALT | CARDS,  # (CHANCE, card): its suit is trump
    "tableaux": CARDS,  # (CHANCE, (4 cards, 4 cards, 4 cards, 4 cards)) opened together
    "result": 0,  # (tableau, (outcome, banker tricks, punter tricks))
    "short": 0,  # (seat, (tableau, paid, stake)): a win larger than the bank held, cut to it
    "settle": 0,  # (seat, (tableau, amount, outcome, net))
    "broken": 0,  # (banker, banks laid)
    "end": 0,  # (banker, (deal, balances, bank, house)): the deal is settled
}
