# The écarté atlas (tapis odds ecarte --all): the classes of positions, a row each, the run, its summary.
