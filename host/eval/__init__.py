# tapis eval GAME: a position's best play, one module per game that has one.
