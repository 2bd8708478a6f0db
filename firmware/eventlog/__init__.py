# The classified event log: chained and keyed as the journal; opened at power-up, walked back, restarted by a RAM clear.
