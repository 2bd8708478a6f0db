# Host tools: the `tapis` CLI, serial ports, flashing, the shoe tool and recall.
