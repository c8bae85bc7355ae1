"""The root's capacity test searched to the end (solver/search/capacity.py): within solve() it says lost
only where the reference search does, and it proves lost a whole deal one depth-first run could not."""

import pytest
from corpus import deals
from harness import PLAIN, check_agreement

from solver.game.deals import deal
from solver.game.premises import classic
from solver.game.rules import GAMES
from solver.kernels import capacity as C
from solver.search import Budget, Schedule, solve

CLASSIC = [g for g in GAMES if classic(GAMES[g])]  # the capacity test, walks and beams apply


@pytest.mark.parametrize("game", CLASSIC)
def test_solve_with_the_root_capacity_test_agrees_with_the_reference_search(game):
    """The root's capacity test searched to the end (RootTest), from the first restart on, with
    the depth-first search's own capacity tests cut to one abstract position: where it says lost, so does
    the reference search."""
    # Slices of CAP_DEPTH + 8 abstract positions, which go on where the last stopped.
    schedule = Schedule(
        walks_after=0, run_nodes=8, run_growth="fixed", capacity_nodes=1, root_test_slice=C.CAP_DEPTH + 8
    )
    by_root_test = 0
    for result in check_agreement(deals(f"small/{game}", 300), schedule)["results"]:
        by_root_test += result.found_by == "capacity"
        assert result.found_by != "capacity" or result.verdict == "lost", result
    assert by_root_test >= 10, by_root_test


@pytest.mark.slow
def test_bakers_dozen_6174_is_lost_by_the_root_capacity_test():
    """Unknown after 20 minutes of one depth-first run (79 million positions); its root's abstract game
    is lost after some 220,000 abstract positions."""
    from solver.batch import solve_record

    record = solve_record("bakers-dozen", 6174, Budget(seconds=60), PLAIN)  # (the streamlined search's capacity
    # tests fill the root's cache, so with it the depth-first run ends first, 234,000 positions, lost)
    assert record["verdict"] == "lost" and record["found_by"] == "capacity", record
    assert 100_000 < record["root_test_positions"] < 1_000_000, record


def test_one_run_starts_with_the_root_capacity_test():
    """``one_run`` runs the root's capacity test to the end before its depth-first run, which alone had
    not ended Baker's Dozen 6174 after 79 million positions."""
    rules = GAMES["bakers-dozen"]
    result = solve(deal(rules, 6174), rules, Budget(seconds=60), one_run=True)
    assert result.verdict == "lost" and result.found_by == "capacity" and result.positions == 0, result
    assert 100_000 < result.root_test_positions < 1_000_000, result
    assert result.memory >= 16 << 19, result  # its table, let go at the end, held 223,739 positions
