"""Batch throughput, side by side: ``bakers winrate`` deals per second at this tree and at an older commit.

    python benchmarks/bench_batch.py                                  # against 9a9344e, deals 1-20000
    python benchmarks/bench_batch.py --baseline HEAD~3 --deals 1-2000 --game bakers-dozen --plain

Each tree runs the same command as a user would (a fresh process, the
batch's own defaults, ``--jobs`` workers) into a temporary file; its wall
time counts everything but compiling, which a first small run of each
tree does before any clock starts.  The older commit is checked out with
``git worktree`` into a temporary folder.  The verdict counts must agree:
a faster batch that decides differently is a bug, not a speed-up.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_solve import machine  # noqa: E402

CLI = "import sys; from solver.cli import main; sys.argv[0] = 'bakers'; main()"


def winrate(tree: Path, args: list[str], output: Path) -> tuple[float, str]:
    """Wall seconds of one ``bakers winrate`` run of ``tree``, and its summary line."""
    # One numba cache for both trees, kept between runs: each version's kernels have their own folder in it.
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(Path(tempfile.gettempdir()) / "bench-batch-numba"))
    command = [sys.executable, "-c", CLI, "winrate", *args, "--no-progress", "-o", str(output)]
    began = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=tree)
    return time.perf_counter() - began, done.stdout.splitlines()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="9a9344e", help="the older commit")
    parser.add_argument("--game", default="spanish-patience-ii")
    parser.add_argument("--plain", action="store_true", help="without --worrying-back")
    parser.add_argument("--deals", default="1-20000")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", default="60")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench_batch.md")
    args = parser.parse_args()
    game = ["-g", args.game] + ([] if args.plain else ["--worrying-back"])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = tmp / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.baseline], check=True)
        try:
            for name, tree in ((f"`{args.baseline}`", base), ("this tree", ROOT)):
                winrate(tree, [*game, "-d", "1-2"], tmp / f"warm-{tree.name}.jsonl")  # compiles, unclocked
                records = tmp / f"{tree.name}.jsonl"
                batch = [*game, "-d", args.deals, "-j", str(args.jobs), "-t", args.timeout]
                wall, summary = winrate(tree, batch, records)
                deals = len(records.read_text().splitlines())
                rows.append((name, wall, deals / wall, re.sub(r"; win rate.*", "", summary.split(": ", 1)[1])))
                print(rows[-1], flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=True)
    title = f"{args.game}{'' if args.plain else ' with worrying back'}"
    lines = [
        f"# Batch throughput: `bakers winrate`, {title}, PySolFC deals {args.deals}, {args.jobs} jobs",
        "",
        f"Machine: {machine()}.",
        f"Command: `python benchmarks/bench_batch.py {' '.join(sys.argv[1:])}`",
        "",
        "| solver | wall s | deals/s | speed-up | verdicts |",
        "|---|---|---|---|---|",
        *[f"| {n} | {w:.1f} | {d:.1f} | {d / rows[0][2]:.2f}x | {v} |" for n, w, d, v in rows],
    ]
    if len({v for *_, v in rows}) > 1:
        lines += ["", "**The verdicts differ between the trees.**"]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
