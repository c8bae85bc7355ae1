"""The strict probe (solver/search/strict.py): its verdicts agree with the reference search under PySolFC's
rules, its wins are strict wins, and deals that need a card brought back are still won.  (Its premise,
``strict_game``, every strict child a PySolFC child: tests/game/test_premises.py.)"""

import random

import pytest
from corpus import deals
from harness import check_agreement

from solver.game.deals import random_deal
from solver.game.engine import is_solution
from solver.game.rules import GAMES, with_pysolfc
from solver.search import Budget, Schedule, solve
from solver.words import LOST, STRICT, WON

ADDS_ONLY = [g for g in GAMES if g not in ("spanish-patience", "indefatigable")]


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
    result = solve(board, rules, Budget(seconds=None, positions=2000), schedule=Schedule(strict_share=0.5))
    assert result.strict_verdict in (WON, LOST, "unknown") and result.positions <= 2000 + Schedule().chunk_nodes
