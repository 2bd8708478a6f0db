# The journal: its store and record format, the writer, the readers (records, games played, the resume at boot).
