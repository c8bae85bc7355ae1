"""Two decks (Unusual, Baker's Dozen (2 decks)): each card twice, two foundations per suit.

The agreement with the reference search on small two-deck deals is in
test_agreement.py (the corpus's small/ and spent/ sets of both games);
here, what is new with two decks: the board text, the foundation moves,
the keys and the moves the kernel skips because two piles are alike.
"""

import numpy as np
import pytest
from harness import PLAIN

from solver.game.board import Board, BoardError, parse_board
from solver.game.cards import parse_card
from solver.game.deals import deal, pysol_shuffle
from solver.game.engine import Move, apply_move, is_legal, legal_moves, reference_search
from solver.game.rules import GAMES
from solver.game.variants import RulesFileError, parse_rules_text
from solver.kernels import codes
from solver.kernels import position as P
from solver.kernels import safe_moves as SM
from solver.kernels.moves import generate_moves
from solver.search import LOST, WON, Budget, solve
from solver.search.arrays import ORDERED_ZOBRIST, kernel_rules, position_keys, state_arrays

BD2 = GAMES["bakers-dozen-2-decks"]
UNUSUAL = GAMES["unusual"]


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def test_shuffle_deals_each_card_twice():
    for number in (1, 31999, 32000, 5_000_000):
        assert sorted(pysol_shuffle(number, decks=2)) == sorted(list(range(52)) * 2)


def test_deals_have_every_card_twice_and_eight_foundations():
    board = deal(UNUSUAL, 3)
    assert board.foundations == (1,) * 8 and [len(p) for p in board.piles] == [4] * 24
    assert sorted(c for p in board.piles for c in p) == sorted(list(range(4, 52)) * 2)
    board = deal(BD2, 3)
    assert board.foundations == (0,) * 8 and [len(p) for p in board.piles] == [4] * 26
    for pile in board.piles:  # Kings at the bottom
        ranks = [c // 4 + 1 for c in pile]
        assert ranks == sorted(ranks, key=lambda r: r != 13)


@pytest.mark.parametrize("game", ["unusual", "bakers-dozen-2-decks"])
def test_board_text_round_trips_with_both_foundations_of_each_suit(game):
    rules = GAMES[game]
    board = deal(rules, 5)
    text = board.to_text(rules)
    assert text.splitlines()[0].startswith("Foundations: C-") and text.splitlines()[0].count("C-") == 2
    assert parse_board(text).validate(rules) == board


def test_a_suit_s_two_foundations_are_kept_higher_first():
    board = parse_board("Foundations: H-2 C-A H-4 S-K S-Q\nKD\n")
    assert board.foundations == (1, 0, 4, 13, 0, 0, 2, 12)
    assert Board((), (0, 0, 2, 12, 1, 0, 4, 13)).foundations == board.foundations
    assert "H-4 H-2" in board.to_text()


def test_the_foundations_line_may_name_a_suit_once_for_two_decks():
    board = deal(BD2, 8)
    lines = board.to_text().splitlines()[1:]
    assert parse_board("\n".join(lines), BD2).validate(BD2) == board


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda t: t.replace("Foundations: C-0 C-0", "Foundations: C-0 C-0 C-A"), "written three times"),
        (lambda t: t.rstrip("\n") + " AS\n", "AS is (in piles|3 times in pile).*two decks: each card twice"),
        (lambda t: t.replace("Foundations: C-0 C-0", "Foundations: C-A C-0"), "foundation C is built to A, but AC"),
    ],
)
def test_two_deck_boards_count_copies(edit, message):
    with pytest.raises(BoardError, match=message):
        parse_board(edit(deal(BD2, 8).to_text())).validate(BD2)


def test_a_missing_copy_is_named():
    board = deal(BD2, 8)
    piles = list(board.piles)
    piles[0] = piles[0][:-1]
    with pytest.raises(BoardError, match="missing card"):
        Board(tuple(piles), board.foundations).validate(BD2)


def test_a_one_deck_board_refuses_two_foundations_of_a_suit():
    text = "Foundations: H-A H-A\n" + "\n".join(deal(GAMES["bakers-dozen"], 1).to_text().splitlines())
    with pytest.raises(BoardError, match="one foundation per suit|two foundations"):
        parse_board(text).validate(GAMES["bakers-dozen"])


def test_the_second_copy_goes_onto_the_other_foundation():
    rules = BD2.reduced(2, 2)  # A and 2 of each suit, twice: 16 cards
    board = Board((cards("2C 2D 2H 2S AC AC"), cards("2C 2D 2H 2S AD AD AH AH AS AS")), (0,) * 8).validate(rules)
    board = apply_move(board, Move(0, None), rules)
    assert board.foundations[0] == 1 and board.foundations[4] == 0
    board = apply_move(board, Move(0, None), rules)
    assert board.foundations[0] == 1 and board.foundations[4] == 1
    assert not is_legal(board, Move(0, None), rules)  # 2S: no spade is up
    assert Move(0, 1) not in legal_moves(board, rules)  # 2S onto AS: building down only


