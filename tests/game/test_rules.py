"""The games as data (solver/game/rules.py): PySolFC's rules of each game, and the most cards a two-deck
pile may hold."""

import pytest

from solver.game.board import Board, BoardError
from solver.game.deals import deal
from solver.game.rules import GAMES, UnsupportedPysolfcError, with_pysolfc
from solver.game.variants import RulesFileError, parse_rules_text

BD2 = GAMES["bakers-dozen-2-decks"]


def test_two_deck_piles_too_tall_for_the_kernels_are_refused_with_a_message():
    """The kernels key a two-deck card by its place, with 64 places a pile: a board or a rules file that
    would need more is refused up front (found by the reviewer: it ended in a traceback)."""
    board = deal(BD2, 1)
    tall = (tuple(c for p in board.piles[:13] for c in p),) + ((),) * 12 + board.piles[13:]
    with pytest.raises(BoardError, match="pile 1 holds 52 cards; here a pile may hold 50"):
        Board(tall, board.foundations).validate(BD2)
    with pytest.raises(RulesFileError, match="two-deck piles may hold at most 50 cards"):
        parse_rules_text('base = "bakers-dozen-2-decks"\npiles = 2\n', "two-piles")


def test_pysolfc_lets_every_foundation_but_indefatigable_s_give_cards_back():
    for name, rules in GAMES.items():
        pysolfc = with_pysolfc(rules)
        assert pysolfc.worrying_back == (name != "indefatigable"), name
        assert pysolfc.sequence_moves == (rules.sequence_moves or name == "ripple-fan"), name
        assert pysolfc.foundations_alternate == (name == "spanish-patience"), name
        assert pysolfc.name == f"{name}-pysolfc" and pysolfc.digest() != rules.digest()
        spaces = "none" if name == "spanish-patience" else rules.empty_pile  # BakersDozen's rows: NO_RANK
        assert (pysolfc.piles, pysolfc.build, pysolfc.empty_pile, pysolfc.redeals) == (
            rules.piles, rules.build, spaces, rules.redeals
        )  # fmt: skip
    with pytest.raises(UnsupportedPysolfcError, match="fifteen named games"):
        with_pysolfc(GAMES["bakers-dozen"].reduced(ranks=5, piles=4))
