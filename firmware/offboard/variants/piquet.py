# Piquet's variants by name (docs/rules.md): each is Options keyword data, nothing else.
# Loaded when a variant is named (games/named.py), so a board playing the plain game
# keeps them out of its heap.
VARIANTS = {
    "carte-rouge": {"carte_rouge": 20},
    "last-trick-10": {"last_trick": 10},
    "au-cent": {"pack": 36, "deals": 0, "target": 100, "elder_max": 7, "last_trick": 0, "cent": True},
}
