# `tapis play`: a person at one seat of the emulated table, in a full-screen terminal UI.
# seats: the person's panel and the paced bots; table: the table stepped by the UI;
# ecarte/piquet/club: what each game's seat display shows, its keys and hints;
# events: the table display's public events as lines; app: the Textual app.
