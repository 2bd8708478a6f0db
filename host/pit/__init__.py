# tapis pit: the tables of a floor, their deal records, meters and events in a database, and a
# live web dashboard (docs/pit.md). The tables are reached through one small interface,
# link.TableLink; floor.py is its implementation for the tables the pit starts itself.
