"""Where a batch of easy deals spends its time: cProfile of one worker's whole path per deal.

    python benchmarks/profile_batch.py --label before      # results/profile-batch-before.txt
    python benchmarks/profile_batch.py --deals 1-2000 --label after

One process (``jobs=1``: the deals run in this process, so the profile sees
dealing, board checks, table set-up, the search, the line's shortening and
replay, and the record), Spanish Patience II with worrying back by default:
the easy game of the million-deal run.  Compiled kernels are loaded before
the profile starts.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import io
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Budget  # noqa: E402
from solver.batch import parse_deals, run_batch  # noqa: E402
from solver.game.rules import with_worrying_back  # noqa: E402
from solver.search import warm_up  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="spanish-patience-ii", choices=list(GAMES))
    parser.add_argument("--plain", action="store_true", help="without worrying back")
    parser.add_argument("--deals", default="1-500")
    parser.add_argument("--label", required=True, help="names the output: results/profile-batch-LABEL.txt")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    rules = GAMES[args.game] if args.plain else with_worrying_back(GAMES[args.game])
    numbers = parse_deals(args.deals)
    warm_up()
    # Batch options this version has (shortening, where it is optional): the batch's own defaults.
    options = {k: v.default for k, v in inspect.signature(run_batch).parameters.items() if k == "shorten"}
    profile = cProfile.Profile()
    with tempfile.TemporaryDirectory() as tmp:
        began = time.perf_counter()
        profile.enable()
        outcome = run_batch(rules, numbers, Budget(seconds=60), Path(tmp) / "records.jsonl", jobs=1)
        profile.disable()
        wall = time.perf_counter() - began
        records = outcome.records()
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(args.top)
    body = text.getvalue().replace(str(ROOT) + "/", "")
    lines = [
        f"# Profile of one batch worker: {rules.title}, PySolFC deals {args.deals}",
        f"Machine: {machine()}.",
        f"Command: python benchmarks/profile_batch.py {' '.join(sys.argv[1:])}",
        f"Batch options: {options or 'none'}.",
        f"{len(records)} deals in {wall:.2f} s under the profiler: {len(records) / wall:.0f} deals/s.",
        "",
        body,
    ]
    out = ROOT / "results" / f"profile-batch-{args.label}.txt"
    out.write_text("\n".join(lines))
    print("\n".join(lines[:5]))
    print(f"Written: {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
