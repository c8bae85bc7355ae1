"""Deals reproduce PySolFC's layouts (solver/game/deals.py): each game's hook on the shuffle -- Kings to the
bottom, Aces founded, cards dealt last -- game by game, and a valid board for every game.  (The shuffle
itself, number by number, is in test_deals_numbers.py.)"""

import json
from pathlib import Path

import pytest

from solver.game.board import Board
from solver.game.cards import card_text, make_card
from solver.game.deals import deal, kings_to_bottom, pysolfc_layout
from solver.game.rules import GAMES

BD = GAMES["bakers-dozen"]
GM = GAMES["good-measure"]
BD2 = GAMES["bakers-dozen-2-decks"]
UNUSUAL = GAMES["unusual"]


def test_bakers_dozen_kings_are_all_at_the_bottom():
    for number in range(1, 500):
        for pile in deal(BD, number).piles:
            ranks = [c // 4 + 1 for c in pile]
            kings = ranks.count(13)
            assert all(r == 13 for r in ranks[:kings]), (number, ranks)


def test_spanish_patience_deals_like_bakers_dozen():
    for number in (1, 7, 40000):
        assert deal(GAMES["spanish-patience"], number).piles == deal(BD, number).piles


# Layouts pinned from this implementation of PySolFC's hooks
# (pysollib/games/bakersdozen.py: GoodMeasure._shuffleHook, PortugueseSolitaire).
GOOD_MEASURE_1 = """Foundations: C-0 D-A H-0 S-A
6H 8S 7S JS 9C
2H 6D 4D QD 6S
KC 7D AC 9D 5H
KD JH 4H TC 7C
KS 2C QH 2S 7H
8C 8H TS 3H 5D
3D TH 5C 6C JC
KH 4S 4C QC 9H
QS TD 3C 5S 2D
8D 3S AH 9S JD
"""

GOOD_MEASURE_2_PYSOLFC = """Foundations: C-A D-0 H-A S-0
JH AD 4H 6C JD
TH 3H 6S 8C 4D
5S 2H 7C JC 5C
AS 9H KD TD 3S
7D TS 9D 9C 2C
KH KS 7S 2D 4C
8D 2S QH 6D 3C
5H TC 5D QS 7H
3D 9S 4S 6H QC
KC 8H 8S JS QD
"""

PORTUGUESE_1 = """JD QC TS 7D
2D KH QH 6D
9H 3H 4H 8S
JC 2S AC 8D
5D KS 4D QS
7H 9D 7S 6C
7C QD 3S 3D
5H JS TD 8C
KD AS 4S TC
KC AH TH 6S
9S 3C 8H 9C
5S 4C 2C 2H
AD 5C JH 6H
"""


def test_good_measure_pinned_layout():
    assert deal(GM, 1).to_text() == GOOD_MEASURE_1
    assert deal(GM, 1).note == ""


def test_good_measure_king_above_a_card_is_slid_down_and_said():
    raw = pysolfc_layout(GM, 2)
    assert raw.to_text() == GOOD_MEASURE_2_PYSOLFC
    fixed = deal(GM, 2)
    assert fixed.piles[3] == (raw.piles[3][2], raw.piles[3][0], raw.piles[3][1], *raw.piles[3][3:])
    assert fixed.piles[3][0] // 4 == 12  # the King KD is now the bottom card
    assert "pile 4" in fixed.note and "King" in fixed.note
    assert [p for i, p in enumerate(fixed.piles) if i != 3] == [p for i, p in enumerate(raw.piles) if i != 3]


def test_good_measure_founds_two_aces_and_deals_fifty():
    for number in range(1, 200):
        board = deal(GM, number)
        assert sorted(board.foundations) == [0, 0, 1, 1]
        assert [len(p) for p in board.piles] == [5] * 10


def test_portuguese_pinned_layout_keeps_kings_where_they_fall():
    board = deal(GAMES["portuguese-solitaire"], 1)
    assert board.to_text() == PORTUGUESE_1
    assert deal(GAMES["spanish-patience-ii"], 1).piles == board.piles


def test_kings_to_bottom_keeps_king_order():
    board = Board(((0, 48, 5, 51), (1,)))
    assert kings_to_bottom(board, 13).piles == ((48, 51, 0, 5), (1,))


# Layouts of PySolFC's own code (its pysolrandom shuffle and each game's _shuffleHook from
# pysollib/games/bakersdozen.py and pysollib/game/__init__.py, run on PySolFC's August 2026 sources,
# then dealt in rows from the talon's end as its startGame does): pinned for the redeal games, Castles in
# Spain, Martha and Vineyard (whose last two cards go to piles 1 and 2); and for the two-deck games, whose
# 104 cards PySolFC shuffles deck by deck in suit and rank order, with no rank-major rearrangement.
PYSOLFC_LAYOUTS = json.loads((Path(__file__).parent.parent / "pysolfc_layouts.json").read_text())


@pytest.mark.parametrize("key", sorted(PYSOLFC_LAYOUTS))
def test_family_games_deal_as_pysolfc(key):
    game, number = key.split()
    board = deal(GAMES[game], int(number))
    want = PYSOLFC_LAYOUTS[key]
    assert [" ".join(card_text(c) for c in p) for p in board.piles] == want["piles"]
    founded = sorted(card_text(make_card(top, i % 4)) for i, top in enumerate(board.foundations) if top)
    assert founded == sorted(want["foundations"])
    assert board.redeals == GAMES[game].redeals
    rows = GAMES[game].face_down_rows  # PySolFC's startGame flips: these rows face down, but a pile's top card
    assert board.down == {c for p in board.piles for i, c in enumerate(p[:-1]) if i in rows}


def test_royal_family_founds_the_kings_and_cruel_the_aces():
    assert deal(GAMES["royal-family"], 5).foundations == (13, 13, 13, 13)
    assert deal(GAMES["cruel"], 5).foundations == (1, 1, 1, 1)
    assert deal(GAMES["ripple-fan"], 5).foundations == (0, 0, 0, 0)
    assert [len(p) for p in deal(GAMES["ripple-fan"], 5).piles] == [4] * 13


def test_vineyard_gives_piles_1_and_2_six_cards_and_martha_founds_the_aces():
    assert [len(p) for p in deal(GAMES["vineyard"], 9).piles] == [6, 6] + [5] * 8
    assert deal(GAMES["martha"], 9).foundations == (1, 1, 1, 1)
    assert len(deal(GAMES["castles-in-spain"], 9).down) == 39 and len(deal(GAMES["martha"], 9).down) == 24


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_s_deals_are_valid_boards(name):
    """deal() leaves validation to solve(), which checks every board it is given: here, that a deal of
    each game holds its whole deck, once (twice with two decks), with its foundations as founded."""
    rules = GAMES[name]
    for number in (1, 2, 3, 617, 31999, 32000, 123456):
        board = deal(rules, number)
        assert board.validate(rules) == board  # validate() raises BoardError at the first fault


def test_deals_have_every_card_twice_and_eight_foundations():
    board = deal(UNUSUAL, 3)
    assert board.foundations == (1,) * 8 and [len(p) for p in board.piles] == [4] * 24
    assert sorted(c for p in board.piles for c in p) == sorted(list(range(4, 52)) * 2)
    board = deal(BD2, 3)
    assert board.foundations == (0,) * 8 and [len(p) for p in board.piles] == [4] * 26
    for pile in board.piles:  # Kings at the bottom
        ranks = [c // 4 + 1 for c in pile]
        assert ranks == sorted(ranks, key=lambda r: r != 13)
