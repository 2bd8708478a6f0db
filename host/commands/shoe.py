def register(sub):
    p = sub.add_parser("shoe", help="monitor or emulate a dealer shoe on a serial port")
    p.set_defaults(func=lambda args: 2)
