# tapis simulate: Monte Carlo of the games, in chunks seeded alone, on the rules engine or club's fast path.
