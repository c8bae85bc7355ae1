"""The walk kernel (solver/kernels/suitblind.py, ``walk_step``) stopped at every place it may stop: a slice's
end (PAUSED), a full table (TABLE_FULL) and a full stack (STACK_FULL), each taken up again by the driver
(solver/search/suitblind.py), walks to the same end through the same positions as a walk that never stops."""

import pytest

from solver.game.board import parse_board
from solver.game.engine import is_solution
from solver.game.rules import GAMES
from solver.kernels import codes
from solver.search.root import Root
from solver.search.schedule import Schedule
from solver.search.suitblind import Walks

BD_6X4 = GAMES["bakers-dozen"].reduced(ranks=6, piles=4)
BD_5X4 = GAMES["bakers-dozen"].reduced(ranks=5, piles=4)
# Its suit-blind game is won, the game naming its five lowest ranks lost: a walk won, then one lost.
LOST_AT_THE_SECOND_WALK = "6C 4H 3D AC 5C AS\n2S 4D 2D 5D 3H 5S\n6S 6D 3C 4C AH 4S\n6H 5H 2C 2H AD 3S"
WON_BY_THE_REAL_GAME_S_WALK = "5D 5C 2C 3H 3S\n5H 4D 4S 2S AD\n5S AH AS 3D 4H\n2H AC 2D 3C 4C"
# No capacity tests: a slice's capacity work is limited per slice, so with them the number of slices could
# change which positions a test prunes.  Without them the walk is the same whatever its slices.
NO_TESTS = {"walk_capacity_nodes": 0, "capacity_nodes": 0}


def walk(text, rules, schedule, stack_rows=None):
    """The walks of the deal to their end, step by step as ``Walks.advance`` takes them; ``stack_rows``: the
    first walk's stack cut to so many rows.  The walks, and every status a step ended with."""
    walks = Walks(Root(parse_board(text, rules), rules, schedule), 1 << 30)
    if stack_rows is not None:
        walks.stack, walks.trail, walks.path = (
            walks.stack[:stack_rows],
            walks.trail[:stack_rows],
            walks.path[:stack_rows],
        )
    statuses = set()
    while walks.open():
        walks.step()
        statuses.add(int(walks.status))
    return walks, statuses


@pytest.mark.parametrize(
    "text, rules", [(LOST_AT_THE_SECOND_WALK, BD_6X4), (WON_BY_THE_REAL_GAME_S_WALK, BD_5X4)], ids=["lost", "won"]
)
def test_a_walk_stopped_by_every_limit_ends_as_one_never_stopped(text, rules):
    whole, _ = walk(text, rules, Schedule(**NO_TESTS))
    # Slices of 3 positions, a table of 16 slots (11 entries) that must double at once, a stack with room
    # for one position's children (9 a pile) and two more rows.
    stopped, statuses = walk(text, rules, Schedule(walk_chunk=3, walk_first_slots=16, **NO_TESTS), 2 + 9 * 4)
    assert {codes.PAUSED, codes.TABLE_FULL, codes.STACK_FULL} <= statuses
    assert not stopped.gave_up and not whole.gave_up
    assert (stopped.lost(), stopped.won(), stopped.stage) == (whole.lost(), whole.won(), whole.stage)
    assert stopped.lost() or stopped.won()
    assert stopped.positions() == whole.positions() > 100
    if whole.won():
        assert stopped.winning_line() == whole.winning_line()
        assert is_solution(parse_board(text, rules), stopped.winning_line(), rules)
