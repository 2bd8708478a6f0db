# Club écarté's variants by name (docs/rules.md): each is Options keyword data, nothing else.
# Loaded when a variant is named (games/named.py), so a board playing the plain game
# keeps them out of its heap.
VARIANTS = {
    "eight-seats": {"seats": 8},
    "commission-5": {"commission": 5, "balance": 1000, "bank": 150, "minimums": (60, 30)},
    "big-bank": {"bank": 60, "minimums": (20, 10)},
    "supervised": {"supervised": True},  # a responsible bank only with the supervisor's leave
}
