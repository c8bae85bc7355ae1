"""Line and branch coverage of the kernels (solver/kernels) by the fast tier, with numba's compiler off.

    nice -n 15 python benchmarks/kernel_coverage.py                 # the fast tier: about 35 minutes on 2 cores
    nice -n 15 python benchmarks/kernel_coverage.py tests/kernels   # the tests of one folder only

Numba compiles the kernels to machine code, where coverage sees nothing, so the run sets
``NUMBA_DISABLE_JIT=1``: every ``@njit`` function is then the plain Python one, run as written
(uint64 arithmetic wraps as compiled; numpy only warns of the overflow, and the run ignores those
warnings).  It runs the fast tier (``pytest -m "not slow"``) in one process under
``coverage run --branch --source=solver/kernels`` and writes results/kernel-coverage.md: the command,
the machine, the date, the totals, a table per module and the lines and branches left unreached.

Without the compiler the kernels run tens to hundreds of times slower: the fast tier's few long searches
would take hours, and the tests that hold a search to a clock fail.  So the run leaves out the tests named
in ``LEFT_OUT``, each with why: those over 30 s without the compiler (measured with this script's
``--cap 30``; each is a long search of kernels that quicker tests run too) and those that assert what a time
budget reaches.  It fails any other test that takes more than ``--cap`` seconds (default 300), so that a
new long test shows in the report rather than stretching the run.  Tests are left out by name (function
and parameters), not by file, so that they stay left out wherever their file moves.  Kernel work done in
child processes (the batch tests' workers) is not measured.

The module is also the pytest plugin that does the leaving out and the cap (``-p benchmarks.kernel_coverage``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "results" / "kernel-coverage.md"
SOURCE = "solver/kernels"

# Tests of the fast tier left out of the run, by name (function and parameters), each with why.
_LONG = "over 30 s without the compiler"
_CLOCK = "asserts what a time budget reaches, which is less without the compiler"
LEFT_OUT = {
    # Long searches and sweeps (with the compiler, under 3 s each but the first piles' game's sweeps, up to
    # 13 s), of kernels that the fast tier's other tests run on smaller deals.
    "test_solver_agrees_with_reference_search[unusual]": _LONG,
    "test_restarts_agree_with_reference_search[unusual]": _LONG,
    "test_a_narrow_beam_wins_a_deal_the_old_beams_left_unknown_at_60_seconds": _LONG,
    "test_beams_with_two_copies_of_each_card_find_real_wins_and_leave_verdicts_alone[unusual]": _LONG,
    "test_a_search_stopped_many_times_ends_as_one_never_stopped[good-measure-6880-one_run]": _LONG,
    "test_a_search_stopped_many_times_ends_as_one_never_stopped[bakers-dozen-58-one_run]": _LONG,
    "test_a_search_stopped_many_times_ends_as_one_never_stopped[good-measure-6880-layered]": _LONG,
    "test_a_search_stopped_many_times_ends_as_one_never_stopped[bakers-dozen-9x7-13-layered]": _LONG,
    "test_an_undecided_search_writes_its_checkpoint_and_the_next_goes_on": _LONG,
    "test_a_write_cut_short_leaves_the_last_checkpoint": _LONG,
    "test_progress_goes_to_standard_error_and_counts_up": _LONG,
    "test_a_full_lost_deal_is_still_proved_lost_after_forgetting[98]": _LONG,
    "test_a_full_lost_deal_is_still_proved_lost_after_forgetting[836]": _LONG,
    "test_the_piles_game_kernel_agrees_with_the_plain_model[4-ripple-fan]": _LONG,
    "test_the_piles_game_kernel_agrees_with_the_plain_model[5-cruel]": _LONG,
    "test_the_piles_game_kernel_agrees_with_the_plain_model[5-ripple-fan]": _LONG,
    "test_the_piles_game_kernel_agrees_with_the_plain_model[13-cruel]": _LONG,
    "test_the_piles_game_kernel_agrees_with_the_plain_model[13-ripple-fan]": _LONG,
    "test_every_position_the_piles_game_calls_lost_has_no_win[cruel-shape0-200]": _LONG,
    "test_every_position_the_piles_game_calls_lost_has_no_win[ripple-fan-shape1-120]": _LONG,
    "test_the_piles_game_never_fires_on_a_position_that_can_be_won[cruel-shape0-150]": _LONG,
    "test_the_piles_game_never_fires_on_a_position_that_can_be_won[ripple-fan-shape1-6]": _LONG,
    "test_restarts_do_not_search_proven_lost_positions_again": _LONG,
    "test_a_search_whose_old_and_new_tables_would_not_fit_together_grows_instead_of_forgetting": _LONG,
    "test_good_measure_82_is_lost_in_the_suit_blind_game": _LONG,
    "test_a_walk_in_slices_keeps_to_each_slice_s_capacity_work_and_still_proves_good_measure_82_lost": _LONG,
    "test_good_measure_505_is_lost_once_five_ranks_are_named": _LONG,
    "test_good_measure_538_is_won_by_the_walk_of_the_real_game": _LONG,
    "test_a_batch_record_says_which_search_proved_a_loss": _LONG,
    # Clocks: right with the compiler, wrong without it, whatever the kernels do.
    "test_winrate_on_pysolfc_s_own_layouts": _CLOCK,  # a deal won in its seconds is left unknown
    "test_unknown_when_the_memory_budget_runs_out": _CLOCK,  # the time runs out before the memory
    "test_timeout_holds_on_a_deal_that_never_finishes": _CLOCK,  # a search slice overshoots the deadline
}

# --- the pytest plugin (loaded into the measured run with -p benchmarks.kernel_coverage) --------------------

_CAP_ENV, _TIMES_ENV = "KERNEL_COVERAGE_CAP", "KERNEL_COVERAGE_TIMES"


def pytest_runtest_setup(item):
    """Each test's lines and branches in a context of its own, named by its node id, so that a figure without
    some tests can be read from the data (``coverage json --contexts``)."""
    import coverage

    cov = coverage.Coverage.current()
    if cov is not None:
        cov.switch_context(item.nodeid)


def pytest_collection_modifyitems(config, items):
    left = set(LEFT_OUT)
    kept = [item for item in items if item.name not in left]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.name in left])
        items[:] = kept


class _OverCap(BaseException):
    """Raised into a test that runs past the cap (a BaseException, so that no ``except Exception`` eats it)."""


def _over_cap(signum, frame):
    raise _OverCap


if os.environ.get(_CAP_ENV):

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(item):
        cap = float(os.environ[_CAP_ENV])
        old = signal.signal(signal.SIGALRM, _over_cap)
        signal.setitimer(signal.ITIMER_REAL, cap)
        began = time.perf_counter()
        outcome = yield
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        seconds = time.perf_counter() - began
        over = outcome.excinfo is not None and isinstance(outcome.excinfo[1], _OverCap)
        if os.environ.get(_TIMES_ENV):
            with open(os.environ[_TIMES_ENV], "a") as times:
                times.write(f"{item.nodeid}\t{seconds:.2f}\t{'over the cap' if over else ''}\n")
        if over:  # a fresh exception: the one raised by the signal may sit in a frame pytest cannot show
            outcome.force_exception(RuntimeError(f"over the cap of {cap:g} s without the compiler"))


# --- the run and its report ---------------------------------------------------------------------------------


def _pytest_args(tests: list[str]) -> list[str]:
    return [
        "-m", "pytest", "-n", "0", "-p", "benchmarks.kernel_coverage", "-p", "no:cacheprovider",
        "-m", "not slow", "-q", "-W", "ignore:overflow encountered in scalar:RuntimeWarning", *tests,
    ]  # fmt: skip


def _percent(hit: int, total: int) -> str:
    return f"{100 * hit / total:.1f}%" if total else "-"


def _ranges(lines: list[int]) -> str:
    """Line numbers as ranges: 3-5, 9."""
    parts, start = [], None
    for i, line in enumerate(lines):
        if start is None:
            start = line
        if i + 1 == len(lines) or lines[i + 1] != line + 1:
            parts.append(str(start) if start == line else f"{start}-{line}")
            start = None
    return ", ".join(parts)


def report(data: dict, command: tuple[str, str], seconds: float, summary: str, cap: float, slowest: list[str]) -> str:
    totals = data["totals"]
    lines_hit, lines_all = totals["covered_lines"], totals["num_statements"]
    branches_hit, branches_all = totals["covered_branches"], totals["num_branches"]
    from benchmarks.bench_solve import machine

    out = [
        "# Coverage of the kernels by the fast tier, numba's compiler off",
        "",
        f"Command: `{command[0]}`, which runs `NUMBA_DISABLE_JIT=1 python {command[1]}`.",
        f"Machine: {machine()}, coverage {_coverage_version()}.",
        f"Date: {datetime.date.today().isoformat()}; wall time {seconds / 60:.1f} min; pytest: {summary}.",
        "",
        f"**Lines {_percent(lines_hit, lines_all)} ({lines_hit} of {lines_all}), branches "
        f"{_percent(branches_hit, branches_all)} ({branches_hit} of {branches_all}); "
        f"coverage's combined figure {totals['percent_covered']:.1f}%.**",
        "",
        "The fast tier (`pytest -m 'not slow'`) in one process with `NUMBA_DISABLE_JIT=1`, under",
        f"`coverage run --branch --source={SOURCE}`, but for the {len(LEFT_OUT)} tests of `LEFT_OUT` in",
        f"benchmarks/kernel_coverage.py (listed below: {sum(w == _LONG for w in LEFT_OUT.values())} take over 30 s "
        f"each without the compiler, {sum(w == _CLOCK for w in LEFT_OUT.values())} assert",
        f"what a clock allows), and with a cap of {cap:g} s on every other test.  Kernel work in child processes",
        "is not measured.",
        "",
        "| module | lines | missed | line cover | branches | missed | branch cover |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    files = sorted(data["files"].items())
    for name, f in files:
        s = f["summary"]
        out.append(
            f"| {Path(name).name} | {s['num_statements']} | {s['missing_lines']} | "
            f"{_percent(s['covered_lines'], s['num_statements'])} | {s['num_branches']} | "
            f"{s['num_branches'] - s['covered_branches']} | {_percent(s['covered_branches'], s['num_branches'])} |"
        )
    out += [
        "",
        "## Unreached",
        "",
        "Lines never run, and branches never taken (`line->line`, `exit`: out of the function), each with",
        "its line.  A comment at that line, or beside it, says why the code cannot take it, where it cannot.",
        "",
    ]
    for name, f in files:
        missing, branches = f["missing_lines"], f["missing_branches"]
        if not missing and not branches:
            continue
        source = (ROOT / name).read_text().splitlines()
        out.append(f"- **{Path(name).name}**")
        if missing:
            out.append(f"  - lines: {_ranges(missing)}")
        for a, b in branches:  # each with its line, where the code says why it is not taken, if it knows
            out.append(f"  - branch {a}->{b if b > 0 else 'exit'}: `{source[a - 1].strip()}`")
    if slowest:
        out += ["", "## Slowest tests of the run", "", *slowest]
    out += ["", "## Left out", "", *(f"- `{name}`: {why}" for name, why in LEFT_OUT.items())]
    return "\n".join(out) + "\n"


def _coverage_version() -> str:
    import coverage

    return coverage.__version__


def _run_command(data_file: Path, tests: list[str]) -> list[str]:
    run = [sys.executable, "-m", "coverage", "run", "--branch", f"--source={SOURCE}", f"--data-file={data_file}"]
    return [*run, *_pytest_args(tests)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tests", nargs="*", default=["tests"], help="test paths (default: tests)")
    parser.add_argument("--cap", type=float, default=300, help="seconds a test may take (default 300)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--times", type=Path, help="also write each test's seconds here (tab-separated)")
    parser.add_argument("--data", type=Path, help="keep coverage's data here (each test a context)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data_file, times = Path(tmp) / ".coverage", Path(tmp) / "times.tsv"
        env = dict(os.environ, NUMBA_DISABLE_JIT="1", **{_CAP_ENV: str(args.cap), _TIMES_ENV: str(times)})
        began = time.perf_counter()
        output = []  # pytest's, shown as it comes and kept for its summary line
        with subprocess.Popen(
            _run_command(data_file, args.tests), cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
        ) as pytest_run:
            for line in pytest_run.stdout:
                sys.stdout.write(line)
                output.append(line)
        seconds = time.perf_counter() - began
        found = re.findall(r"^=*\s*(\d+ (?:passed|failed).*?) in [\d.]+s", "".join(output), re.M)
        summary = found[-1] if found else f"exit status {pytest_run.returncode}"
        as_json = Path(tmp) / "coverage.json"
        subprocess.run(
            [sys.executable, "-m", "coverage", "json", f"--data-file={data_file}", "-o", str(as_json), "-q"],
            cwd=ROOT, check=True,
        )  # fmt: skip
        rows = [line.split("\t") for line in times.read_text().splitlines()] if times.exists() else []
        if args.times:
            args.times.write_text("".join("\t".join(r) + "\n" for r in rows))
        rows.sort(key=lambda r: -float(r[1]))
        slowest = [f"- {float(r[1]):.1f} s{' (' + r[2] + ')' if r[2] else ''}: `{r[0]}`" for r in rows[:10]]
        tests = " ".join(args.tests) if args.tests != ["tests"] else ""
        command = f"nice -n 15 python benchmarks/kernel_coverage.py {tests}".strip()
        inner = shlex.join(_run_command(Path(".coverage"), args.tests)[1:])
        text = report(json.loads(as_json.read_text()), (command, inner), seconds, summary, args.cap, slowest)
        if args.data:
            shutil.copy(data_file, args.data)
    args.out.write_text(text)
    print(f"{args.out}: {next(line for line in text.splitlines() if line.startswith('**'))}")
    return pytest_run.returncode


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
