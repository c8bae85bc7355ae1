"""The layered search's kernel (solver/kernels/layered.py, ``expand``) stopped at a slice's end
(LAYER_PAUSED) and by full arrays (LAYER_FULL), each taken up again with the layer's arrays grown, ends as the
driver's search (solver/search/layered.py), whose arrays never fill on these deals and whose slices of 16,384
positions hold a whole layer: the same layers, positions, dead positions and win."""

import numpy as np
import pytest

from solver.game.board import parse_board
from solver.game.rules import GAMES
from solver.kernels import codes
from solver.kernels import layered as L
from solver.kernels.bundles import MoveScratch, Position
from solver.kernels.codes import SCRATCH_SIZE
from solver.search.layered import Layered
from solver.search.result import Budget
from solver.search.root import Root
from solver.search.schedule import Schedule

BD_6X5 = GAMES["bakers-dozen"].reduced(ranks=6, piles=5)
BD_5X4 = GAMES["bakers-dozen"].reduced(ranks=5, piles=4)
LOST = "6C 2H 3S 5S 4D\nAC 5D 5H 2D 3H\n6S 2S AS 5C 4S\n6H 6D 4C 4H 2C\n3D 3C AD AH"
WON = "5S 2C AH 4D 4C\n5H AS 2S 4H AD\n5D 3C AC 3H 3D\n5C 3S 4S 2H 2D"
# No capacity tests: the driver grows their cache between slices, which more slices would change.
NO_TESTS = Schedule(capacity_nodes=0)
MOVES = 32  # room for one position's moves (on 5 piles, at most 5 up and 20 onto a card): the kernel's ``room``


def _layer_arrays(rows: int):
    return np.zeros((rows, L.WORDS), np.uint64), np.zeros(rows, np.int64), np.zeros(2 * rows, np.int64)


def layered_in_small_arrays(root: Root, rows: int, node_limit: int):
    """The layered search as its driver runs it, but each layer in arrays of ``rows`` positions (a power of
    two; more where the children waiting for the layer need it) doubled when the kernel says LAYER_FULL, as
    many children waiting at most, and ``node_limit`` positions expanded a call.  The statuses met, how many
    times a layer's arrays grew, the layers' sizes, ``lmeta``, and on a win the words of the position won
    from and the winning move."""
    start = root.copy()
    position = Position(start.board, start.heights, start.found, start.keys)
    piles = start.board.shape[0]
    work = MoveScratch(
        np.zeros(MOVES, np.int16), np.zeros(MOVES, np.int16), np.zeros(SCRATCH_SIZE, np.int32), start.meta,
        start.auto_src, start.auto_card, np.zeros(piles, np.int16),
    )  # fmt: skip
    waiting = np.zeros((rows, L.WORDS), np.uint64), np.zeros(rows, np.int64), np.zeros(rows, np.int16)
    lmeta = np.zeros(L.LMETA_SIZE, np.int64)
    row = np.zeros(L.WORDS, np.uint64)
    first = L.encode(
        start.board, start.heights, start.found, root.origin, root.origin_heights, root.rule_codes.build,
        np.zeros(piles, np.int64), row,
    )  # fmt: skip
    pending = {first: [(row[None, :].copy(), np.full(1, -1, np.int64))]}
    statuses, sizes, grown = set(), {}, 0
    while pending:
        layer = min(pending)
        size = rows  # room for the children waiting for it, and for one position's moves
        while size < sum(len(chunk_parents) for _, chunk_parents in pending[layer]) + MOVES:
            size *= 2
        states, parents, index = _layer_arrays(size)
        lmeta[L.L_COUNT] = lmeta[L.L_CURSOR] = 0
        for chunk_rows, chunk_parents in pending.pop(layer):
            L.admit_all(chunk_rows, chunk_parents, states, parents, index, lmeta)
        while True:
            status = L.expand(
                layer, states, parents, index, *waiting, lmeta, position, root.rule_codes, root.zobrist, work,
                root.capacity_test(), root.capacity_limit(), node_limit,
            )  # fmt: skip
            statuses.add(status)
            count = int(lmeta[L.L_WAITING])  # the children waiting, into their layers as the driver puts them
            for later in np.unique(waiting[2][:count]).tolist():
                chosen = waiting[2][:count] == later
                pending.setdefault(later, []).append((waiting[0][:count][chosen], waiting[1][:count][chosen]))
            lmeta[L.L_WAITING] = 0
            if status == L.LAYER_WON:
                won = states[lmeta[L.L_WON_ROW]].copy(), int(lmeta[L.L_WON_SRC]), int(lmeta[L.L_WON_DST])
                return statuses, grown, sizes, lmeta, won
            if status == L.LAYER_DONE:
                break
            if status == L.LAYER_FULL and lmeta[L.L_COUNT] + MOVES > states.shape[0]:  # else: the waiting were full
                count = int(lmeta[L.L_COUNT])
                kept = states[:count].copy(), parents[:count].copy()
                states, parents, index = _layer_arrays(2 * states.shape[0])
                lmeta[L.L_COUNT] = 0
                L.admit_all(*kept, states, parents, index, lmeta)
                grown += 1
        sizes[layer] = int(lmeta[L.L_COUNT])
    return statuses, grown, sizes, lmeta, None


@pytest.mark.parametrize("text, rules", [(LOST, BD_6X5), (WON, BD_5X4)], ids=["lost", "won"])
def test_a_layered_search_stopped_by_every_limit_ends_as_the_driver_s(text, rules):
    board = parse_board(text, rules)
    driver = Layered(Root(board, rules, NO_TESTS), Budget(seconds=None))
    verdict, _ = driver.search(None)
    statuses, grown, sizes, lmeta, won = layered_in_small_arrays(Root(board, rules, NO_TESTS), rows=64, node_limit=3)
    assert {L.LAYER_PAUSED, L.LAYER_FULL} <= statuses and grown > 0
    assert lmeta[L.L_EXPANDED] == driver.positions() > 100
    assert lmeta[L.L_DEAD] == driver.dead
    assert sizes == driver.sizes
    assert (won is not None) == (verdict == codes.WON)
    if won is not None:
        row, src, dst = won
        assert np.array_equal(row, driver.states[driver.lmeta[L.L_WON_ROW]])
        assert (src, dst) == (driver.lmeta[L.L_WON_SRC], driver.lmeta[L.L_WON_DST])
