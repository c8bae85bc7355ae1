"""Search every `lost` deal of a batch again with the plain reference search, which prunes nothing.

The fast solver proves a deal lost with pruning rules (each proved in solver/kernels/); this checks
those verdicts against `solver.game.engine.reference_search`, an exhaustive search over exact
positions that shares none of them.  A deal it wins is a wrong verdict: the script says so and
exits 1.  A deal with more positions than --max-states is counted as not checked, never as agreed.

    python benchmarks/check_lost.py results/winrate-ripple-fan.jsonl
    python benchmarks/check_lost.py results/million-spanish-patience-ii-worrying-back-lost.txt \\
        -g spanish-patience-ii --worrying-back -o results/check-lost-million-sp2wb.md

The input is a records file of `bakers winrate` (its lost deals, each deal's last record) or a text
file of deal numbers, one a line (then --game names the game).

`--layered` searches each deal with the layered search instead (solver/kernels/layered.py): exact
positions, no hash keys, no lost marks, no forgetting, but the same pruning rules as the depth-first
search, so it checks how the depth-first search kept its positions, not its proofs; and it reaches
whole deals of Baker's Dozen and Good Measure, which the reference search cannot.

    python benchmarks/check_lost.py results/winrate-good-measure-60s.jsonl --layered --timeout 600
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tqdm import tqdm  # noqa: E402

from benchmarks.bench_solve import machine  # noqa: E402
from solver.game.board import Board  # noqa: E402
from solver.game.deals import deal, pysolfc_layout  # noqa: E402
from solver.game.engine import is_solution, reference_search  # noqa: E402
from solver.game.rules import GAMES, Rules, get_rules, with_pysolfc, with_worrying_back  # noqa: E402
from solver.records import VERDICTS, read_ledger  # noqa: E402

AGREES, WINS, NOT_CHECKED = "no win", "WON: the lost verdict is wrong", "over the cap, not checked"


def rules_named(name: str) -> Rules:
    """The rules a batch record names: a game, a game with worrying back, or a game under PySolFC's rules."""
    base = name.removesuffix("-worrying-back").removesuffix("-pysolfc")
    if base not in GAMES:
        sys.exit(f"{name}: not one of the project's games (a rules file's records are not checked here)")
    if name.endswith("-pysolfc"):
        return with_pysolfc(GAMES[base])
    return GAMES[base] if base == name else with_worrying_back(GAMES[base])


def laid_out(rules: Rules, number: int) -> Board:
    """Deal ``number`` as the records of ``rules`` lay it out: PySolFC's own layout under its rules."""
    return pysolfc_layout(rules, number) if rules.pysolfc else deal(rules, number)


def lost_of_records(path: Path) -> tuple[Rules, list[int]]:
    ledger = read_ledger(path)
    if len(ledger.identities) != 1:
        sys.exit(f"{path}: expected the records of one batch, found {len(ledger.identities)} identities")
    (identity,) = ledger.identities
    rules = rules_named(identity.game)
    if identity.layout != ("pysolfc" if rules.pysolfc else "rules"):
        sys.exit(f"{path}: deals laid out as {identity.layout!r}; only the layout of their rules is checked here")
    if identity.rules is not None and rules.digest() != identity.rules:  # records before 895349e carry none
        sys.exit(f"{path}: the records' rules are not today's {rules.name}")
    latest = ledger.latest(identity.game)
    return rules, latest["deal"][latest["verdict"] == VERDICTS.index("lost")].tolist()


def lost_of_list(path: Path, game: str | None, worrying_back: bool) -> tuple[Rules, list[int]]:
    if game is None:
        sys.exit(f"{path} is a list of deals: name its game with --game")
    try:
        rules = with_worrying_back(get_rules(game)) if worrying_back else get_rules(game)
    except ValueError as err:  # an unknown game
        sys.exit(str(err))
    try:
        return rules, [int(line) for line in path.read_text().split()]
    except ValueError:
        sys.exit(f"{path}: expected one deal number a line")


def check(job: tuple[Rules, int, int]) -> tuple[int, str, float]:
    rules, number, max_states = job
    start = time.perf_counter()
    try:
        outcome = AGREES if reference_search(laid_out(rules, number), rules, max_states) is None else WINS
    except RuntimeError:  # past max_states positions
        outcome = NOT_CHECKED
    return number, outcome, time.perf_counter() - start


