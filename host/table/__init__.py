# tapis table's parts: real devices at the table, the host port, a simulated table's identity, why it stopped, the watch.
