"""Batch throughput with 1 and with 2 (or more) worker processes.

    python benchmarks/bench_batch.py --game bakers-dozen --deals 1-300

A states budget (not a clock) per deal keeps the work identical across the
runs; the kernels are compiled or loaded before any clock starts, and the
workers are forked after that, so none compiles again.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Budget  # noqa: E402
from solver.batch import parse_deals, run_batch, summarize  # noqa: E402
from solver.search import warm_up  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="bakers-dozen", choices=list(GAMES))
    parser.add_argument("--deals", default="1-300")
    parser.add_argument("--max-states", type=int, default=200_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, os.cpu_count() or 1])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench_batch.md")
    args = parser.parse_args()
    rules, numbers = GAMES[args.game], parse_deals(args.deals)
    budget = Budget(seconds=None, states=args.max_states)
    warm_up()
    rows = []
    for jobs in args.jobs:
        with tempfile.TemporaryDirectory() as tmp:
            began = time.perf_counter()
            records = run_batch(rules, numbers, budget, Path(tmp) / "records.jsonl", jobs=jobs)
            wall = time.perf_counter() - began
        states = sum(r["states"] for r in records)
        rows.append((jobs, wall, len(records) / wall, states / wall, summarize(records)))
    base = rows[0][2]
    lines = [
        f"# Batch throughput: {rules.title}, PySolFC deals {args.deals}, at most {args.max_states:,} states a deal",
        "",
        f"Machine: {machine()}.",
        f"Command: `python benchmarks/bench_batch.py {' '.join(sys.argv[1:])}`",
        "",
        "| jobs | wall s | deals/s | states/s | speed-up | verdicts |",
        "|---|---|---|---|---|---|",
        *[f"| {j} | {w:.1f} | {d:.1f} | {s:,.0f} | {d / base:.2f}x | {t.text()} |" for j, w, d, s, t in rows],
    ]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
