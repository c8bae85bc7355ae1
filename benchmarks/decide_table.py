"""Summarize `bakers winrate` records as one markdown table row per file: the verdicts, the solve-time
quantiles, the slowest deal and the deals left unknown.

    python benchmarks/decide_table.py results/decide-cruel.jsonl results/decide-ripple-fan.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.game.rules import GAMES  # noqa: E402
from solver.records import VERDICTS, read_ledger, tally_of  # noqa: E402

HEADER = (
    "| game | deals | won | lost | unknown | win rate | 95% interval | median s | p90 s | slowest s (deal) | "
    "solver s | unknown deals |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def row(path: Path) -> str:
    ledger = read_ledger(path)  # arrays, not a dict a record: a million-deal file reads in seconds
    if not ledger.game_names:
        sys.exit(f"{path} holds no batch record")
    game = ledger.game_names[0]
    latest = ledger.latest(game)  # each deal's last record: a retried deal counts once
    deals, verdicts, seconds = latest["deal"], latest["verdict"], latest["seconds"]
    tally = tally_of(verdicts)
    slowest = int(np.argmax(seconds))
    unknown = [str(d) for d in deals[verdicts == VERDICTS.index("unknown")]]
    low, high = tally.interval
    decided = tally.won + tally.lost
    rate = f"{100 * tally.won / decided:.2f}%" if decided else "-"
    title = GAMES[game].title if game in GAMES else game
    ordered = np.sort(seconds)
    return (
        f"| {title} | {deals[0]}-{deals[-1]} | {tally.won} | {tally.lost} | {tally.unknown} | "
        f"{rate} | [{100 * low:.2f}%, {100 * high:.2f}%] | {np.median(seconds):.3f} | "
        f"{ordered[int(0.9 * len(ordered))]:.3f} | {seconds[slowest]:.1f} ({deals[slowest]}) | "
        f"{seconds.sum():.0f} | {' '.join(unknown) or '-'} |"
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
