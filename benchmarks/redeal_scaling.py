"""How hard a lost proof of a redeal game gets as the deck grows: Cruel and Ripple Fan on smaller decks.

    python benchmarks/redeal_scaling.py                       # ranks 6-9, 200 deals each, 10 s a deal
    python benchmarks/redeal_scaling.py -g cruel --ranks 7-8 --deals 100

Over deals 1-10000 of the full games at 10 s a deal (results/winrate-cruel.jsonl and
results/winrate-ripple-fan.jsonl), every lost verdict came from a deal stuck at once (at most 17 and 44
positions), while 168 deals of each game stayed unknown after millions.  Are those deals won by lines
the search fails to find, or lost with spaces too large to search?  The same games on decks of fewer
ranks (Ace to 6, 7, 8, ...; the piles still dealt in fours, so Cruel has ranks - 1 piles and Ripple Fan
ranks piles) can be searched to the end: this solves their deals 1-N with the default schedule and
prints, per deck, the verdicts and how many positions the lost and won deals took.  While a redeal is
left nothing is pruned (solver/kernels/dfs.py), so a small deck's `lost` is a search of its whole
reachable space.  The full deck's row is read from the 10,000-deal records, not solved again.

With ``--worry-sample K`` it also solves the first K deals the full game's records leave unknown under
PySolFC's rules (a foundation's top card may come back: docs/pysolfc.md) and counts the moves of each
winning line that bring a card back from a foundation.  Writes results/redeal-scaling.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Budget, deal, solve, warm_up, with_pysolfc  # noqa: E402
from solver.requests import parse_memory  # noqa: E402

HEADER = [
    "game", "ranks", "cards in play", "piles", "deals", "won", "lost", "unknown", "lost: median positions",
    "lost: 90th percentile", "lost: most", "lost past 10,000 positions", "won: most positions", "seconds",
]  # fmt: skip
SETTLE_HEADER = ["game", "ranks", "deal", "verdict", "positions", "seconds", "GiB held"]


def small_deck(game: str, ranks: int):
    """``game``'s rules on a deck of Ace..``ranks``, dealt in fours as the full game is."""
    rules = GAMES[game]
    in_play = 4 * ranks * rules.decks - rules.founded
    return rules.reduced(ranks, -(-in_play // 4))


def percentile(values: list[int], share: float) -> int:
    return sorted(values)[min(len(values) - 1, int(share * len(values)))] if values else 0


def row(rules, records: list[dict], seconds: str) -> list[str]:
    """A deck's line of the table: ``rules``'s deck, and the verdicts and positions of its ``records``."""
    lost = [r["states"] for r in records if r["verdict"] == "lost"]
    won = [r["states"] for r in records if r["verdict"] == "won"]
    unknown = sum(r["verdict"] == "unknown" for r in records)
    return [
        rules.title, str(rules.ranks), str(rules.cards - rules.founded), str(rules.piles), str(len(records)),
        str(len(won)), str(len(lost)), str(unknown), f"{statistics.median(lost):,.0f}" if lost else "-",
        f"{percentile(lost, 0.9):,}", f"{max(lost, default=0):,}", str(sum(s > 10_000 for s in lost)),
        f"{max(won, default=0):,}", seconds,
    ]  # fmt: skip


def solve_small(game: str, ranks: int, deals: int, budget: Budget) -> tuple[list[str], list[int]]:
    """The deck's row of the table, and the deals it left unknown."""
    rules = small_deck(game, ranks)
    began = time.perf_counter()
    records = []
    for number in range(1, deals + 1):
        result = solve(deal(rules, number), rules, budget, shorten_moves=False)
        records.append({"deal": number, "verdict": result.verdict, "states": result.positions})
    unknown = [r["deal"] for r in records if r["verdict"] == "unknown"]
    return row(rules, records, f"{time.perf_counter() - began:.0f}"), unknown


def settle(game: str, ranks: int, number: int, budget: Budget) -> list[str]:
    """A small deck's unknown deal again, by one depth-first search to the end (``one_run``)."""
    rules = small_deck(game, ranks)
    result = solve(deal(rules, number), rules, budget, shorten_moves=False, one_run=True)
    cells = [GAMES[game].title, str(ranks), str(number), result.verdict, f"{result.positions:,}"]
    return cells + [f"{result.seconds:.0f}", f"{result.memory / 2**30:.1f}"]


def full_deck_records(game: str) -> list[dict]:
    path = ROOT / "results" / f"winrate-{game}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def worry_sample(game: str, records: list[dict], count: int, budget: Budget) -> list[str]:
    """Lines of a table: the first ``count`` deals the records leave unknown, solved by PySolFC's rules."""
    rules = with_pysolfc(GAMES[game])
    lines = ["| deal | verdict by PySolFC's rules | moves | redeals | cards brought back from a foundation |",
             "|---|---|---|---|---|"]  # fmt: skip
    for number in [r["deal"] for r in records if r["verdict"] == "unknown"][:count]:
        result = solve(deal(rules, number), rules, budget, shorten_moves=True)
        redeals = sum(m.is_redeal for m in result.moves)
        back = sum(m.source < 0 and not m.is_redeal for m in result.moves)
        lines.append(f"| {number} | {result.verdict} | {len(result.moves)} | {redeals} | {back} |")
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-g", "--games", default="cruel,ripple-fan")
    parser.add_argument("--ranks", default="6-9", help="a range of deck sizes, e.g. 6-9")
    parser.add_argument("--deals", type=int, default=200, help="deals 1..N of each deck")
    parser.add_argument("-t", "--timeout", type=float, default=10.0)
    parser.add_argument("-m", "--memory", default="4G")
    parser.add_argument("--worry-sample", type=int, default=0, metavar="K")
    parser.add_argument(
        "--settle", type=float, default=0, metavar="SECONDS",
        help="solve the small decks' unknown deals again by one run of this many seconds (memory: --settle-memory)",
    )  # fmt: skip
    parser.add_argument("--settle-memory", default="8G")
    parser.add_argument("--output", type=Path, default=ROOT / "results" / "redeal-scaling.md")
    args = parser.parse_args()
    games = args.games.split(",")
    if unknown := [g for g in games if g not in ("cruel", "ripple-fan")]:
        parser.error(f"not a game with unlimited redeals on one deck: {', '.join(unknown)}")
    low, _, high = args.ranks.partition("-")
    ranks = range(int(low), int(high or low) + 1)
    if not ranks or ranks[0] < 3 or ranks[-1] > 12:
        parser.error("--ranks: between 3 and 12, e.g. 6-9")
    budget = Budget(seconds=args.timeout, memory=parse_memory(args.memory))
    settle_budget = Budget(seconds=args.settle, memory=parse_memory(args.settle_memory))
    warm_up()
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    extra: list[str] = []
    settled = ["| " + " | ".join(SETTLE_HEADER) + " |", "|" + "---|" * len(SETTLE_HEADER)]
    for game in games:
        for rank in ranks:
            cells, unknown = solve_small(game, rank, args.deals, budget)
            lines.append("| " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
            for number in unknown if args.settle else []:
                settled.append("| " + " | ".join(settle(game, rank, number, settle_budget)) + " |")
                print(settled[-1], flush=True)
        records = full_deck_records(game)
        lines.append("| " + " | ".join(row(GAMES[game], records, "(records)")) + " |")
        print(lines[-1], flush=True)
        if args.worry_sample:
            extra += ["", f"**{GAMES[game].title}**, deals the strict records leave unknown, by PySolFC's rules:", ""]
            extra += worry_sample(game, records, args.worry_sample, budget)
    command = "python benchmarks/redeal_scaling.py " + " ".join(sys.argv[1:])
    if args.settle:
        extra += [
            "",
            f"The small decks' unknown deals again, one run of {args.settle:.0f} s and {args.settle_memory}:",
            "",
        ]
        extra += settled
    text = (
        f"# Lost proofs of the redeal games as the deck grows\n\n{__doc__.split(chr(10) + chr(10), 2)[2]}\n"
        f"`{command.strip()}` on {machine()}.\n\n" + "\n".join(lines) + "\n" + "\n".join(extra) + "\n"
    )
    args.output.write_text(text)
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
