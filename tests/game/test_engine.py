"""The reference engine follows RULES.md move by move."""

import pytest

from solver.game.board import Board, parse_board
from solver.game.cards import parse_card
from solver.game.engine import (
    REDEAL,
    IllegalMoveError,
    Move,
    apply_move,
    describe_move,
    is_legal,
    is_solution,
    legal_moves,
    redeal_sizes,
    redealt,
    replay,
)
from solver.game.rules import GAMES, UNLIMITED, with_pysolfc

BD, SP, PS = GAMES["bakers-dozen"], GAMES["spanish-patience"], GAMES["portuguese-solitaire"]
# A 2-rank deck: the 2s play the King.
SMALL = {name: GAMES[name].reduced(ranks=2, piles=3) for name in GAMES}
BD2 = GAMES["bakers-dozen-2-decks"]


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def test_tableau_builds_down_by_rank_any_suit():
    board = parse_board("AC 2D\nAD AH\nAS 2S\n2C 2H")
    rules = GAMES["bakers-dozen"].reduced(ranks=2, piles=4)
    assert Move(1, 0) in legal_moves(board, rules)  # AH onto 2D: any suit
    assert Move(1, 2) in legal_moves(board, rules)
    assert Move(0, 2) not in legal_moves(board, rules)  # 2D onto 2S: not down by one
    assert Move(1, None) in legal_moves(board, rules)  # AH to its foundation
    assert Move(0, None) not in legal_moves(board, rules)  # 2D before AD


@pytest.mark.parametrize(
    "game, king_ok, other_ok",
    [("bakers-dozen", False, False), ("spanish-patience", True, True), ("portuguese-solitaire", True, False)],
)
def test_what_an_empty_pile_takes(game, king_ok, other_ok):
    rules = SMALL[game]
    board = parse_board("AC 2C AD\n-\n2D AH 2H AS 2S")
    moves = legal_moves(board, rules)
    assert (Move(0, 1) in moves) == other_ok  # AD to the empty pile
    assert (Move(2, 1) in moves) == king_ok  # 2S (the top rank) to the empty pile


def test_foundation_cards_never_come_back_and_illegal_moves_are_refused():
    rules = SMALL["spanish-patience"]
    board = parse_board("2C AC\n-\n2D AD 2H AH 2S AS")
    after = apply_move(board, Move(0, None), rules)
    assert after.foundations == (1, 0, 0, 0)
    assert all(m.source is not None for m in legal_moves(after, rules))
    with pytest.raises(IllegalMoveError):
        apply_move(board, Move(2, 0), rules)  # AS onto AC
    with pytest.raises(IllegalMoveError):
        apply_move(board, Move(1, 0), rules)  # from an empty pile


def test_replay_checks_every_move():
    rules = SMALL["bakers-dozen"]
    board = parse_board("2C AC\n2D AD 2H\nAH 2S AS")
    # AC, 2C and AS go up; then 2S onto 2H is not down by one: illegal at move 4.
    bad = [Move(0, None), Move(0, None), Move(2, None), Move(2, 1)]
    assert not is_solution(board, bad, rules)
    with pytest.raises(IllegalMoveError, match="move 4"):
        replay(board, bad, rules)
    good = [Move(0, None), Move(0, None), Move(2, None), Move(2, None), Move(2, None), Move(1, None), Move(1, None),
            Move(1, None)]  # fmt: skip
    assert replay(board, good, rules).is_won()
    assert is_solution(board, good, rules)
    assert not is_solution(board, good[:-1], rules)


def test_redeal_reads_the_piles_in_order_and_cuts_them_in_fours():
    """PySolFC's Cruel_Talon.dealCards: each pile from its top down, from the first pile, onto a hidden
    pile; to the talon in packets of four; dealt four to a pile from the first.  A pile of four that
    starts at a multiple of four comes back as it was; the reading order never changes."""
    piles = ((1, 2, 3, 4, 5), (6, 7), (), (8, 9, 10))
    assert redealt(piles) == ((2, 3, 4, 5), (10, 6, 7, 1), (8, 9), ())
    read = [c for p in piles for c in reversed(p)]
    assert [c for p in redealt(piles) for c in reversed(p)] == read
    assert redealt(((1, 2, 3, 4), (5, 6, 7, 8), (9,))) == ((1, 2, 3, 4), (5, 6, 7, 8), (9,))


def test_redeal_gives_the_first_piles_more_when_fours_are_too_few():
    assert redeal_sizes(11, 2) == [6, 5]
    assert redeal_sizes(7, 3) == [4, 3, 0]
    assert [len(p) for p in redealt(((1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11)))] == [6, 5]


