# Compiled twins of firmware/evaluate.py's hot paths. Each .pyx mirrors one pure
# module, with the same names and answers; host/core.py chooses between them.
