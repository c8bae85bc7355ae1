"""The fast solver agrees with the plain exhaustive reference search.

For every rule set, 1,000 random deals on reduced decks (3-6 ranks, 3-5
piles), small enough for the reference to search every position.  Every
`won` is replayed by the reference engine inside ``solve``; here we check
it again, and check that `lost` is only ever said where the reference found
no win, and that both verdicts occur often enough to mean something.
"""

import random
from dataclasses import replace

import pytest

from solver.game.deals import random_deal
from solver.game.engine import is_solution, reference_search
from solver.game.rules import GAMES, with_worrying_back
from solver.search import LOST, WON, Budget, Schedule, solve

SIZES = [(3, 3), (3, 4), (4, 3), (4, 4), (4, 5), (5, 3), (5, 4), (5, 5), (6, 4)]
DEALS_PER_RULE_SET = 1000


def check_agreement(game: str, deals: int, seed: str, schedule: Schedule | None = None, one_run: bool = False) -> dict:
    """Solve ``deals`` random reduced deals both ways; assert agreement; count verdicts, restarts, beam wins."""
    rng = random.Random(seed)
    counts = {WON: 0, LOST: 0, "restarted": 0, "by beam": 0}
    for i in range(deals):
        ranks, piles = SIZES[i % len(SIZES)]
        rules = GAMES[game].reduced(ranks, piles)
        board = random_deal(rules, rng)
        expected = WON if reference_search(board, rules) is not None else LOST
        result = solve(board, rules, Budget(seconds=None), schedule=schedule, one_run=one_run)
        assert result.verdict == expected, f"{game} {ranks}x{piles}\n{board.to_text()}"
        if result.verdict == WON:
            assert is_solution(board, result.moves, rules)
        counts[result.verdict] += 1
        counts["restarted"] += result.restarts > 0
        counts["by beam"] += result.found_by == "beam"
    return counts


@pytest.mark.parametrize("game", list(GAMES))
def test_solver_agrees_with_reference_search(game):
    counts = check_agreement(game, DEALS_PER_RULE_SET, f"agreement-{game}")
    assert counts[WON] >= 100 and counts[LOST] >= 100, counts


def lost_deals(game: str, size: tuple[int, int], deals: int, seed: str, schedule: Schedule):
    """The random deals of this size that the solver proves lost, each checked by the reference search."""
    rng = random.Random(seed)
    rules = GAMES[game].reduced(*size)
    for _ in range(deals):
        board = random_deal(rules, rng)
        result = solve(board, rules, Budget(seconds=None), schedule=schedule)
        if result.verdict == LOST:
            assert reference_search(board, rules) is None, board.to_text()
            yield result


@pytest.mark.parametrize("game", ["good-measure", "portuguese-solitaire"])
def test_relaxation_fires_on_lost_deals(game):
    """The relaxation of solver/kernels/position.py alone (the capacity test off) proves positions lost."""
    no_capacity = Schedule(capacity_nodes=0)
    results = [r for i, size in enumerate(SIZES) for r in lost_deals(game, size, 40, f"relax-{game}-{i}", no_capacity)]
    fired = sum(r.dead_ends > 0 for r in results)
    assert len(results) >= 30 and fired >= len(results) // 2, (len(results), fired)


@pytest.mark.parametrize("game, size", [("good-measure", (7, 5)), ("bakers-dozen", (6, 5))])
def test_lone_card_rule_fires_on_lost_deals(game, size):
    """Larger reduced deals, where lost deals need a real search and the lone-card rule cuts moves in it.
    (The capacity test, off here, proves most of them lost at the root.)"""
    results = list(lost_deals(game, size, 100, "lone-2", Schedule(capacity_nodes=0)))
    assert sum(r.lone_prunes > 0 for r in results) >= 2, len(results)


@pytest.mark.parametrize("game", list(GAMES))
def test_restarts_agree_with_reference_search(game):
    """With a tiny first run, most deals go through several randomized restarts."""
    counts = check_agreement(game, 300, f"restarts-{game}", Schedule(run_nodes=4))
    assert counts["restarted"] >= 100, counts


@pytest.mark.parametrize("game", ["bakers-dozen", "good-measure"])
def test_one_run_agrees_with_reference_search(game):
    """``one_run``: one depth-first run to the end, even where the default would have restarted
    (a tiny first run here), with no beam and no walk."""
    schedule = Schedule(run_nodes=4, beam_first_after=16, walks_after=16)
    counts = check_agreement(game, 300, f"one-run-{game}", schedule, one_run=True)
    assert counts[WON] >= 30 and counts[LOST] >= 30, counts
    assert counts["restarted"] == 0 and counts["by beam"] == 0, counts


