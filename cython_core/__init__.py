# The compiled twins: each cython_core/X.pyx mirrors one pure firmware module (the one the
# board runs), with the same names and answers; twins.py chooses between them.
