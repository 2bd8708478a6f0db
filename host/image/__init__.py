# tapis image build: the MicroPython and picotool sources, the product image built, UF2 files read and written.
