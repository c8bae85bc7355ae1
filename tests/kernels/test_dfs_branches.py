"""The depth-first search kernel (solver/kernels/dfs.py, ``search``) stopped by a full component stack
(SCC_FULL): the driver (solver/search/dfs.py) grows the stack and the search goes on from where it stopped,
to the same verdict through the same positions, with the same lost marks and the same winning line."""

import numpy as np
import pytest

from solver.game.board import parse_board
from solver.game.engine import is_solution
from solver.game.rules import GAMES
from solver.kernels import codes
from solver.search.dfs import DepthFirst
from solver.search.result import Budget
from solver.search.root import Root
from solver.search.schedule import Schedule

BD_6X4 = GAMES["bakers-dozen"].reduced(ranks=6, piles=4)
WON = "6C 6S 3H 5H 3S 3C\nAD 4D 3D 2D 4H AS\n6H 2C AC 5C 5D 2S\n6D 5S 4S 2H AH 4C"  # 170 positions, 144 closed
LOST = "6C 3H 5D AC 4D 3D\n6S 6D 3C 4C 3S 2D\n6H AH 2S 5C 5S AD\n2H AS 4H 2C 4S 5H"  # 470 positions, 443 closed


def search(text, scc_entries=None):
    """One depth-first run to its verdict; ``scc_entries``: the component stack's size to start with.  No
    capacity tests: the driver grows their cache between slices, which more slices would change."""
    root = Root(parse_board(text, BD_6X4), BD_6X4, Schedule(capacity_nodes=0))
    run = DepthFirst(root, Budget(seconds=None))
    if scc_entries is not None:
        run.scc = np.zeros(scc_entries, dtype=np.int64)
    statuses = []
    status, reason = run.run(None, None, tick=lambda r: statuses.append(int(r.status)))
    return run, status, statuses


@pytest.mark.parametrize("text, verdict", [(WON, codes.WON), (LOST, codes.LOST)], ids=["won", "lost"])
def test_a_search_whose_component_stack_fills_grows_it_and_ends_as_one_that_never_filled(text, verdict):
    whole, status, statuses = search(text)
    assert status == verdict and codes.SCC_FULL not in statuses
    grown, status, statuses = search(text, scc_entries=2)
    assert status == verdict and codes.SCC_FULL in statuses and grown.scc.size > 2
    assert grown.positions() == whole.positions() > 100
    assert grown.meta[codes.M_CLOSED] == whole.meta[codes.M_CLOSED] > 100  # positions closed as lost
    assert np.array_equal(grown.table, whole.table)  # every position met, with what the search knows of it
    if verdict == codes.WON:
        assert grown.winning_line() == whole.winning_line()
        assert is_solution(parse_board(text, BD_6X4), grown.winning_line(), BD_6X4)
