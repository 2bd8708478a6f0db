# The meters beside the journal: the holder the journal tells of each record, the tally and its two keyed copies.