@pytest.mark.parametrize("game", ["bakers-dozen", "good-measure"])
def test_many_piles_agree_with_reference_search(game):
    """Rules-file variants may have up to 32 piles: the kernel's per-pile scratch must hold them all.

    (Games where spaces can be filled are left out: with this many piles the
    reference search, which tells piles apart, rarely finishes.)"""
    rng = random.Random(f"many-piles-{game}")
    compared = 0
    for i in range(30):
        ranks, piles = [(7, 17), (8, 20), (8, 32)][i % 3]
        rules = GAMES[game].reduced(ranks, piles)
        board = random_deal(rules, rng)
        try:
            expected = WON if reference_search(board, rules, max_states=20_000) is not None else LOST
        except RuntimeError:  # too big for the reference: not a comparison
            continue
        assert solve(board, rules, Budget(seconds=None)).verdict == expected, f"{game} {ranks}x{piles}"
        compared += 1
    assert compared >= 15


# Where spaces take cards, the reference search of exact positions takes minutes even on
# small decks with worrying back; Spanish Patience II stands for those games, on its smallest size.
WORRY_SIZES = {
    "bakers-dozen": [(3, 3), (3, 4), (4, 3), (4, 4)],
    "good-measure": [(3, 3), (3, 4), (4, 3), (4, 4)],
    "spanish-patience-ii": [(3, 3)],
}


@pytest.mark.parametrize("game", list(WORRY_SIZES))
def test_worrying_back_agrees_with_reference_search(game):
    """No safe moves, no lone-card rule, founded cards as hosts in the relaxation: still exact."""
    rng = random.Random(f"worry-{game}")
    rules = with_worrying_back(GAMES[game])
    counts = {WON: 0, LOST: 0, "compared": 0, "worried": 0, "dead": 0}
    for i in range(200 if game != "spanish-patience-ii" else 60):
        size = WORRY_SIZES[game][i % len(WORRY_SIZES[game])]
        small = rules.reduced(*size)
        board = random_deal(small, rng)
        try:
            expected = WON if reference_search(board, small, max_states=20_000) is not None else LOST
        except RuntimeError:
            continue
        result = solve(board, small, Budget(seconds=None))
        assert result.verdict == expected, f"{game} {size}\n{board.to_text()}"
        counts[result.verdict] += 1
        counts["compared"] += 1
        counts["worried"] += any(move.source < 0 for move in result.moves)
        counts["dead"] += result.verdict == LOST and result.dead_ends > 0
    assert counts["compared"] >= 40 and counts[WON] >= 10 and counts[LOST] >= 5 and counts["dead"] >= 3, counts
    if game != "spanish-patience-ii":
        assert counts["worried"] >= 5, counts


def test_worrying_back_wins_a_deal_that_is_otherwise_lost():
    """Some lost 5-rank Baker's Dozen deals are won once a card may come back from its foundation."""
    rng = random.Random("worry-only")
    plain = GAMES["bakers-dozen"].reduced(5, 4)
    worry = with_worrying_back(plain)
    for _ in range(2000):
        board = random_deal(plain, rng)
        if solve(board, plain, Budget(seconds=None)).verdict == LOST:
            result = solve(board, worry, Budget(seconds=None))
            if result.verdict == WON:
                assert reference_search(board, plain) is None
                assert is_solution(board, result.moves, worry) and not is_solution(board, result.moves, plain)
                assert any(move.source < 0 for move in result.moves)
                return
    pytest.fail("no deal in 2,000 is won only by worrying back")


def test_random_variants_agree_with_reference_search():
    """What rules files can ask for, mixed at random: deck size, piles, founded Aces, Kings, spaces, worrying back."""
    rng = random.Random("variants")
    counts = {WON: 0, LOST: 0}
    while counts[WON] + counts[LOST] < 100:
        ranks, aces = rng.randint(2, 5), rng.choice([0, 0, 1, 2])
        rules = replace(
            GAMES["bakers-dozen"],
            aces_founded=aces,
            kings_to_bottom=rng.random() < 0.5,
            empty_pile=rng.choice(["none", "any", "king"]),
            worrying_back=rng.random() < 0.3,
        ).reduced(ranks, rng.randint(2, min(7, 4 * ranks - aces)))
        board = random_deal(rules, rng)
        try:
            expected = WON if reference_search(board, rules, max_states=20_000) is not None else LOST
        except RuntimeError:
            continue
        assert solve(board, rules, Budget(seconds=None)).verdict == expected, f"{rules}\n{board.to_text()}"
        counts[expected] += 1
    assert counts[LOST] >= 20, counts
