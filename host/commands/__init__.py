# One module per `tapis` subcommand. Each has `register(subparsers)`, which adds its
# parser and sets `func` to the function that runs it and returns the exit code.
