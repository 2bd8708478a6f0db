# The journal's record format, all that its writer (journal.py) and its readers (reader.py,
# played.py, resume.py) share: neither side imports the other. A record
# (docs/protocol.md, "Journal records"):
#
#   4C  LEN_HI LEN_LO  CHK  PAYLOAD (UTF-8 JSON, LEN bytes)  TAG (8 bytes)
#
# CHK = LEN_HI ^ LEN_LO ^ 0x5A guards the length; TAG = the first 8 bytes of
# HMAC-SHA256(K, previous record's TAG + 4C..PAYLOAD), K = mac.derive(device key,
# b"journal"): the records are a chain under a key only the table and its host hold, so
# an edit, a deleted or moved record or game, or a record from another table breaks it
# (JournalError, naming the record). The chain starts at a head record {"k": "h", "d":
# the device's id, "p": [] or the TAG the record after it chains from, as a list of
# bytes}, tagged from 8 zero bytes: "p" [] on a fresh journal (the next record chains
# from the head's own tag); compaction writes a new head, which says where the first
# record kept chains from. Only an incomplete last record, what a power loss during a
# write leaves, is reported as such, for the journal to drop. Truncation at a record
# boundary leaves a sound chain: the host finds it against the last head it verified
# (tapis recall --verify).
#
# A keyed journal is also sealed, so that a board's boot checks it at the speed of SHA-256
# (C code), not of an HMAC a record: before every game's first record and every deal's
# state after the first record, a seal {"k": "z", "h": the SHA-256, in hex, of the tag the
# segment's first record chains from and every byte of its records} closes the segment
# since the last seal (or the head); the seal is a record of the chain like any other.
# The boot hashes every segment and checks each seal's tag, then the tags of the records
# after the last seal only (resume.starts).
#
# Without a device key (host tools, old boards) records are of the unkeyed formats: 4B
# with a 4-byte SHA-256 sum instead of TAG, or 4A (the first format) with a CRC-16. A
# keyed journal refuses them (anyone can write those), and an unkeyed reader refuses 4C
# records.
#
# Payloads, their kind always first ({"k": ...), so that a reader tells them apart by their
# first bytes: {"k": "b", "g": game, "o": options, "n": number, "c": games finished, "s":
# state or null, "e": events, "f": [[address, [seq, session]], ...] the devices' last
# frames} begins a game; {"k": "i", "a": action, "e": events, "f": [address, seq]} is one
# input (from that frame); {"k": "d", "s": state, "f": frames} the state after a deal's end
# (not a game's: "b" has it), at a player's first input; {"k": "v", "n": inputs voided,
# "why": text}; {"k": "e", "n": number} ends a game; {"k": "s", "do": ..., "who": ...} the
# supervisor's and the operator's (recall, configuration); {"k": "z", "h": hex} seals the
# records before it (above).
#
# The first bytes' values (4A, 4B, 4C, 0x5A) are consts in each module that frames or
# walks records (a board's compiler inlines a module's own consts only, and the boot's walk
# is a tight loop); this module, which the board keeps loaded with the writer, holds only
# what both sides must share at run time.


class JournalError(ValueError):
    """The journal is corrupt: the table refuses to resume from it."""
