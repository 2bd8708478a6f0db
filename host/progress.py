# Progress bars for long runs, the one way every command draws them: on stderr, with rich,
# only when stderr is a terminal and the user did not ask for --quiet; the rate and the
# time left in the unit the user asked for (deals, rounds, files, games...).
import sys
from contextlib import contextmanager


@contextmanager
def progress(total, unit, quiet=False, stream=None):
    """`with progress(n, "deals") as advance: ... advance(k)` (`advance(k, total=m)` once the real
    total is known). A no-op off a terminal."""
    stream = stream or sys.stderr
    if quiet or not getattr(stream, "isatty", lambda: False)():
        yield lambda k=1, total=None: None
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    columns = (BarColumn(), MofNCompleteColumn(), TextColumn(unit),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("left"),
               TimeRemainingColumn())
    with Progress(*columns, console=Console(file=stream), transient=False) as bar:
        task = bar.add_task(unit, total=total, rate="")

        def advance(k=1, total=None):  # total: once the real count is known
            if total is not None:
                bar.update(task, total=total)
            bar.advance(task, k)
            speed = bar.tasks[0].speed
            if speed:
                bar.update(task, rate="%.0f %s/s" % (speed, unit))

        yield advance
