"""What the strict probe (solver/search/strict.py) does under PySolFC's rules: each deal solved with it and
without it (``Schedule(strict_share=0)``), the same budget, one after the other in the same worker.

    python benchmarks/bench_strict_probe.py                      # the two sets below, 10 s a deal
    python benchmarks/bench_strict_probe.py --per-game 20 --timeout 5

Two sets of deals, read from the records the results page counts (benchmarks/results_page.py):

- *unknown*: deals that PySolFC's batches left unknown, by the strict verdict of the same deal;
- *needs a card back*: deals that PySolFC's rules win and the strict rules lose on the same layout,
  where the probe can only cost time (its strict search ends without a win, then PySolFC's own runs).

It prints a table and writes it to results/bench/strict-probe.md, with the per-deal rows beside it.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_solve import machine  # noqa: E402
from results_page import LOST, UNKNOWN, WON, table  # noqa: E402

from solver import Budget  # noqa: E402
from solver.batch import solve_record  # noqa: E402
from solver.game.deals import deal, pysolfc_layout  # noqa: E402
from solver.game.premises import strict_game  # noqa: E402
from solver.game.rules import GAMES, with_pysolfc  # noqa: E402
from solver.search import Schedule, warm_up  # noqa: E402
from solver.words import PYSOLFC_LAYOUT  # noqa: E402

OFF, ON = Schedule(strict_share=0.0), Schedule()
NAMES = {WON: "won", LOST: "lost", UNKNOWN: "unknown", -1: "missing"}


def deal_sets(per_game: int) -> list[tuple[str, str, int, str]]:
    """(set, game, deal, strict verdict) for the first ``per_game`` deals of each game in each set."""
    rows = {(r.name, r.rules): r for r in table() if r.ran}
    chosen = []
    for game in GAMES:
        pysolfc, strict = rows.get((game, "pysolfc")), rows.get((game, "strict"))
        if pysolfc is None or strict is None or strict_game(with_pysolfc(GAMES[game])) is None:
            continue  # no probe where PySolFC plays another game (Spanish Patience) or the same (Indefatigable)
        unknown = [(n, NAMES[strict.verdicts.get(n, UNKNOWN)]) for n in pysolfc.unknown]
        back = [
            n for n, v in pysolfc.verdicts.items()
            if v == WON and strict.verdicts.get(n) == LOST and pysolfc_layout(GAMES[game], n) == deal(GAMES[game], n)
        ]  # fmt: skip
        chosen += [("unknown", game, n, v) for n, v in unknown[:per_game]]
        chosen += [("needs a card back", game, n, "lost") for n in sorted(back)[:per_game]]
    return chosen


def _solve_both(task: tuple[str, str, int, str, float, int]) -> dict:
    kind, game, number, strict, seconds, memory = task
    rules, budget = with_pysolfc(GAMES[game]), Budget(seconds=seconds, memory=memory)
    row = {"set": kind, "game": game, "deal": number, "strict_recorded": strict}
    for name, schedule in (("off", OFF), ("on", ON)):
        record = solve_record(rules, number, budget, schedule, layout=PYSOLFC_LAYOUT)
        row |= {f"{name}_verdict": record["verdict"], f"{name}_seconds": record["seconds"]}
        row |= {f"{name}_found_by": record["found_by"], f"{name}_states": record["states"]}
    row["on_strict"] = record.get("strict", "")
    return row


def summary(rows: list[dict], kind: str) -> list[str]:
    lines = []
    for game in dict.fromkeys(r["game"] for r in rows if r["set"] == kind):
        mine = [r for r in rows if r["set"] == kind and r["game"] == game]
        decided = {k: sum(r[f"{k}_verdict"] != "unknown" for r in mine) for k in ("off", "on")}
        by_probe = sum(r["on_found_by"] == "strict" for r in mine)
        conflicts = sum(
            "unknown" not in (r["off_verdict"], r["on_verdict"]) and r["off_verdict"] != r["on_verdict"] for r in mine
        )
        secs = {k: [r[f"{k}_seconds"] for r in mine] for k in ("off", "on")}
        lines.append(
            f"| {kind} | {game} | {len(mine)} | {decided['off']} | {decided['on']} | {by_probe} | {conflicts} "
            f"| {statistics.median(secs['off']):.3f} | {statistics.median(secs['on']):.3f} "
            f"| {sum(secs['off']):.1f} | {sum(secs['on']):.1f} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-game", type=int, default=40, help="deals of each game in each set, at most")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--memory", type=float, default=2.0, help="GiB per deal")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--out", default=str(ROOT / "results" / "bench" / "strict-probe"), help="path, no extension")
    args = parser.parse_args()
    tasks = [(*chosen, args.timeout, int(args.memory * 2**30)) for chosen in deal_sets(args.per_game)]
    began = time.time()
    with mp.get_context("fork").Pool(args.jobs, initializer=warm_up) as pool:
        rows = sorted(pool.imap_unordered(_solve_both, tasks), key=lambda r: (r["set"], r["game"], r["deal"]))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_suffix(".csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    text = [
        "# The strict probe under PySolFC's rules: each deal without it and with it",
        "",
        f"Budget per deal: {args.timeout:g} s, {args.memory:g} GiB, each variant.  Jobs: {args.jobs}.  "
        f"Wall time of the run: {time.time() - began:.0f} s.",
        f"Machine: {machine()}.",
        f"Command: `python benchmarks/bench_strict_probe.py {' '.join(sys.argv[1:])}`",
        "",
        "| set | game | deals | decided without | decided with | won by the probe | verdicts that differ "
        "| median s without | median s with | total s without | total s with |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *summary(rows, "unknown"),
        *summary(rows, "needs a card back"),
        "",
        "*unknown*: deals PySolFC's batches left unknown (the first of each game, by number); *needs a card back*:",
        'deals PySolFC\'s rules win and the strict rules lose on the same layout.  "Verdicts that differ": decided',
        "both ways and not alike (must be 0).  Per-deal rows: `" + out.with_suffix(".csv").name + "` beside this file.",
    ]
    out.with_suffix(".md").write_text("\n".join(text) + "\n")
    print("\n".join(text))


if __name__ == "__main__":
    main()
