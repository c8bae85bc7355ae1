"""Summarize `bakers winrate` records as one markdown table row per file: the verdicts, the solve-time
quantiles, the slowest deal and the deals left unknown.

    python benchmarks/decide_table.py results/decide-cruel.jsonl results/decide-ripple-fan.jsonl
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.batch import latest_records, read_records, summarize  # noqa: E402
from solver.game.rules import GAMES  # noqa: E402

HEADER = (
    "| game | deals | won | lost | unknown | win rate | 95% interval | median s | p90 s | slowest s (deal) | "
    "solver s | unknown deals |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def row(path: Path) -> str:
    game = read_records(path)[0]["game"]
    records = sorted(latest_records(path, game).values(), key=lambda r: r["deal"])  # a retried deal counts once
    tally = summarize(records)
    seconds = sorted(r["seconds"] for r in records)
    slowest = max(records, key=lambda r: r["seconds"])
    unknown = [str(r["deal"]) for r in records if r["verdict"] == "unknown"]
    low, high = tally.interval
    decided = tally.won + tally.lost
    rate = f"{100 * tally.won / decided:.2f}%" if decided else "-"
    title = GAMES[records[0]["game"]].title if records[0]["game"] in GAMES else records[0]["game"]
    return (
        f"| {title} | {records[0]['deal']}-{records[-1]['deal']} | {tally.won} | {tally.lost} | {tally.unknown} | "
        f"{rate} | [{100 * low:.2f}%, {100 * high:.2f}%] | {statistics.median(seconds):.3f} | "
        f"{seconds[int(0.9 * len(seconds))]:.3f} | {slowest['seconds']:.1f} ({slowest['deal']}) | "
        f"{sum(seconds):.0f} | {' '.join(unknown) or '-'} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+", type=Path)
    args = parser.parse_args()
    print(HEADER)
    for path in args.records:
        print(row(path))


if __name__ == "__main__":
    main()