def test_positional_keys_tell_apart_what_pairs_cannot():
    """ "a 6S 5H / b 6S" and "a 6S / b 6S 5H" hold the same (card, card beneath) pairs; keyed by place they
    differ (solver/kernels/position.py, "Hash")."""
    one = Board((cards("KD 6S 5H"), cards("KC 6S")), (0,) * 8)
    two = Board((cards("KD 6S"), cards("KC 6S 5H")), (0,) * 8)
    rules = BD2.reduced(13, 2)

    def key(board, zob):
        piles, heights, _ = state_arrays(board, rules)
        return list(P.position_hash(piles, heights, zob, 0, 0))

    assert key(one, ORDERED_ZOBRIST) == key(two, ORDERED_ZOBRIST)  # why two decks do not key by the card beneath
    assert key(one, position_keys(rules)) != key(two, position_keys(rules))


def test_kernel_moves_skip_a_pile_that_an_earlier_one_equals():
    rules = BD2.reduced(3, 4)  # 24 cards
    piles = (
        cards("3C 2D"),
        cards("3C 2D"),
        cards("3D AC AD 3H 3S 2C 3H 2H"),
        cards("3D AH AS AS AC AD AH 2C 2H 2S 2S 3S"),
    )
    board = Board(piles, (0,) * 8).validate(rules)
    grid, heights, found = state_arrays(board, rules)
    kr = kernel_rules(rules)
    src = np.zeros(codes.MAX_MOVES_PER_NODE, dtype=np.int16)
    dst = np.zeros(codes.MAX_MOVES_PER_NODE, dtype=np.int16)
    meta = np.zeros(codes.META_SIZE, dtype=np.int64)
    scratch = np.zeros(codes.SCRATCH_SIZE, dtype=np.int32)
    n = generate_moves(grid, heights, found, kr, src, dst, 0, scratch, 0, meta, grid.copy(), heights.copy())
    moves = {(int(src[i]), int(dst[i])) for i in range(n)}
    assert moves == {(0, 3), (2, 3)}  # 2D onto 3S from pile 1, not from its twin pile 2; 2H onto 3S
    legal = {(m.source, m.target) for m in legal_moves(board, rules)}
    assert legal == {(0, 3), (1, 3), (2, 3)}


@pytest.mark.parametrize("game", ["unusual", "bakers-dozen-2-decks"])
def test_pysolfc_deals_are_decided_and_replayed(game):
    rules = GAMES[game]
    result = solve(deal(rules, 1), rules, Budget(seconds=60))
    assert result.verdict in (WON, LOST)
    assert result.verdict == LOST or len(result.moves) >= 96


# Found by a search of small two-deck positions: 2H may go up (onto H-A), every foundation is at rank 0 or
# more, so the one-deck rule SAFE_LOW would play it at once; but the other 2H then has no foundation to go
# to while this one's place is still needed, and the position, won, becomes lost.  Hence the two-deck premise
# of solver/kernels/safe_moves.py: both copies of the rank below must be up.
NOT_SAFE_WITH_TWO_DECKS = """Foundations: C-0 C-0 D-0 D-0 H-A H-0 S-A S-A
3C 3S 3D AH 2D 2H
3D 3S 3C 2H 2S
3H AC AD AC 2C
3H 2S 2D AD 2C
"""


def test_the_one_deck_safe_rule_would_lose_a_two_deck_win():
    rules = BD2.reduced(3, 4)
    board = parse_board(NOT_SAFE_WITH_TWO_DECKS, rules).validate(rules)
    assert reference_search(board, rules) is not None
    assert reference_search(apply_move(board, Move(0, None), rules), rules) is None
    grid, heights, found = state_arrays(board, rules)
    assert not SM._safe(grid[0, heights[0] - 1], found, found.min(), codes.SAFE_LOW)  # the premise says no
    assert solve(board, rules, Budget(seconds=None)).verdict == WON


def test_a_hundred_and_four_safe_moves_in_a_row():
    """Every card goes up by safe moves alone: the arrays of safe moves hold all 104 (they held 64, enough for
    one deck; a reviewer found the overflow)."""
    piles = [cards("KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC")]
    piles = [tuple(c + s for c in piles[0]) for s in range(4)] * 2 + [()] * 18
    board = Board(tuple(piles), (0,) * 8).validate(BD2)
    result = solve(board, BD2, Budget(seconds=60), schedule=PLAIN)
    assert result.verdict == WON and len(result.moves) == 104 and result.safe_moves >= 100


def test_two_deck_piles_too_tall_for_the_kernels_are_refused_with_a_message():
    """The kernels key a two-deck card by its place, with 64 places a pile: a board or a rules file that
    would need more is refused up front (found by the reviewer: it ended in a traceback)."""
    board = deal(BD2, 1)
    tall = (tuple(c for p in board.piles[:13] for c in p),) + ((),) * 12 + board.piles[13:]
    with pytest.raises(BoardError, match="pile 1 holds 52 cards; here a pile may hold 50"):
        Board(tall, board.foundations).validate(BD2)
    with pytest.raises(RulesFileError, match="two-deck piles may hold at most 50 cards"):
        parse_rules_text('base = "bakers-dozen-2-decks"\npiles = 2\n', "two-piles")
