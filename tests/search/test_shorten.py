"""Shortening keeps a line winning and removes detours, including ones that only permute piles."""

import random

import pytest
from harness import fast_sample

from solver.game.board import parse_board
from solver.game.deals import random_deal
from solver.game.engine import REDEAL, Move, is_solution, reference_search
from solver.game.premises import classic
from solver.game.rules import GAMES
from solver.search.shorten import shorten

# The fast tier's sample: the games whose 150 small deals the reference search and shortening take a second or so.
SHORT = ["bakers-dozen", "good-measure", "spanish-patience", "portuguese-solitaire", "indefatigable", "vineyard"]


@pytest.mark.parametrize("game", fast_sample(list(GAMES), SHORT))
def test_shortened_reference_lines_still_win(game):
    rng = random.Random(f"shorten-{game}")
    shorter = 0
    for _ in range(150):
        rules = GAMES[game].reduced(5, 4)
        board = random_deal(rules, rng)
        line = reference_search(board, rules)
        if line is None:
            continue
        short = shorten(board, line, rules)
        assert is_solution(board, short, rules)
        assert len(short) <= len(line)
        shorter += len(short) < len(line)
    # (The plain shortcuts of the redeal games compare exact positions only: fewer lines get shorter.)
    assert shorter >= (10 if classic(GAMES[game]) else 1), shorter


def test_a_detour_through_redeals_is_cut():
    rules = GAMES["cruel"].reduced(ranks=3, piles=2)
    board = parse_board("Foundations: C-A D-A H-A S-A\n3C 3D 2D 2C\n3S 2S 3H 2H", rules)
    line = [F(0), F(0), F(0), F(0), F(1), F(1), F(1), F(1)]
    detour = [REDEAL, REDEAL, *line]  # piles of four: a redeal gives them back as they were
    assert is_solution(board, detour, rules)
    assert shorten(board, detour, rules) == line


def F(pile):
    return Move(pile, None)


def test_a_detour_is_cut():
    rules = GAMES["spanish-patience"].reduced(ranks=2, piles=3)
    board = parse_board("2C AC\nAD 2H\n2D AH 2S AS")
    direct = [F(0), F(0), F(2), F(2), F(2), F(1), F(1), F(2)]
    assert is_solution(board, direct, rules)
    detour = [Move(0, 1), Move(1, 0), *direct]  # AC onto 2H and back
    assert is_solution(board, detour, rules)
    assert shorten(board, detour, rules) == direct


def test_a_detour_through_a_permuted_position_is_cut_and_the_rest_relabelled():
    rules = GAMES["spanish-patience"].reduced(ranks=2, piles=3)
    board = parse_board("AC\n2C 2D AD\n2H AH 2S AS")
    # 2C, left alone in pile 1, is moved into the empty pile 0: the same position, piles swapped.
    line = [F(0), F(1), F(1), Move(1, 0), F(0), F(2), F(2), F(2), F(2)]
    assert is_solution(board, line, rules)
    assert shorten(board, line, rules) == [F(0), F(1), F(1), F(1), F(2), F(2), F(2), F(2)]


def test_past_the_deadline_the_line_is_kept_as_found():
    rules = GAMES["spanish-patience"].reduced(ranks=2, piles=3)
    board = parse_board("AC\n2C 2D AD\n2H AH 2S AS")
    line = [F(0), F(1), F(1), Move(1, 0), F(0), F(2), F(2), F(2), F(2)]
    assert shorten(board, line, rules, deadline=0.0) == line


@pytest.mark.parametrize("game", ["bakers-dozen", "spanish-patience-ii"])
def test_a_line_cut_short_by_the_deadline_still_wins(game):
    rng = random.Random(f"deadline-{game}")
    rules = GAMES[game].reduced(5, 4)
    for _ in range(40):
        board = random_deal(rules, rng)
        line = reference_search(board, rules)
        if line is not None:
            assert is_solution(board, shorten(board, line, rules, deadline=0.0), rules)
