# tapis shoe: the shoe's traffic decoded in either dialect, its monitor and its emulator.
