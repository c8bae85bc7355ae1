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

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.game.rules import GAMES  # noqa: E402
from solver.records import VERDICTS, read_ledger, tally_of  # noqa: E402
from solver.stats import WinRate  # noqa: E402

POINTS = 2000  # points of the running rate drawn, spread evenly on its log scale (a million deals plot fast)


def running_rate(verdicts: np.ndarray) -> tuple[np.ndarray, list[float], list[float], list[float]]:
    """After 1, 2, ... deals (at most POINTS of them): the share won, and the 95% Wilson bounds."""
    won = np.cumsum(verdicts == VERDICTS.index("won"))
    unknown = np.cumsum(verdicts == VERDICTS.index("unknown"))
    xs = np.unique(np.geomspace(1, len(verdicts), POINTS).round().astype(np.int64))
    rate, low, high = [], [], []
    for i in xs:
        tally = WinRate(int(won[i - 1]), int(i - won[i - 1] - unknown[i - 1]), int(unknown[i - 1]))
        lo, hi = tally.interval
        rate.append(100 * tally.won / i)
        low.append(100 * lo)
        high.append(100 * hi)
    return xs, rate, low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    parser.add_argument("--prefix", default="winrate", help="PNGs are named PREFIX-GAME.png [default: winrate]")
    parser.add_argument("--reference", type=float, help="a published win rate, in percent, drawn as a line")
    parser.add_argument("--reference-label", default="published", help="its legend, e.g. 'Blake & Gent 2026'")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for path in args.records:
        ledger = read_ledger(path)  # arrays, not a dict a record: a million-deal file reads in seconds
        for game in ledger.game_names:
            latest = ledger.latest(game)  # each deal's last record, in deal order: a retry supersedes
            deals, verdicts = latest["deal"], latest["verdict"]
            base = game.removesuffix("-worrying-back")
            title = GAMES[base].title if base in GAMES else game
            title += " (worrying back)" if base != game else ""
            xs, rate, low, high = running_rate(verdicts)
            fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
            left.fill_between(xs, low, high, alpha=0.3, label="95% Wilson interval")
            left.plot(xs, rate, label="won / deals")
            if args.reference is not None:
                left.axhline(args.reference, color="tab:red", linestyle="--", linewidth=1, label=args.reference_label)
            left.set_xscale("log")
            # Zoomed on the rate once it has settled (from a thousandth of the deals, at least 100 on): a
            # rate near 100% over a million deals would otherwise be a flat line at the top.
            settled = [lo for x, lo in zip(xs, low, strict=True) if x >= max(100, len(deals) // 1000)]
            if settled:
                bottom = min(settled)
                left.set_ylim(max(0.0, bottom - 0.1 * (100 - bottom)), 100 + 0.02 * (100 - bottom))
            left.set_xlabel(f"deals (PySolFC {deals[0]}-{deals[-1]})")
            left.set_ylabel("win rate, %")
            left.set_title(f"{title}: {tally_of(verdicts).text().split(';')[0]}", fontsize=9)
            left.legend(loc="lower right")
            seconds = np.maximum(latest["seconds"], 1e-4)
            right.hist(seconds, bins=[10 ** (k / 4) for k in range(-16, 9)], color="tab:gray")
            right.set_xscale("log")
            right.set_xlabel("seconds per deal")
            right.set_ylabel("deals")
            right.set_title(f"{title}: solve times", fontsize=9)
            fig.tight_layout()
            target = args.out / f"{args.prefix}-{game}.png"
            fig.savefig(target, dpi=110)
            plt.close(fig)
            print(f"wrote {target}")


if __name__ == "__main__":
    main()
