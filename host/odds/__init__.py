# tapis odds GAME: exact odds by complete enumeration, one module per game; the plots' splits, club's count.
