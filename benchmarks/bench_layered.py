"""The layered search beside one depth-first run, deal by deal: verdicts, positions, time and memory.

    python benchmarks/bench_layered.py              # Good Measure deals the depth-first search loses
    python benchmarks/bench_layered.py -g bakers-dozen -d 6574 -t 600 -m 8

Each deal is solved by ``solve(one_run=True)`` (the root's capacity test, then one depth-first run)
and by the layered search alone (``Layered``, which ``solve(layered=True)`` runs after the same test),
with the same budget, one after the other in this process; the kernels are compiled first.  The
table goes to standard output and to results/bench_layered.md, with each deal's layers: how many, and how
many positions the widest held (what the layered search holds at once).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Budget, deal, solve  # noqa: E402
from solver.kernels.codes import LOST, WON  # noqa: E402
from solver.search.layered import Layered  # noqa: E402
from solver.search.root import Root  # noqa: E402
from solver.search.warm import warm_up  # noqa: E402

# Good Measure deals lost by the depth-first search in 1-60 s at 60 s a deal (results/winrate.md).
DEALS = "6880,2715,1411,6991,1725,7425"


def layered(board, rules, budget: Budget) -> list[str]:
    """The layered search alone (no root test before it): its cells of the table."""
    began = time.perf_counter()
    search = Layered(Root(board, rules), budget)
    status, reason = search.search(began + budget.seconds)
    seconds = time.perf_counter() - began
    verdict = {WON: "won", LOST: "lost"}.get(status, f"unknown ({reason})")
    widest = max(search.sizes.values(), default=0)
    return [verdict, f"{search.positions():,}", f"{seconds:.1f}", f"{search.peak / 2**20:.0f}", str(len(search.sizes)),
            f"{widest:,}"]  # fmt: skip


def deal_arguments(doc: str, deals: str, output: str) -> tuple[argparse.Namespace, Budget]:
    """The command line of a script that searches a few deals of one game, each with one budget."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-g", "--game", default="good-measure")
    parser.add_argument("-d", "--deals", default=deals, help="comma-separated PySolFC numbers")
    parser.add_argument("-t", "--timeout", type=float, default=600.0)
    parser.add_argument("-m", "--memory", type=float, default=8.0, help="GiB")
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "results" / output)
    args = parser.parse_args()
    return args, Budget(seconds=args.timeout, memory=int(args.memory * 2**30))


def main() -> None:
    args, budget = deal_arguments(__doc__, DEALS, "bench_layered.md")
    rules = GAMES[args.game]
    warm_up()
    rows = []
    for number in [int(n) for n in args.deals.split(",")]:
        board = deal(rules, number)
        result = solve(board, rules, budget, shorten_moves=False, one_run=True)
        cells = [str(number), f"{result.verdict} ({result.found_by or result.reason})", f"{result.positions:,}"]
        cells += [f"{result.seconds:.1f}", f"{result.memory / 2**20:.0f}", *layered(board, rules, budget)]
        rows.append("| " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    text = "\n".join(
        [
            f"# The layered search beside one depth-first run: {rules.title}",
            "",
            f"`python benchmarks/bench_layered.py -g {args.game} -d {args.deals} -t {args.timeout:g} "
            f"-m {args.memory:g}`; machine: {machine()}; commit {commit.stdout.strip() or '?'}.  Each deal "
            "solved by `solve(one_run=True)` and by the layered search alone, one after the other; positions "
            "are those searched (the depth-first run's new positions, the layers' positions expanded), memory "
            "the most the search held at once (the layered search's: its layer, the children waiting, its "
            "position's arrays and tests).",
            "",
            "| deal | one run | positions | s | MiB | layered | positions | s | MiB | layers | widest layer |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    args.output.write_text(text)


if __name__ == "__main__":
    main()
