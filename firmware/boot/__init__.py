# Boot: the board's entries (main, the product image's start), power-up, the self-test, the configuration, the table built from the journal.
