"""Cards as small integers, and their text (solver/game/cards.py)."""

import pytest

from solver.game.cards import CardError, card_text, parse_card


def test_card_spellings():
    assert parse_card("TH") == parse_card("10H") == parse_card("10♥") == parse_card("th")
    assert card_text(parse_card("10♠")) == "TS"
    assert card_text(parse_card("AC")) == "AC" and parse_card("AC") == 0
    with pytest.raises(CardError):
        parse_card("1H")
    with pytest.raises(CardError):
        parse_card("QX")
