# The links: frames, reliable delivery, sessions and HELLO, the RS-485 bus, the board's UARTs and pins, the device drivers and the views' encoder.
