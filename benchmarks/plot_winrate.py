"""Plot win-rate records (the JSONL files `bakers winrate` writes) as PNGs under results/.

    python benchmarks/plot_winrate.py results/winrate-*.jsonl

For each game: the running win rate with its 95% Wilson interval (unknowns
widening it) as deals accumulate, and the distribution of solve times.
Needs the plot extra: pip install -e '.[plot]'.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.batch import latest_records, read_records, summarize  # noqa: E402
from solver.game.rules import GAMES  # noqa: E402
from solver.stats import WinRate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for path in args.records:
        records = read_records(path)
        by_game: dict[str, list[dict]] = {}
        for game in dict.fromkeys(r["game"] for r in records):  # each deal's last record: a retry supersedes
            by_game[game] = sorted(latest_records(path, game).values(), key=lambda r: r["deal"])
        for game, rows in by_game.items():
            base = game.removesuffix("-worrying-back")
            title = GAMES[base].title if base in GAMES else game
            title += " (worrying back)" if base != game else ""
            xs, rate, low, high = [], [], [], []
            tally = WinRate(0, 0, 0)
            for i, row in enumerate(rows, 1):
                tally = summarize([row], start=tally)
                xs.append(i)
                rate.append(100 * tally.won / i)
                lo, hi = tally.interval
                low.append(100 * lo)
                high.append(100 * hi)
            fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
            left.fill_between(xs, low, high, alpha=0.3, label="95% Wilson interval")
            left.plot(xs, rate, label="won / deals")
            left.set_xscale("log")
            left.set_xlabel(f"deals (PySolFC {rows[0]['deal']}-{rows[-1]['deal']})")
            left.set_ylabel("win rate, %")
            left.set_title(f"{title}: {summarize(rows).text().split(';')[0]}", fontsize=9)
            left.legend(loc="lower right")
            seconds = [max(r["seconds"], 1e-4) for r in rows]
            right.hist(seconds, bins=[10 ** (k / 4) for k in range(-16, 9)], color="tab:gray")
            right.set_xscale("log")
            right.set_xlabel("seconds per deal")
            right.set_ylabel("deals")
            right.set_title(f"{title}: solve times", fontsize=9)
            fig.tight_layout()
            target = args.out / f"winrate-{game}.png"
            fig.savefig(target, dpi=110)
            plt.close(fig)
            print(f"wrote {target}")


if __name__ == "__main__":
    main()
