"""--quick for every benchmark: the same code path and the same checks on small sizes, a few
seconds, so `make test` (tests/test_benchmarks.py) catches a benchmark that no longer runs."""
import sys

HELP = "a few seconds: small sizes, the same code path and checks (make test runs this)"


def parse(parser, quick, argv=None):
    """parser.parse_args(argv), with `quick`'s sizes as the defaults under --quick (a size
    given on the command line still wins)."""
    parser.add_argument("--quick", action="store_true", help=HELP)
    if "--quick" in (sys.argv[1:] if argv is None else argv):
        parser.set_defaults(**quick)
    return parser.parse_args(argv)
