"""The depth-first search kernel: plain arrays in, plain arrays out.

Everything the search needs lives in arrays owned by the caller
(:mod:`solver.search.dfs`), so a kernel call can stop at any node -- after a
number of nodes, when the transposition table or the stack needs room --
and a later call resumes exactly where it stopped.  The pruning rules it
applies are proved in :mod:`solver.kernels.safe_moves`,
:mod:`solver.kernels.moves` and :mod:`solver.kernels.dead`.

Lost positions (``search``)
    Call the graph the search walks the pruned graph: its edges are the
    moves ``generate_moves`` makes, each followed by the safe moves, and it has
    no edges out of dead positions (found dead by either test, so lost).
    From a position with a win, the pruned graph reaches a win: take a
    shortest winning line W; its first move is no lone-card move (proof in
    solver/kernels/moves.py, "Lone cards stay put"), so it is generated, or,
    where it fills an empty pile other than the first with no redeal left,
    or (two decks, no redeal left) moves from or onto a pile that an earlier
    pile equals card for card, a move that makes the same position up to the
    order of the piles, from which the shortest wins are as long (and it
    never moves a whole pile into an empty one, which makes the same
    position again);
    after it and the safe moves, which never lengthen a winning line (the W'
    of safe_moves.py, "Safe foundation moves", is no longer than W), a winning
    line shorter than W is left, so the child is not dead; induct on the
    length.  (While a redeal is left, every legal move is generated and no
    safe move or dead test applies; redeals are moves like any other, and
    cycles through them are what Tarjan's bookkeeping below is for.)  Hence
    a position from which the pruned graph reaches no win is lost.
    The search numbers each new position and keeps Tarjan's bookkeeping of
    strongly connected components: the table holds each open position's
    number, a stack holds the open positions, and each frame of the path
    its lowlink (the least number of an open position that its subtree
    reaches).  When a frame ends with lowlink equal to its own number, its
    component closes: every position reachable from it is in the
    component, in a component closed before, or marked lost, and none was
    a win (the search would have stopped), so all of them are lost and
    the table marks them so.  A restart keeps those marks and forgets what
    it knew of the open positions (their search was cut short: they are
    marked stale, which a later run treats as new), so a later run never
    searches a proven-lost position again.  Lowlinks are exact, not
    bounds: an open position met again gives its own number, as in
    Tarjan's algorithm, so no component closes early.
    Checked by:
      tests/kernels/test_dfs.py::test_every_position_marked_lost_is_lost (complete, cut short and restarted runs)
      tests/kernels/test_dfs.py::test_a_complete_lost_search_closes_every_component
      tests/kernels/test_dfs.py::test_restarts_do_not_search_proven_lost_positions_again
      tests/test_agreement.py::test_solver_agrees_with_reference_search (the pruned graph, end to end)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .capacity import C_ALLOWANCE, C_NODES, abstraction_moved, capacity_dead
from .codes import (
    FOUNDATION,
    LOST,
    M_CLOSED,
    M_DEAD,
    M_DEPTH,
    M_IN_PLAY,
    M_NEXT_INDEX,
    M_NODES,
    M_PENDING,
    M_SCC_TOP,
    M_TABLE_COUNT,
    MAX_MOVES_PER_NODE,
    PAUSED,
    SCC_FULL,
    STACK_FULL,
    TABLE_FULL,
    WON,
)  # fmt: skip
from .dead import dead_here
from .moves import generate_moves
from .position import play, take_back
from .safe_moves import play_safe_moves, safe_moves_hold, undo_safe_moves
from .score import order_by_score
from .table import LOST_MARK, STALE_MARK, TABLE_MAX_LOAD, set_info, table_find, table_info


@njit(cache=True)
def open_root(table, keys, meta, frame_index, frame_low, frame_sp, scc):
    """Store the root as the first open position of a run.  A run before it that was cut
    short left the root stale (its component is the last to close, which ends a search)."""
    slot = table_find(table, keys[0], keys[1], np.int64(0))
    if slot >= 0:
        set_info(table, slot, 0)
    else:
        slot = -1 - slot
        meta[M_TABLE_COUNT] += 1
    frame_index[0] = 0
    frame_low[0] = 0
    frame_sp[0] = 0
    scc[0] = slot
    meta[M_SCC_TOP] = 1
    meta[M_NEXT_INDEX] = 1


@njit(cache=True, _nrt=False)  # solver/kernels/__init__.py, "No reference counting"
def search(
    position, rules, zobrist, table, meta, stack, scratch, noise, node_limit, work_limit, test, cap_limit, scored
):
    """Run the depth-first search for at most ``node_limit`` new positions and ``work_limit``
    moves tried and abstract positions searched by capacity tests (most tries meet a known
    position, so positions alone do not bound the time); returns a status.  Each closed strongly
    connected component is marked lost in the table (module text, "Lost positions"), where later
    runs find it.  ``test``: the capacity test of new positions, searching at most ``cap_limit``
    abstract positions (0: none).  ``scored``: each position's moves in the order of their children's
    score (:mod:`.score`), not only the generator's."""
    board, heights, found, keys = position
    mv_start, mv_count, mv_next = stack.mv_start, stack.mv_count, stack.mv_next
    path_src, path_dst, path_card, path_autos = stack.path_src, stack.path_dst, stack.path_card, stack.path_autos
    path_heights = stack.path_heights
    frame_index, frame_low, frame_sp, scc = stack.frame_index, stack.frame_low, stack.frame_sp, stack.scc
    moves_src, moves_dst, auto_src, auto_card = stack.moves_src, stack.moves_dst, stack.auto_src, stack.auto_card
    origin, origin_heights, capacity_meta = test.origin, test.origin_heights, test.meta
    depth = meta[M_DEPTH]
    stop = meta[M_NODES] + node_limit
    work = 0
    table_limit = np.int64(TABLE_MAX_LOAD * (table.shape[0] // 2))
    while True:
        if meta[M_PENDING]:
            start = mv_start[depth - 1] + mv_count[depth - 1] if depth > 0 else 0
            if depth + 1 >= mv_start.shape[0] or start + MAX_MOVES_PER_NODE > moves_src.shape[0]:
                meta[M_DEPTH] = depth
                return STACK_FULL
            mv_start[depth] = start
            mv_count[depth] = generate_moves(
                board, heights, found, rules, moves_src, moves_dst, start, scratch, noise, meta, origin, origin_heights
            )
            if scored and mv_count[depth] > 1:
                order_by_score(
                    position,
                    rules,
                    zobrist,
                    meta,
                    (moves_src, moves_dst),
                    start,
                    mv_count[depth],
                    scratch,
                    path_heights[depth],
                    (auto_src, auto_card),
                    (origin, origin_heights),
                )
            mv_next[depth] = 0
            meta[M_PENDING] = 0
        work += 1
        if meta[M_NODES] >= stop or work > work_limit or meta[M_TABLE_COUNT] >= table_limit:
            meta[M_DEPTH] = depth
            return TABLE_FULL if meta[M_TABLE_COUNT] >= table_limit else PAUSED
        if meta[M_SCC_TOP] >= scc.shape[0]:
            meta[M_DEPTH] = depth
            return SCC_FULL
        i = mv_next[depth]
        if i < mv_count[depth]:
            mv_next[depth] = i + 1
            src = np.int64(moves_src[mv_start[depth] + i])
            dst = np.int64(moves_dst[mv_start[depth] + i])
            card = play(board, heights, found, zobrist, keys, meta, src, dst, path_heights[depth], scratch)
            autos = 0
            if safe_moves_hold(rules, meta):
                autos = play_safe_moves(board, heights, found, zobrist, keys, meta, auto_src, auto_card, rules.safe)
            path_src[depth] = src
            path_dst[depth] = dst
            path_card[depth] = card
            path_autos[depth] = autos
            if meta[M_IN_PLAY] == 0:
                meta[M_DEPTH] = depth + 1
                return WON
            index = meta[M_NEXT_INDEX]
            slot = table_find(table, keys[0], keys[1], index)
            if slot < 0:
                slot = -1 - slot
                meta[M_TABLE_COUNT] += 1
            elif table_info(table, slot) == STALE_MARK:  # met by a run cut short: new to this one
                set_info(table, slot, index)
            else:  # known: lost, or open in this run (an edge into the component stack)
                info = table_info(table, slot)
                if info != LOST_MARK and info < frame_low[depth]:
                    frame_low[depth] = info
                undo_safe_moves(board, heights, found, zobrist, keys, meta, auto_src, auto_card, autos)
                take_back(board, heights, found, zobrist, keys, meta, src, dst, card, path_heights[depth], scratch)
                continue
            meta[M_NODES] += 1
            capacity_meta[C_ALLOWANCE] += 1
            dead = dead_here(board, heights, found, rules, scratch, meta)
            if not dead and cap_limit > 0:
                # The abstraction, and so the parent's verdict, stands unless a foundation or a prefix changed.
                moved = dst == FOUNDATION or autos > 0
                if moved or abstraction_moved(board, heights, origin, origin_heights, src, dst, card):
                    work -= capacity_meta[C_NODES]  # its abstract positions count as work too, to keep the clock
                    dead = capacity_dead(board, heights, found, rules, test, cap_limit)
                    work += capacity_meta[C_NODES]
            if dead:
                meta[M_DEAD] += 1
                set_info(table, slot, LOST_MARK)
                undo_safe_moves(board, heights, found, zobrist, keys, meta, auto_src, auto_card, autos)
                take_back(board, heights, found, zobrist, keys, meta, src, dst, card, path_heights[depth], scratch)
                continue
            meta[M_NEXT_INDEX] = index + 1
            depth += 1
            frame_index[depth] = index
            frame_low[depth] = index
            frame_sp[depth] = meta[M_SCC_TOP]
            scc[meta[M_SCC_TOP]] = slot
            meta[M_SCC_TOP] += 1
            meta[M_PENDING] = 1
        else:
            if frame_low[depth] == frame_index[depth]:  # a component closes: every position in it is lost
                for k in range(frame_sp[depth], meta[M_SCC_TOP]):
                    set_info(table, scc[k], LOST_MARK)
                meta[M_CLOSED] += meta[M_SCC_TOP] - frame_sp[depth]
                meta[M_SCC_TOP] = frame_sp[depth]
            if depth == 0:
                meta[M_DEPTH] = 0
                return LOST
            low = frame_low[depth]
            depth -= 1
            if low < frame_low[depth]:
                frame_low[depth] = low
            undo_safe_moves(
                board, heights, found, zobrist, keys, meta, auto_src, auto_card, np.int64(path_autos[depth])
            )
            src, dst, card = np.int64(path_src[depth]), np.int64(path_dst[depth]), np.int64(path_card[depth])
            take_back(board, heights, found, zobrist, keys, meta, src, dst, card, path_heights[depth], scratch)
