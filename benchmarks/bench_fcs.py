"""Freecell Solver and this solver side by side on PySolFC Good Measure deals.

    python benchmarks/bench_fcs.py --deals 1-500 --timeout 2 --jobs 2

Needs `fc-solve` (Debian: freecell-solver-bin); without it the script says
so and exits 0.  Each worker takes deals in turn and runs both solvers on
each deal, one right after the other, so that machine drift cancels out.
Freecell Solver's winning lines are replayed by our reference engine, so a
disagreement can be traced to one side.  Writes results/bench_fcs.md and a
per-deal CSV beside it.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Budget, deal, solve  # noqa: E402
from solver.batch import parse_deals  # noqa: E402
from solver.game.engine import Move, is_solution  # noqa: E402
from solver.search import warm_up  # noqa: E402

RULES = GAMES["good-measure"]
_MOVE = re.compile(r"Move (?:a card|1 cards) from stack (\d+) to (?:the foundations|stack (\d+))")
_STATES = re.compile(r"Total number of states checked is (\d+)")


def run_fcs(board_text: str, seconds: float) -> dict:
    """fc-solve on one board: verdict, states, seconds, and whether its line replays in our engine."""
    with tempfile.NamedTemporaryFile("w", suffix=".board") as f:
        f.write(board_text)
        f.flush()
        began = time.perf_counter()
        try:
            out = subprocess.run(
                ["fc-solve", "--game", "good_measure", "-p", "-t", "-m", f.name],
                capture_output=True, text=True, timeout=seconds,
            ).stdout  # fmt: skip
        except subprocess.TimeoutExpired:
            return {"verdict": "unknown", "states": None, "seconds": seconds, "replays": None}
        elapsed = time.perf_counter() - began
    states = _STATES.search(out)
    record = {"states": int(states.group(1)) if states else None, "seconds": elapsed, "replays": None}
    if "This game is solveable." in out:
        moves = [Move(int(a), int(b) if b else None) for a, b in _MOVE.findall(out)]
        record.update(verdict="won", moves=len(moves), line=moves)
    elif "I could not solve this game." in out:
        record["verdict"] = "lost"
    else:
        record["verdict"] = "unknown"
    return record


def compare(task: tuple[int, float]) -> dict:
    number, seconds = task
    board = deal(RULES, number)
    ours = solve(board, RULES, Budget(seconds=seconds))
    theirs = run_fcs(board.to_text(), seconds)
    line = theirs.pop("line", None)
    if line is not None:
        theirs["replays"] = is_solution(board, line, RULES)
    return {
        "deal": number,
        "ours": ours.verdict,
        "ours_s": round(ours.seconds, 4),
        "ours_states": ours.positions,
        "ours_moves": len(ours.moves),
        "fcs": theirs["verdict"],
        "fcs_s": round(theirs["seconds"], 4),
        "fcs_states": theirs["states"],
        "fcs_moves": theirs.get("moves"),
        "fcs_replays": theirs["replays"],
        "note": board.note,
    }


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run(numbers: list[int], seconds: float, jobs: int) -> tuple[list[dict], float]:
    began = time.perf_counter()
    tasks = [(n, seconds) for n in numbers]
    if jobs == 1:
        rows = list(map(compare, tasks))
    else:
        with mp.get_context("fork").Pool(jobs) as pool:
            rows = list(pool.imap_unordered(compare, tasks))
    return sorted(rows, key=lambda r: r["deal"]), time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-500")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per deal, for each solver")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--speed-deals", default="1-100", help="deals for the 1-core vs N-core speed rows")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench_fcs")
    args = parser.parse_args()
    if shutil.which("fc-solve") is None:
        print("fc-solve is not installed (Debian: apt-get install freecell-solver-bin); skipping.")
        return
    warm_up()
    rows, _ = run(parse_deals(args.deals), args.timeout, args.jobs)
    with open(args.out.with_suffix(".csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    both = [r for r in rows if r["ours"] != "unknown" and r["fcs"] != "unknown"]
    disagree = [r for r in both if r["ours"] != r["fcs"]]
    bad_lines = [r["deal"] for r in rows if r["fcs_replays"] is False]
    ratios = [r["fcs_s"] / max(r["ours_s"], 1e-4) for r in both]

    def count(key: str, verdict: str) -> int:
        return sum(r[key] == verdict for r in rows)

    speed = []
    for jobs in sorted({1, args.jobs}):
        sub, wall = run(parse_deals(args.speed_deals), args.timeout, jobs)
        for key, label in (("ours", "this solver"), ("fcs", "Freecell Solver")):
            # Freecell Solver reports states only when it finishes: rate over those deals.
            counted = [r for r in sub if r[f"{key}_states"] is not None]
            rate = sum(r[f"{key}_states"] for r in counted) / max(sum(r[f"{key}_s"] for r in counted), 1e-9)
            busy = sum(r[f"{key}_s"] for r in sub)
            speed.append(f"| {label} | {jobs} | {rate:,.0f} | {len(sub) / busy * jobs:.1f} | {wall:.0f} |")
    lines = [
        f"# Freecell Solver and this solver: PySolFC Good Measure deals {args.deals}",
        "",
        f"Budget: {args.timeout:g} s per deal for each solver (Freecell Solver is killed at the limit).  "
        f"Jobs: {args.jobs}, each running both solvers on a deal, one after the other.",
        f"Machine: {machine()}.  Freecell Solver: Debian freecell-solver-bin, `fc-solve --game good_measure`.",
        f"Command: `python benchmarks/bench_fcs.py {' '.join(sys.argv[1:])}`",
        "",
        "| solver | won | lost | unknown |",
        "|---|---|---|---|",
        f"| this solver | {count('ours', 'won')} | {count('ours', 'lost')} | {count('ours', 'unknown')} |",
        f"| Freecell Solver | {count('fcs', 'won')} | {count('fcs', 'lost')} | {count('fcs', 'unknown')} |",
        "",
        f"Decided by both: {len(both)}; verdicts disagree on {len(disagree)}"
        + (f" (deals {', '.join(str(r['deal']) for r in disagree)})" if disagree else "")
        + f".  Freecell Solver lines that do not replay in our engine: {len(bad_lines)}"
        + (f" (deals {', '.join(map(str, bad_lines))})" if bad_lines else "")
        + ".",
        f"Time ratio Freecell Solver / ours on deals both decided: median {statistics.median(ratios):.2f}, "
        f"p90 {_pct(ratios, 0.9):.2f}."
        if ratios
        else "",
        (
            "States searched, median over deals both decided: ours "
            f"{statistics.median(r['ours_states'] for r in both):,.0f}, "
            f"Freecell Solver {statistics.median(r['fcs_states'] or 0 for r in both):,.0f}."
        )
        if both
        else "",
        "",
        f"Speed on deals {args.speed_deals}: states/s while solving (Freecell Solver: over the deals it"
        " finished, the only ones it reports states for); deals/s over all time spent solving, times jobs;"
        " wall: the whole run of both solvers.",
        "",
        "| solver | jobs | states/s | deals/s | wall s |",
        "|---|---|---|---|---|",
        *speed,
    ]
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
