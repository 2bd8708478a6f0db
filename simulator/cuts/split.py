# A sweep's power cuts split over worker processes (the lab's --every-write, host/lab/memory.py):
# each cut is a run of its own from the seed, so they share nothing; the rows come back in
# the writes' order whatever the workers' speed.
from concurrent.futures import ProcessPoolExecutor


def cut_rows(cut, writes, torn, every, progress, workers):
    """cut(at, torn) at every `every`-th of `writes` writes (torn too: twice each), over
    `workers` processes; the rows in the writes' order, progress(n, total) after each."""
    cuts = [(at, t) for at in range(1, writes + 1, every) for t in ((False, True) if torn else (False,))]
    rows = []
    if not cuts:
        return rows
    ats, torns = zip(*cuts)
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        for row in (pool.map(cut, ats, torns, chunksize=2) if pool is not None else map(cut, ats, torns)):
            rows.append(row)
            if progress is not None:
                progress(len(rows), len(cuts))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return rows
