"""Solve PySolFC deals of the named games and write a table under results/.

    python benchmarks/bench_solve.py                       # deals 1-200, 10 s and 2 GiB a deal
    python benchmarks/bench_solve.py --deals 1-50 --games good-measure --timeout 2

Each deal runs in a worker process (compiled kernels loaded once per worker,
before any clock starts).  Times are wall seconds inside ``solve``.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import GAMES, Budget  # noqa: E402
from solver.batch import solve_record  # noqa: E402
from solver.search import warm_up  # noqa: E402

NAMED_GAMES = ["bakers-dozen", "good-measure", "spanish-patience", "portuguese-solitaire"]
# Freecell Solver's solution lengths on these games (median), for comparison.
FCS_MEDIAN_MOVES = "110-190"
BIG_SEARCH = 1_000_000  # positions: a search this large has grown its table


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numba

    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, numba {numba.__version__}"
    )


def _init() -> None:
    warm_up()


def _solve_one(task: tuple[str, int, float, int]) -> dict:
    game, number, seconds, memory = task
    record = solve_record(game, number, Budget(seconds=seconds, memory=memory), shorten=True)
    record["worker_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return record


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def summarize(rows: list[dict], game: str) -> str:
    mine = [r for r in rows if r["game"] == game]
    count = {v: sum(r["verdict"] == v for r in mine) for v in ("won", "lost", "unknown")}
    times = [r["seconds"] for r in mine]
    positions, total = sum(r["states"] for r in mine), sum(times)
    lengths = [r["moves"] for r in mine if r["verdict"] == "won"]
    # The table's bytes per position, where a search is large enough for the table to have grown to it.
    per_position = [r["memory_mib"] * 2**20 / r["states"] for r in mine if r["states"] >= BIG_SEARCH]
    bytes_text = f"{statistics.median(per_position):.0f} ({len(per_position)})" if per_position else "-"
    return (
        f"| {game} | {len(mine)} | {count['won']} | {count['lost']} | {count['unknown']} "
        f"| {100 * (count['won'] + count['lost']) / max(1, len(mine)):.1f}% "
        f"| {statistics.median(times):.3f} | {_p(times, 0.9):.3f} | {positions / max(total, 1e-9):,.0f} "
        f"| {max(r['memory_mib'] for r in mine):,.0f} | {max(r['worker_rss_mib'] for r in mine):,.0f} "
        f"| {bytes_text} | {statistics.median(lengths) if lengths else '-'} "
        f"| {sum(r['found_by'] == 'beam' for r in mine)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=NAMED_GAMES, choices=list(GAMES))
    parser.add_argument("--deals", default="1-200", help="PySolFC numbers: FIRST-LAST, or a list like 3,7,10-20")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--memory", type=float, default=2.0, help="GiB per deal")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--out", default=str(ROOT / "results" / "bench_solve"), help="path without extension")
    args = parser.parse_args()
    numbers = []
    for part in args.deals.split(","):
        first, _, last = part.partition("-")
        numbers += range(int(first), int(last or first) + 1)
    tasks = [(g, n, args.timeout, int(args.memory * 2**30)) for g in args.games for n in numbers]
    began = time.time()
    with mp.get_context("fork").Pool(args.jobs, initializer=_init) as pool:
        rows = []
        for row in pool.imap_unordered(_solve_one, tasks):
            rows.append(row)
            if row["verdict"] == "unknown":
                print(f"  unknown: {row['game']} {row['deal']} ({row['reason']})", flush=True)
    rows.sort(key=lambda r: (args.games.index(r["game"]), r["deal"]))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_suffix(".csv"), "w", newline="") as f:
        fields = list(dict.fromkeys(key for row in rows for key in row))  # some games' records have more
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    table = [
        f"# Solver benchmark: PySolFC deals {args.deals}",
        "",
        f"Budget per deal: {args.timeout:g} s, {args.memory:g} GiB.  Jobs: {args.jobs}.  "
        f"Wall time of the run: {time.time() - began:.0f} s.",
        f"Machine: {machine()}.",
        f"Command: `python benchmarks/bench_solve.py {' '.join(sys.argv[1:])}`",
        "",
        "| game | deals | won | lost | unknown | decided | median s | p90 s | states/s | peak table MiB "
        "| peak worker RSS MiB | table bytes per position (deals) | median moves | won by a beam |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *[summarize(rows, g) for g in args.games],
        "",
        "states/s: depth-first positions over all the time spent, beams' time included (a beam's own",
        "positions are not counted as states).  Table bytes per position: the median, over the deals that",
        f"searched {BIG_SEARCH:,} positions or more, of the table's size over the positions searched (an entry",
        "is 16 bytes whatever the deck, at a load kept between 0.35 and 0.7; smaller searches sit in the",
        "table's first allocation).",
        f"Median solution length of Freecell Solver on these games, for comparison: {FCS_MEDIAN_MOVES} moves.",
        f"Per-deal rows: `{out.with_suffix('.csv').name}` beside this file.",
    ]
    out.with_suffix(".md").write_text("\n".join(table) + "\n")
    print("\n".join(table))


if __name__ == "__main__":
    main()
