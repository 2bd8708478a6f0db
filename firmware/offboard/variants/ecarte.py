# Écarté's variants by name (docs/rules.md): each is Options keyword data, nothing else.
# Loaded when a variant is named (games/named.py), so a board playing the plain game
# keeps them out of its heap.
VARIANTS = {
    "ace-high": {"ace_high": True},
    "dealer-must-exchange": {"dealer_must_exchange": True},
    "doubling": {"doubling": True},
    "offer-point": {"offer_point": True},
    "pool": {"pool": True},
    "quick": {"quick": True},
    "gallery": {"gallery": 2},
    "rubber-3": {"rubber": 3},
    "rubber-5": {"rubber": 5},
    "rubber-7": {"rubber": 7},
    "rubber-11": {"rubber": 11},
}
