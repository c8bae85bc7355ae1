"""The strict probe (solver/search/strict.py) and its premise, ``strict_game`` (solver/game/premises.py):
where PySolFC's rules only add moves to the strict ones, every strict child is a PySolFC child, so a
strict win is a PySolFC win; the probe's verdicts agree with the reference search under PySolFC's rules."""

import random

import pytest
from corpus import PYSOLFC_SIZES, deals
from harness import check_agreement

from solver.game.deals import random_deal
from solver.game.engine import apply_move, is_solution, legal_moves
from solver.game.premises import strict_game
from solver.game.rules import GAMES, with_pysolfc, with_worrying_back
from solver.search import Budget, Schedule, solve
from solver.words import LOST, STRICT, WON

ADDS_ONLY = [g for g in GAMES if g not in ("spanish-patience", "indefatigable")]


def test_the_strict_game_exists_where_pysolfc_only_adds_moves():
    assert [g for g in GAMES if strict_game(with_pysolfc(GAMES[g])) is not None] == ADDS_ONLY
    for game in ADDS_ONLY:
        assert strict_game(with_pysolfc(GAMES[game])) == GAMES[game]
        assert strict_game(GAMES[game]) is None  # the strict rules have no stricter game
    assert strict_game(with_worrying_back(GAMES["bakers-dozen"])) is None  # not PySolFC's: a variant
    reduced = strict_game(with_pysolfc(GAMES["ripple-fan"]).reduced(4, 3))
    assert (reduced.ranks, reduced.piles, reduced.worrying_back, reduced.sequence_moves) == (4, 3, False, False)


def _positions(game: str, count: int, seed: int):
    """Positions of small deals of ``game`` reached by random strict moves, with both rule sets."""
    rng = random.Random(seed)
    for i in range(count):
        ranks, piles = PYSOLFC_SIZES[game][i % len(PYSOLFC_SIZES[game])]
        pysolfc = with_pysolfc(GAMES[game]).reduced(ranks, piles)
        strict = strict_game(pysolfc)
        board = random_deal(strict, rng)
        for _ in range(rng.randint(0, 12)):
            yield strict, pysolfc, board
            moves = legal_moves(board, strict)
            if not moves:
                break
            board = apply_move(board, rng.choice(moves), strict)


@pytest.mark.parametrize("game", ADDS_ONLY)
def test_every_strict_child_is_a_pysolfc_child(game):
    checked = 0
    for strict, pysolfc, board in _positions(game, 40, seed=hash(game) % 1000):
        strict_moves, pysolfc_moves = legal_moves(board, strict), legal_moves(board, pysolfc)
        assert set(strict_moves) <= set(pysolfc_moves), (game, board.to_text())
        for move in strict_moves:
            assert apply_move(board, move, strict) == apply_move(board, move, pysolfc), (game, move)
        checked += len(strict_moves)
    assert checked > 100, checked


@pytest.mark.parametrize("game", ["bakers-dozen", "good-measure", "cruel", "ripple-fan", "perseverance", "martha"])
def test_solves_with_the_strict_probe_keep_the_reference_verdict_under_pysolfc_rules(game):
    counts = check_agreement(deals(f"pysolfc/{game}", 80))
    found = [r.found_by for r in counts["results"]]
    assert STRICT in found, set(found)
    for result in counts["results"]:
        assert result.strict_verdict in (WON, LOST, "unknown")
        if result.found_by == STRICT:
            assert result.verdict == WON and result.strict_verdict == WON


def test_a_deal_that_needs_a_card_brought_back_is_still_won_and_not_by_the_probe():
    needs_back = [
        (strict, pysolfc)
        for strict, pysolfc in zip(deals("pysolfc-strict/cruel"), deals("pysolfc/cruel"), strict=True)
        if pysolfc.won and not strict.won and strict.board == pysolfc.board
    ]
    assert needs_back, "the corpus has Cruel deals that only PySolFC's rules win"
    for _, d in needs_back[:10]:
        result = solve(d.board, d.rules, Budget(seconds=None))
        assert result.verdict == WON and result.found_by != STRICT and result.strict_verdict == LOST
        assert is_solution(d.board, result.moves, d.rules)
        assert any(move.source < 0 for move in result.moves), "a card comes back from a foundation"


def test_no_share_no_probe_and_the_same_verdicts():
    off = Schedule(strict_share=0.0)
    rules = with_pysolfc(GAMES["bakers-dozen"])
    board = random_deal(rules.reduced(5, 4), random.Random(5))
    on_result = solve(board, rules.reduced(5, 4), Budget(seconds=None))
    off_result = solve(board, rules.reduced(5, 4), Budget(seconds=None), schedule=off)
    assert on_result.verdict == off_result.verdict and off_result.strict_verdict == ""
    with pytest.raises(ValueError, match="strict_share"):
        Schedule(strict_share=1.0)


def test_the_probe_takes_its_share_of_a_positions_budget():
    rules = with_pysolfc(GAMES["good-measure"])
    board = random_deal(GAMES["good-measure"], random.Random(3))
    result = solve(board, rules, Budget(seconds=None, states=2000), schedule=Schedule(strict_share=0.5))
    assert result.strict_verdict in (WON, LOST, "unknown") and result.states <= 2000 + Schedule().chunk_nodes