def check_layered(job: tuple[Rules, int, float, int]) -> tuple[int, str, float]:
    """The layered search itself, not ``solve()``: no root capacity test before it, no other search."""
    from solver.kernels.codes import LOST, WON
    from solver.search.layered import Layered
    from solver.search.result import Budget
    from solver.search.root import Root
    from solver.search.warm import warm_up

    rules, number, seconds, memory = job
    warm_up()
    board = laid_out(rules, number)
    start = time.perf_counter()
    search = Layered(Root(board, rules), Budget(seconds=seconds, memory=memory))
    status, _ = search.search(start + seconds)
    if status == WON and not is_solution(board, search.line, rules):
        raise AssertionError(f"deal {number}: the layered search's winning line does not replay")
    outcome = {LOST: AGREES, WON: WINS}.get(status, NOT_CHECKED)
    return number, outcome, time.perf_counter() - start


def report(rules: Rules, source: Path, results: list[tuple[int, str, float]], searched_by: str, wall: float) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    counts = {outcome: [n for n, o, _ in results if o == outcome] for outcome in (AGREES, WINS, NOT_CHECKED)}
    slowest = max(results, key=lambda r: r[2]) if results else (0, "", 0.0)
    lines = [
        f"# The lost deals of `{source.name}`, searched again",
        "",
        f"Game `{rules.name}`; {len(results)} lost deals; {searched_by}.  Machine: {machine()}; "
        f"commit {commit.stdout.strip() or '?'}; {wall:.0f} s wall.",
        "",
        "| outcome | deals |",
        "|---|---|",
        *(f"| {outcome} | {len(deals)} |" for outcome, deals in counts.items()),
        "",
        f"Slowest: deal {slowest[0]}, {slowest[2]:.1f} s.",
    ]
    for outcome in (WINS, NOT_CHECKED):
        if counts[outcome]:
            lines += ["", f"{outcome}: {' '.join(map(str, counts[outcome]))}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="a records file (.jsonl, .tsv) or a list of deal numbers")
    parser.add_argument("-g", "--game", help="the game of a list of deals")
    parser.add_argument("--worrying-back", action="store_true", help="a list's game with worrying back")
    parser.add_argument("--max-states", type=int, default=2_000_000, help="positions a deal at the most")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--layered", action="store_true", help="search with the layered search (module text)")
    parser.add_argument("--timeout", type=float, default=600.0, help="--layered: seconds a deal at the most")
    parser.add_argument("--memory", type=float, default=4.0, help="--layered: GiB a deal at the most")
    parser.add_argument("-o", "--output", type=Path, help="also write the report here (markdown)")
    args = parser.parse_args()
    if not args.source.is_file():
        sys.exit(f"{args.source}: no such file")
    if args.source.suffix in (".jsonl", ".tsv"):
        rules, lost = lost_of_records(args.source)
    else:
        rules, lost = lost_of_list(args.source, args.game, args.worrying_back)
    if args.layered:
        from solver.game.premises import LAYERS_PREMISES
        from solver.search.layered import can_search

        if lost and not can_search(rules, laid_out(rules, lost[0])):
            sys.exit(f"{rules.title}: {LAYERS_PREMISES}")
        memory = int(args.memory * 2**30)
        work, jobs = check_layered, [(rules, n, args.timeout, memory) for n in lost]
        searched_by = f"the layered search (`--layered`), at most {args.timeout:.0f} s and {args.memory:g} GiB a deal"
    else:
        work, jobs = check, [(rules, n, args.max_states) for n in lost]
        searched_by = f"`solver.game.engine.reference_search`, at most {args.max_states:,} positions a deal"
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        done = pool.map(work, jobs, chunksize=1 if args.layered else 8)
        results = list(tqdm(done, total=len(lost), unit="deal", file=sys.stderr))
    text = report(rules, args.source, results, searched_by, time.perf_counter() - start)
    print(text, end="")
    if args.output:
        args.output.write_text(text)
    if any(outcome == WINS for _, outcome, _ in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
