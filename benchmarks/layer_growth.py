"""How the layers of lost Good Measure deals grow, and what the deals that resist every run would need.

    python benchmarks/layer_growth.py                      # the deals below, 900 s and 8 GiB each
    python benchmarks/layer_growth.py -d 6991,1889 -t 300 -m 4

The layered search (solver/search/layered.py) meets a deal's positions by progress P, one layer at a
time, each layer an exact set.  So its layer sizes are the distinct positions of each progress that the
pruned graph holds: the shape of the space a lost proof must cover.  Each deal here is searched by the
layered search alone, within the budget; for each layer done it records the positions, the seconds the
layer took, what the search held when the layer ended, and the children already waiting for the next
layer.  Deals that end give whole profiles (a rise, a peak, a fall); the deals that resist every run
(Good Measure 1889, 5231, 6978) give the rise, which the whole profiles let us read.

Per-layer rows go to results/layer-growth.csv as each layer ends (an interrupted run keeps them), the
tables to results/layer-growth.md; what the tables show is written there by hand, below them, from a run.
"""

from __future__ import annotations

import csv
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_layered import deal_arguments  # noqa: E402
from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Budget, deal  # noqa: E402
from solver.kernels.codes import LOST, WON  # noqa: E402
from solver.search.layered import Layered  # noqa: E402
from solver.search.root import Root  # noqa: E402
from solver.search.warm import warm_up  # noqa: E402

# Lost deals of growing size (6991 and 9300 lost by the depth-first search after 2.6 and 11 million
# positions; 6658 lost by the suit-blind walk after 34 million depth-first positions, good-measure-
# unknowns-600s.jsonl), then the three that no run has decided.
DEALS = "6991,9300,6658,1889,5231,6978"
FIELDS = ["deal", "layer", "positions", "seconds", "held_mib", "waiting_next"]


def profile(number: int, rules, budget: Budget, handle) -> dict:
    """Search one deal layered; write a row as each layer ends; return the deal's summary."""
    rows = csv.DictWriter(handle, FIELDS)
    search = Layered(Root(deal(rules, number), rules), budget)
    began = time.perf_counter()
    last = {"at": began, "layers": 0}

    def tick(done: Layered) -> None:
        if len(done.sizes) == last["layers"]:
            return  # a slice within a layer, not a layer's end
        now = time.perf_counter()
        layer = max(done.sizes)
        waiting = sum(len(parents) for _, parents in done.pending.get(layer + 1, []))
        rows.writerow({"deal": number, "layer": layer, "positions": done.sizes[layer],
                       "seconds": round(now - last["at"], 2), "held_mib": round(done.bytes() / 2**20, 1),
                       "waiting_next": waiting})  # fmt: skip
        handle.flush()
        last.update(at=now, layers=len(done.sizes))

    status, reason = search.search(began + budget.seconds, tick)
    verdict = {WON: "won", LOST: "lost"}.get(status, f"unknown ({reason})")
    pending = {layer: sum(len(p) for _, p in chunks) for layer, chunks in getattr(search, "pending", {}).items()}
    return {"deal": number, "verdict": verdict, "positions": search.positions(), "sizes": dict(search.sizes),
            "seconds": time.perf_counter() - began, "peak_mib": search.peak / 2**20, "pending": pending}  # fmt: skip


def summary_row(result: dict) -> str:
    sizes = result["sizes"]
    layers = sorted(sizes)
    widest = max(layers, key=sizes.get) if layers else 0
    pairs = zip(layers, layers[1:], strict=False)
    ratios = [sizes[b] / sizes[a] for a, b in pairs if b == a + 1 and sizes[a] >= 1000]
    rise = max(ratios, default=0.0)
    last = f"{layers[-1]}: {sizes[layers[-1]]:,}" if layers else "-"
    waiting = sum(result["pending"].values())
    return (f"| {result['deal']} | {result['verdict']} | {result['positions']:,} | {result['seconds']:.0f} | "
            f"{result['peak_mib']:,.0f} | {layers[0] if layers else '-'}-{layers[-1] if layers else '-'} | "
            f"{widest}: {sizes.get(widest, 0):,} | {rise:.2f} | {last} | {waiting:,} |")  # fmt: skip


def layer_table(results: list[dict]) -> list[str]:
    """Positions of each layer (thousands), a column a deal: the shapes side by side."""
    layers = sorted({layer for result in results for layer in result["sizes"]})
    head = "| layer | " + " | ".join(str(r["deal"]) for r in results) + " |"
    lines = [head, "|---" * (len(results) + 1) + "|"]
    for layer in layers:
        cells = [f"{r['sizes'][layer] / 1000:,.1f}" if layer in r["sizes"] else "" for r in results]
        lines.append(f"| {layer} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    args, budget = deal_arguments(__doc__, DEALS, "layer-growth.md")
    rules = GAMES[args.game]
    warm_up()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    header = [
        f"# Layer growth of lost and unresolved deals: {rules.title}",
        "",
        f"`python benchmarks/layer_growth.py -g {args.game} -d {args.deals} -t {args.timeout:g} -m {args.memory:g}`; "
        f"machine: {machine()}; commit {commit.stdout.strip() or '?'}.  Each deal searched by the layered search "
        "alone (no root test before it), one after the other.  Positions are a layer's distinct positions "
        "(progress P, solver/kernels/layered.py); held is the most the search held at once; the rise is the "
        "largest ratio of one layer to the one before (layers of 1,000 positions or more); waiting are the "
        "children already found for layers not yet opened when the search ended (with repeats).",
        "",
        "| deal | verdict | positions | s | held MiB | layers | widest layer | rise | last layer | waiting |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    csv_path = args.output.with_suffix(".csv")
    results = []
    with csv_path.open("w", newline="") as handle:
        csv.DictWriter(handle, FIELDS).writeheader()
        for number in [int(n) for n in args.deals.split(",")]:
            results.append(profile(number, rules, budget, handle))
            print(summary_row(results[-1]), flush=True)
            text = header + [summary_row(r) for r in results]
            text += ["", "Positions of each layer, in thousands:", "", *layer_table(results), ""]
            args.output.write_text("\n".join(text))


if __name__ == "__main__":
    main()
