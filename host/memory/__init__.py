# A table's critical memory read on the host: the journal's games, the meters, the event log and its words.
