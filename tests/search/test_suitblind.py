"""The driver of the suit-blind walks (solver/search/suitblind.py): within solve() its verdicts are the reference
search's, and on whole deals it proves losses (in slices, naming more ranks stage by stage) and wins the
real game's walk finds.  (The walk's game itself, held to its plain model and to the reference search, is
in tests/kernels/test_suitblind.py.)"""

import time

import pytest
from corpus import deals
from harness import check_agreement

from solver.game.deals import deal
from solver.game.engine import is_solution
from solver.game.premises import classic
from solver.game.rules import GAMES
from solver.kernels import capacity as C
from solver.kernels import codes
from solver.kernels import suitblind as H
from solver.search import Budget, Schedule, solve
from solver.search.root import Root
from solver.search.suitblind import Walks

CLASSIC = [g for g in GAMES if classic(GAMES[g])]  # the capacity test, walks and beams apply


# solve() with the walk from the first restart on, depth-first runs of 8 positions, and no capacity
# test in the depth-first search (it proves most small deals lost at the root, before any walk).
FORCED_WALKS = Schedule(walks_after=0, run_nodes=8, run_growth="fixed", capacity_nodes=0, streamline_slices=())


@pytest.mark.parametrize("game", CLASSIC)
def test_solve_with_the_walk_agrees_with_the_reference_search(game):
    by_walk = won_by_walk = 0
    for result in check_agreement(deals(f"small/{game}", 100), FORCED_WALKS)["results"]:
        by_walk += result.found_by == "suit-blind"
        won_by_walk += result.found_by == "walk"  # solve() replays every winning line
    assert by_walk >= 5 and won_by_walk >= 5, (by_walk, won_by_walk)


def test_good_measure_82_is_lost_in_the_suit_blind_game():
    """A deal depth-first search alone takes 88 s to prove lost; the walk needs ~100,000 positions."""
    rules = GAMES["good-measure"]
    walks = Walks(Root(deal(rules, 82), rules), 1 << 30)
    walks.advance(time.perf_counter() + 60.0)
    assert walks.status == codes.LOST and walks.meta[H.H_NODES] < 1_000_000


def test_a_walk_in_slices_keeps_to_each_slice_s_capacity_work_and_still_proves_good_measure_82_lost():
    """A slice stops its capacity tests at its work limit (the allowance saved by the depth-first search
    may be large, and one slice spent 0.24 s of a 1 s budget on it); tests cut short only prune less."""
    work_limit, spent = 300, []
    rules = GAMES["good-measure"]
    root = Root(deal(rules, 82), rules, Schedule(walk_chunk_work=work_limit))
    root.capacity_meta[C.C_ALLOWANCE] = 1 << 30  # as after a long depth-first run whose tests gave up little
    walks = Walks(root, 1 << 30)
    while walks.open():
        before = int(root.capacity_meta[C.C_NODES])
        walks.step()
        spent.append(int(root.capacity_meta[C.C_NODES]) - before)
    assert walks.status == codes.LOST
    # A test gives up on the position past its limit, so a slice may count one more.
    assert max(spent) <= work_limit + 1 and sum(n >= work_limit for n in spent) >= 3, (max(spent), len(spent))


def _walk_the_games(game: str, number: int) -> Walks:
    rules = GAMES[game]
    walks = Walks(Root(deal(rules, number), rules), 1 << 30)
    while walks.open():
        walks.advance(time.perf_counter() + 60.0)
    return walks


def test_good_measure_505_is_lost_once_five_ranks_are_named():
    """Its suit-blind game is won; with the suits of Aces to Fives kept, lost (depth-first search: 52 s)."""
    walks = _walk_the_games("good-measure", 505)
    assert walks.stage == 1 and walks.named() == (5, 0) and walks.status == codes.LOST
    assert walks.positions() < 1_000_000


@pytest.mark.slow
def test_good_measure_560_is_lost_once_nines_to_kings_are_named():
    """Its suit-blind game and its game with Aces to Fives named are won; with the suits of Nines to Kings
    kept, lost after about 1.9M positions (the depth-first search: 31 minutes)."""
    walks = _walk_the_games("good-measure", 560)
    assert walks.stage == 2 and walks.named() == (0, 5) and walks.status == codes.LOST
    assert walks.positions() < 2_500_000


def test_good_measure_538_is_won_by_the_walk_of_the_real_game():
    """A deal the depth-first search and beams leave unknown after 60 s; the real game's walk wins it in
    about 50,000 positions, with a line the reference engine replays."""
    walks = _walk_the_games("good-measure", 538)
    rules = GAMES["good-measure"]
    assert walks.won() and walks.named() == (rules.ranks, 0) and walks.positions() < 200_000
    assert is_solution(deal(rules, 538), walks.winning_line(), rules)


@pytest.mark.slow
def test_a_walk_short_of_memory_gives_up_and_the_deal_stays_unknown():
    schedule = Schedule(walks_after=0, walks_memory=1e-3)  # 2 MiB of 2 GiB: room for 45,000 positions
    rules = GAMES["good-measure"]
    result = solve(deal(rules, 82), rules, Budget(seconds=3), schedule=schedule)
    assert result.verdict == "unknown" and result.found_by != "suit-blind" and result.walk_positions > 0
