# Écarté's part of the board's self-test (firmware/games/ecarte/selftest.py): the rules it runs
# at power-up pass on sound rules and name the fault on rules that score or play wrong.
from tapis.firmware.games.ecarte import selftest
from tapis.firmware.games.ecarte.rules import Ecarte


def test_sound_rules_pass():
    assert selftest.run() is None


def test_rules_that_miss_the_turned_king_are_named(monkeypatch):
    class NoKing(Ecarte):
        def score(self, seat, points, reason):
            return False  # nothing scored
    monkeypatch.setattr(selftest, "Ecarte", NoKing)
    assert selftest.run() == "rules: the turned king did not score its point"


def test_rules_that_let_a_card_nobody_holds_be_played_are_named(monkeypatch):
    class Lax(Ecarte):
        def can(self, action):
            return action[0] == "play" or Ecarte.can(self, action)
    monkeypatch.setattr(selftest, "Ecarte", Lax)
    assert selftest.run() == "rules: a card nobody holds was playable"