def test_redeals_are_counted_and_unlimited_ones_never_run_out():
    rules = GAMES["perseverance"].reduced(ranks=3, piles=2)
    board = parse_board("3C 2C\n3D 2D 2H 3H 2S 3S", rules)
    assert board.redeals == 2 and REDEAL in legal_moves(board, rules)
    once = apply_move(board, REDEAL, rules)
    assert once.redeals == 1 and describe_move(board, REDEAL) == "redeal (1 left)"
    spent = apply_move(once, REDEAL, rules)
    assert spent.redeals == 0 and REDEAL not in legal_moves(spent, rules)
    cruel = GAMES["cruel"].reduced(ranks=3, piles=2)
    board = parse_board("Foundations: C-A D-A H-A S-A\n3C 2C\n3D 2D 2H 3H 2S 3S", cruel)
    assert board.redeals == UNLIMITED
    assert apply_move(apply_move(board, REDEAL, cruel), REDEAL, cruel).redeals == UNLIMITED


def test_runs_move_as_a_unit_only_where_the_rules_say():
    text = "Foundations: C-A D-A H-A S-A\n4C 3C 2C\n5C\n5D 4D 3D 2D"
    per = GAMES["perseverance"].reduced(ranks=5, piles=3)
    board = parse_board(text, per)
    assert Move(0, 1, 3) in legal_moves(board, per)  # 4C 3C 2C onto 5C
    assert Move(0, 1, 2) not in legal_moves(board, per)  # 3C 2C: 3C is not built on 5C
    assert describe_move(board, Move(0, 1, 3)) == "4C 3C 2C from pile 1 onto 5C (pile 2)"
    cruel = GAMES["cruel"].reduced(ranks=5, piles=3)
    assert all(m.count == 1 for m in legal_moves(parse_board(text, cruel), cruel))
    broken = parse_board("Foundations: C-A D-A H-A S-A\n4C 3D 2C\n5C\n5D 4D 3C 2D", per)
    assert Move(0, 1, 3) not in legal_moves(broken, per)  # 3D breaks the suit


def test_building_by_suit_by_colour_and_both_ways():
    ind = GAMES["indefatigable"].reduced(ranks=4, piles=3)
    board = parse_board("Foundations: C-A D-A H-A S-A\n3C\n2C 4C\n2D 3H 4D 2S 3S 4S 2H 4H 3D", ind)
    moves = legal_moves(board, ind)
    assert Move(0, 1) in moves  # 3C onto 4C: down by suit
    assert Move(1, 0) in moves  # 4C onto 3C: up by suit
    rf = GAMES["royal-family"].reduced(ranks=4, piles=3)
    board = parse_board("Foundations: C-4 D-4 H-4 S-4\n2C\n3H AD\n3S 2D AS 2S AH 2H 3D AC 3C", rf)
    moves = legal_moves(board, rf)
    assert Move(0, 2) not in moves  # 2C onto 3C: the same colour
    assert Move(0, 1) in moves  # 2C onto AD: up by alternate colour
    assert Move(2, None) in moves  # 3C to its foundation, which builds down from the King (4 here)


def test_royal_family_foundations_build_down_to_the_ace():
    rf = GAMES["royal-family"].reduced(ranks=2, piles=2)
    board = parse_board("Foundations: C-2 D-2 H-2 S-2\nAC AD\nAH AS", rf)
    assert is_solution(board, [Move(0, None), Move(0, None), Move(1, None), Move(1, None)], rf)
    assert board.to_text().startswith("Foundations: C-2 D-2 H-2 S-2\nRedeals: 1\n")


def test_castles_in_spain_runs_are_as_long_as_the_empty_piles_allow():
    """PySolFC's SuperMoveAC_RowStack with no free cells: 2^k cards with k empty piles, 2^(k-1) into one."""
    castles = GAMES["castles-in-spain"]
    assert [castles.max_run(k, into_space=False) for k in range(4)] == [1, 2, 4, 8]
    assert [castles.max_run(k, into_space=True) for k in range(1, 4)] == [1, 2, 4]
    martha = GAMES["martha"]
    assert martha.max_run(0, into_space=False) == 52 and martha.max_run(3, into_space=True) == 1
    assert GAMES["vineyard"].max_run(5, into_space=False) == 1
    small = castles.reduced(ranks=5, piles=5)
    # Pile 2 is a run of four, each card on the one beneath by alternate colour; pile 4 is empty.
    text = "AC AD AH AS 2C 2H 2S 3D 3H 3S\n5S 4H 3C 2D\n4C 4S 5C\n-\n5D 5H 4D"
    board = parse_board(text, small)
    moves = legal_moves(board, small)
    assert Move(1, 0) in moves and Move(1, 4, 2) in moves  # 2D onto 3S; 3C 2D onto 4D: two with one space
    assert Move(1, 2, 3) not in moves  # 4H 3C 2D onto 5C: three cards need two spaces
    assert Move(1, 3) in moves and Move(1, 3, 2) not in moves  # into the space: one card only
    wider = castles.reduced(ranks=5, piles=6)
    board = parse_board(text + "\n-", wider)
    moves = legal_moves(board, wider)
    assert Move(1, 2, 3) in moves and Move(1, 3, 2) in moves and Move(1, 3, 3) not in moves
    assert describe_move(board, Move(1, 2, 3)) == "4H 3C 2D from pile 2 onto 5C (pile 3)"


