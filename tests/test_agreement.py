"""The fast solver agrees with the plain exhaustive reference search.

For every rule set, 1,000 random deals on reduced decks (3-6 ranks, 3-5
piles), small enough for the reference to search every position.  Every
`won` is replayed by the reference engine inside ``solve``; here we check
it again, and check that `lost` is only ever said where the reference found
no win, and that both verdicts occur often enough to mean something.
"""

import random

import pytest

from solver import search
from solver.deals import random_deal
from solver.engine import is_solution, reference_search
from solver.rules import GAMES
from solver.search import LOST, WON, Budget, solve

SIZES = [(3, 3), (3, 4), (4, 3), (4, 4), (4, 5), (5, 3), (5, 4), (5, 5), (6, 4)]
DEALS_PER_RULE_SET = 1000


@pytest.mark.parametrize("game", list(GAMES))
def test_solver_agrees_with_reference_search(game):
    rng = random.Random(f"agreement-{game}")
    verdicts = {WON: 0, LOST: 0}
    for i in range(DEALS_PER_RULE_SET):
        ranks, piles = SIZES[i % len(SIZES)]
        rules = GAMES[game].reduced(ranks, piles)
        board = random_deal(rules, rng)
        expected = WON if reference_search(board, rules) is not None else LOST
        result = solve(board, rules, Budget(seconds=None))
        assert result.verdict == expected, f"{game} {ranks}x{piles}\n{board.to_text()}"
        if result.verdict == WON:
            assert is_solution(board, result.moves, rules)
        verdicts[result.verdict] += 1
    assert verdicts[WON] >= 100 and verdicts[LOST] >= 100, verdicts


def test_relaxation_fires_on_lost_deals():
    """The dead-position test must be exercised: many lost deals are proved lost through it."""
    rng = random.Random("relaxation")
    fired = lost = 0
    for i in range(300):
        ranks, piles = SIZES[i % len(SIZES)]
        rules = GAMES["good-measure"].reduced(ranks, piles)
        board = random_deal(rules, rng)
        result = solve(board, rules, Budget(seconds=None))
        if result.verdict == LOST:
            assert reference_search(board, rules) is None
            lost += 1
            fired += result.dead_ends > 0
    assert lost >= 30 and fired >= lost // 2, (lost, fired)


@pytest.mark.parametrize("game", list(GAMES))
def test_restarts_agree_with_reference_search(game, monkeypatch):
    """With a tiny first run, most deals go through several randomized restarts."""
    monkeypatch.setattr(search, "_FIRST_RUN_NODES", 4)
    rng = random.Random(f"restarts-{game}")
    restarted = 0
    for i in range(300):
        ranks, piles = SIZES[i % len(SIZES)]
        rules = GAMES[game].reduced(ranks, piles)
        board = random_deal(rules, rng)
        expected = WON if reference_search(board, rules) is not None else LOST
        result = solve(board, rules, Budget(seconds=None))
        assert result.verdict == expected, f"{game} {ranks}x{piles}\n{board.to_text()}"
        restarted += result.restarts > 0
    assert restarted >= 100, restarted
