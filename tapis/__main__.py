# `python -m tapis` is the `tapis` command.
import sys

from tapis.host.cli import main

sys.exit(main())