def test_face_down_cards_move_in_no_run_and_turn_up_when_uncovered():
    castles = GAMES["castles-in-spain"].reduced(ranks=5, piles=6)
    text = "AC AD AH AS 2C 2H 2S 3D 3H 3S\n5S [4H] 3C 2D\n4C 4S 5C\n-\n5D 5H 4D\n-"
    board = parse_board(text, castles)
    assert board.down == {parse_card("4H")}
    moves = legal_moves(board, castles)
    assert Move(1, 4, 2) in moves and Move(1, 2, 3) not in moves  # 4H is face down: no run holds it
    move = Move(1, 4, 2)
    assert describe_move(board, move) == "3C 2D from pile 2 onto 4D (pile 5), turning up 4H"
    after = apply_move(board, move, castles)
    assert after.down == frozenset() and after.piles[1] == (parse_card("5S"), parse_card("4H"))
    assert "[4H]" in board.to_text() and "[" not in after.to_text()


def test_martha_moves_any_run_onto_a_card_but_one_card_into_a_space():
    martha = GAMES["martha"].reduced(ranks=5, piles=4)
    board = parse_board("Foundations: C-A D-A H-A S-A\n5S 4H 3C 2D\n2C 2H 2S 3D 3H 3S 4C 4S 5C\n-\n5D 5H 4D", martha)
    moves = legal_moves(board, martha)
    assert Move(0, 3, 2) in moves and Move(0, 1, 3) in moves  # onto 4D, onto 5C: any run, with one space
    assert Move(0, 2) in moves and Move(0, 2, 2) not in moves  # a space takes one card


# PySolFC's rules (``with_pysolfc``; docs/pysolfc.md has the classes and lines they come from).


def test_pysolfc_cruel_takes_an_ace_back_and_then_redeals_five_cards_to_the_first_pile():
    """The Aces dealt to Cruel's foundations come back too, each onto the 2 of its suit; a redeal then has
    4P + 1 cards, and Cruel_Talon gives the first pile five, cut from the talon's packets of four."""
    rules = with_pysolfc(GAMES["cruel"]).reduced(ranks=3, piles=2)
    board = parse_board("Foundations: C-A D-A H-A S-A\n3C 3D 3H 2C\n2D 2H 3S 2S", rules).validate(rules)
    backs = {m for m in legal_moves(board, rules) if m.source < 0 and not m.is_redeal}
    assert backs == {Move(-1, 0), Move(-4, 1)}  # AC onto 2C, AS onto 2S; AD's 2 is covered, AH's too
    assert describe_move(board, Move(-1, 0)) == "AC from foundation onto 2C (pile 1)"
    back = apply_move(board, Move(-1, 0), rules)
    assert back.foundations == (0, 1, 1, 1) and back.piles[0][-1] == parse_card("AC")
    cards = "3D 3H 2C AC 2H", "3S 2S 3C 2D"
    assert apply_move(back, REDEAL, rules).piles == tuple(tuple(map(parse_card, p.split())) for p in cards)
    strict = GAMES["cruel"].reduced(ranks=3, piles=2)
    assert not any(m.source < 0 and not m.is_redeal for m in legal_moves(board, strict))


