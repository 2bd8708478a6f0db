# Power cuts at every write: the meters' oracle (metersums) and the sweeps of every game (cutsweep, cutvboard).
