# Each game's variants by name (offboard/named.py looks them up): Options keyword data, one module per game.