def test_pysolfc_redeal_of_more_than_four_a_pile_scrambles_the_cut():
    """Cruel_Talon.dealCards with more cards than four a pile (as PySolFC's own code does it, run apart)."""
    assert redealt(((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (11, 12, 13, 14))) == (
        (2, 3, 4, 5, 8), (9, 10, 1, 13, 14), (6, 7, 11, 12)
    )  # fmt: skip
    assert redealt(((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12, 13, 14))) == (
        (1, 2, 3, 4, 5), (6, 7, 8, 11, 12), (13, 14, 9, 10)
    )  # fmt: skip


def test_pysolfc_royal_family_gives_back_its_kings_into_a_space_and_builds_both_ways():
    rules = with_pysolfc(GAMES["royal-family"]).reduced(ranks=2, piles=2)
    board = parse_board("Foundations: C-2 D-2 H-2 S-A\n-\nAC AD AH", rules).validate(rules)
    backs = {m for m in legal_moves(board, rules) if m.source < 0 and not m.is_redeal}
    # AS (the spades foundation builds down from its King, 2 here) into the space; each 2 (a King) into the
    # space, and the black ones onto AH (up by alternate colour).
    assert backs == {Move(-4, 0), Move(-1, 0), Move(-2, 0), Move(-3, 0), Move(-1, 1)}
    assert apply_move(board, Move(-4, 0), rules).foundations == (2, 2, 2, 2)
    assert apply_move(board, Move(-1, 1), rules).foundations == (0, 2, 2, 1)


def test_pysolfc_two_decks_give_back_from_either_foundation_of_a_suit_alike():
    rules = with_pysolfc(GAMES["bakers-dozen-2-decks"]).reduced(ranks=2, piles=4)
    board = parse_board("Foundations: C-A C-A\n2C AD 2D AH\n2H AS 2S 2C\nAD 2D AH 2H\nAS 2S", rules).validate(rules)
    assert {Move(-1, 1), Move(-5, 1)} <= set(legal_moves(board, rules))  # an Ace of clubs onto 2C
    assert apply_move(board, Move(-1, 1), rules) == apply_move(board, Move(-5, 1), rules)
    assert apply_move(board, Move(-1, 1), rules).foundations == (1, 0, 0, 0, 0, 0, 0, 0)


def test_pysolfc_spanish_patience_builds_its_foundations_by_alternate_colour_and_passes_cards_between_them():
    """AC_FoundationStack (stack.py 2461-2473): a foundation takes its own suit's Ace, then a card one rank
    higher of the other colour in either suit; a top card may come back, or pass to another foundation
    that takes it; an empty pile takes nothing."""
    rules = with_pysolfc(SP).reduced(ranks=3, piles=3)
    text = "Foundations: C-AC D-AD.2S H-0 S-0\n3D 2C AH\n3H 3C 2H\nAS 2D 3S"
    board = parse_board(text, rules).validate(rules)
    assert board.foundations == (1, 2, 0, 0) and board.to_text() == text + "\n"
    assert set(legal_moves(board, rules)) == {
        Move(0, None, 1, 2),  # AH onto the hearts foundation only
        Move(0, 1),  # AH onto 2H
        Move(1, None, 1, 0),  # 2H onto AC: red on black
        Move(1, 2),  # 2H onto 3S
        Move(-1, 1),  # AC back onto 2H
        Move(-2, 2),  # 2S back onto 3S; AC may not pass to the empty hearts foundation
    }
    up = apply_move(board, Move(0, None, 1, 2), rules)
    assert up.founded[2] == (parse_card("AH"),)
    assert {m for m in legal_moves(up, rules) if m.target is None and m.source == 0} == {Move(0, None, 1, 2)}
    both = parse_board("Foundations: C-AC D-AD.2S H-AH.2C S-AS\n3D\n3H 3C 2H\n2D 3S", rules).validate(rules)
    assert {m for m in legal_moves(both, rules) if m.source == 0} == {Move(0, None, 1, 1), Move(0, None, 1, 2)}
    passing = parse_board("Foundations: C-AC D-AD.2S H-AH S-AS\n3D\n3H 3C 2H\n2C 2D 3S", rules).validate(rules)
    move = Move(-2, None, 1, 2)  # 2S from the diamonds foundation onto AH
    assert {m for m in legal_moves(passing, rules) if m.source < 0 and m.target is None} == {move}
    passed = apply_move(passing, move, rules)
    assert passed.founded[1:3] == ((parse_card("AD"),), (parse_card("AH"), parse_card("2S")))
    assert describe_move(passing, move) == "2S from foundation D to foundation H"
    assert describe_move(board, Move(-2, 2)) == "2S from foundation D onto 3S (pile 3)"


def test_the_second_copy_goes_onto_the_other_foundation():
    rules = BD2.reduced(2, 2)  # A and 2 of each suit, twice: 16 cards
    board = Board((cards("2C 2D 2H 2S AC AC"), cards("2C 2D 2H 2S AD AD AH AH AS AS")), (0,) * 8).validate(rules)
    board = apply_move(board, Move(0, None), rules)
    assert board.foundations[0] == 1 and board.foundations[4] == 0
    board = apply_move(board, Move(0, None), rules)
    assert board.foundations[0] == 1 and board.foundations[4] == 1
    assert not is_legal(board, Move(0, None), rules)  # 2S: no spade is up
    assert Move(0, 1) not in legal_moves(board, rules)  # 2S onto AS: building down only
