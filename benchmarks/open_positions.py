"""How one depth-first run of a deal holds its positions: searched, in the table, open, closed, path depth.

A run can close a position (mark it won or lost) only when the strongly
connected component it belongs to is searched to the end; until then the
position stays open, in the table and on the component stack, and cannot be
forgotten.  This steps one unperturbed run (what `bakers solve --one-run`
does) and prints its counters every twentieth of the positions asked for,
to show whether a deal's search closes as it goes or piles up open positions.

    python benchmarks/open_positions.py bakers-dozen 417 40e6
"""

import sys
import time

from solver.game.deals import deal
from solver.game.rules import GAMES
from solver.kernels import codes as K
from solver.search import Budget
from solver.search.dfs import DepthFirst
from solver.search.root import Root


def main(game: str, number: int, positions: int, memory: int = 6 << 30) -> None:
    rules = GAMES[game]
    run = DepthFirst(Root(deal(rules, number), rules), Budget(seconds=None, memory=memory))
    began, report_at = time.perf_counter(), 0

    def counters(run: DepthFirst) -> None:
        nonlocal report_at
        meta = run.meta
        if meta[K.M_NODES] >= report_at:
            report_at += positions // 20
            stack = run.bytes() - 16 * (run.table.size // 2)
            print(
                f"{time.perf_counter() - began:7.1f} s  searched {meta[K.M_NODES]:>12,}"
                f"  table {meta[K.M_TABLE_COUNT]:>12,}"
                f"  open {meta[K.M_SCC_TOP]:>11,}  closed {meta[K.M_CLOSED]:>11,}  depth {meta[K.M_DEPTH]:>11,}"
                f"  cards up {int(run.found.sum()):2d}  stacks {stack / 2**20:,.0f} MiB",
                flush=True,
            )

    status, reason = run.run(None, positions, counters)
    print({K.WON: "won", K.LOST: "lost"}.get(status, f"stopped: {reason}"))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(float(sys.argv[3])))
