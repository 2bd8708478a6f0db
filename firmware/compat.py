# The few names that differ between MicroPython and CPython, in one place.
try:
    from micropython import const  # type: ignore
except ImportError:  # CPython

    def const(x):
        return x
