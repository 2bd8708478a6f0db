# Where the Monte Carlo's chunks run: here, in worker processes, or on a Dask distributed
# scheduler. Whatever the place, the results come back in chunk order, and only a bounded
# window of chunks is in flight, so a run of any length holds a few chunks in memory
# (the jobs are a generator, never a list).
#
# Interrupting: the workers ignore SIGINT (a Ctrl-C at the terminal reaches the whole
# process group); the parent's KeyboardInterrupt terminates them, with further Ctrl-Cs
# ignored while it does, so the parent never waits on a worker and none outlives it. On
# Linux a worker also dies with its parent should the parent be killed outright.
import multiprocessing
import signal
import sys
import threading
from collections import deque

WINDOW = 4  # chunks in flight per worker


def max_workers():
    """The most worker processes a run may ask for: four per CPU."""
    import os

    return 4 * (os.cpu_count() or 1)


def inline(task, jobs):
    for k, n in jobs:
        yield n, task(k, n)


def _worker_start():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _context():
    methods = multiprocessing.get_all_start_methods()
    # no fork: the parent may run a progress bar's thread; forkserver starts quickly
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class _Calm:
    """Ctrl-C ignored while the workers are being stopped (main thread only)."""

    def __enter__(self):
        self.old = None
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGINT, signal.SIG_IGN)

    def __exit__(self, *exc):
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)


def processes(task, jobs, workers):
    """task(k, n) on `workers` processes; task must be picklable (a module-level function
    or a functools.partial of one)."""
    pool = _context().Pool(workers, initializer=_worker_start)
    ok = False
    try:
        pending = deque()
        jobs = iter(jobs)
        for k, n in jobs:
            pending.append((n, pool.apply_async(task, (k, n))))
            if len(pending) >= WINDOW * workers:
                break
        while pending:
            n, res = pending.popleft()
            while not res.ready():
                res.wait(0.25)
            got = res.get()
            for k, m in jobs:
                pending.append((m, pool.apply_async(task, (k, m))))
                break
            yield n, got
        ok = True
    finally:
        with _Calm():
            if ok:
                pool.close()
            else:
                pool.terminate()
            pool.join()


def dask(task, jobs, scheduler):
    """task(k, n) on the workers of the Dask scheduler at `scheduler`."""
    from distributed import Client

    with Client(scheduler, timeout=10) as client:
        window = max(8, WINDOW * sum(client.nthreads().values()))
        pending = deque()
        jobs = iter(jobs)
        try:
            for k, n in jobs:
                pending.append((n, client.submit(task, k, n, pure=False)))
                if len(pending) >= window:
                    break
            while pending:
                n, fut = pending.popleft()
                got = fut.result()
                for k, m in jobs:
                    pending.append((m, client.submit(task, k, m, pure=False)))
                    break
                yield n, got
        finally:
            if pending:
                with _Calm():
                    client.cancel([f for _n, f in pending])
