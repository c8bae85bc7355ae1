"""The ``bakers`` command: one subcommand per concern, each a thin layer over the API.

A command builds its request from the options (:mod:`solver.requests`, where every check lives), runs it,
and prints what it found (:mod:`solver.report`).
"""

from __future__ import annotations

import functools
import json
import shlex
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from .game.rules import GAMES
from .report import games_table, progress_line, solve_record, solve_text, tally_line, winrate_summary
from .requests import CHECKPOINT_EVERY, MEMORY, TIMEOUT, InputError, SolveRequest, WinrateRequest
from .words import UNKNOWN

if TYPE_CHECKING:
    from .batch import BatchOutcome
    from .search import Progress, SolveResult
    from .stats import WinRate

# The solver, the batch and the pages are imported inside the functions that use them: numba takes a good
# part of a second to load, which --help and a refused argument need not wait for.

GAME_HELP = f"One of: {', '.join(GAMES)}; or a variant's rules file, FILE.toml."

Command = TypeVar("Command", bound=Callable)


def shared_options(*, html_help: str, layout_help: str) -> Callable[[Command], Command]:
    """The options ``solve`` and ``winrate`` share, listed first by --help; each command words its own page
    and what PySolFC's layout means to it."""
    options = [
        click.option("--game", "-g", required=True, help=GAME_HELP),
        click.option("--worrying-back", is_flag=True, help="Let a foundation's top card come back to the tableau."),
        click.option(
            "--pysolfc",
            is_flag=True,
            help="Play the game exactly as PySolFC does, its rules and its layout (docs/pysolfc.md): in all but "
            "Indefatigable a foundation's top card may come back, Ripple Fan moves runs.",
        ),
        click.option("--pysolfc-layout", is_flag=True, help=layout_help),
        click.option(
            "--timeout", "-t", type=float, default=TIMEOUT, show_default=True, help="Seconds per deal before `unknown`."
        ),
        click.option("--memory", "-m", default=MEMORY, show_default=True, help="Memory per deal, e.g. 512M, 2G."),
        click.option("--max-states", type=int, default=None, help="Positions per deal before `unknown`."),
        click.option("--html", "html_file", type=click.Path(dir_okay=False, writable=True), help=html_help),
    ]

    def apply(command: Command) -> Command:
        for option in reversed(options):  # as if stacked in this order: the first one on top
            command = option(command)
        return command

    return apply


@click.group()
@click.version_option(package_name="bakers-solver")
def main() -> None:
    """Exhaustive solver for the Baker's Dozen family of solitaire games."""


@main.command("games")
def games_command() -> None:
    """List every game of the family with its rules."""
    click.echo(games_table())


@main.command("solve")
@shared_options(
    html_help="Also write a self-contained page that shows the deal and steps through the solution.",
    layout_help="Solve the deal exactly as PySolFC lays it out, to play the answer there: in Good Measure it may "
    "leave a King above another card, which the rules (and the default) slide to the bottom.",
)
@click.option("--deal", "-d", "number", type=int, help="A PySolFC game number.")
@click.option("--board", "-b", "board_file", type=click.File("r"), help="A board file ('-' for standard input).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option(
    "--one-run",
    is_flag=True,
    help="The root's capacity test to the end, then one depth-first search to the end: no restarts, beams "
    "or walks, all the memory for one table. Slower to find wins; for deals the default leaves unknown, "
    "given hours and many GiB.",
)
@click.option(
    "--layered",
    is_flag=True,
    help="The root's capacity test to the end, then the layered search: breadth-first by progress, holding "
    "one layer of positions at a time (exactly, no hashing) instead of every position met. Decides the "
    "same deals as --one-run; for lost deals whose depth-first table would overflow memory. Games with "
    "single-card moves down and spaces that take nothing: Baker's Dozen, Good Measure and rules files on "
    "them.",
)
@click.option(
    "--checkpoint",
    "checkpoint_file",
    type=click.Path(dir_okay=False),
    help="With --one-run or --layered: write the search's whole state to FILE every --checkpoint-every "
    "seconds, when it stops undecided and on Ctrl-C or SIGTERM; the same command run again goes on from FILE, "
    "to the same verdict after the same positions. FILE takes as much disk as the search takes memory (the "
    "layered search also keeps its finished layers in the folder FILE.layers).",
)
@click.option(
    "--checkpoint-every",
    type=float,
    default=CHECKPOINT_EVERY,
    show_default=True,
    metavar="SECONDS",
    help="Seconds between checkpoints while searching.",
)
@click.option(
    "--report-every",
    type=float,
    default=None,
    metavar="SECONDS",
    help="Every SECONDS, print the time, positions searched and walked, and memory held to standard error.",
)
def solve_command(**options) -> None:
    """Decide one deal: won (with the winning moves), lost, or unknown."""
    request = SolveRequest.from_options(**options)
    result = _solve(request)
    click.echo(json.dumps(solve_record(request, result)) if request.as_json else solve_text(request, result))
    if request.html:
        from .html import replay_page

        budget = request.limits.budget()
        page = functools.partial(replay_page, request.board, request.rules, result, request.source, budget)
        _write_page(request.html, page, say=not request.as_json)


@main.command("winrate")
@shared_options(
    html_help="Also write a self-contained report: the rate, its interval, plots, the lost and unknown deals.",
    layout_help="Solve each deal exactly as PySolFC lays it out (see solve --help); the records say so.",
)
@click.option("--deals", "-d", "deal_range", help="PySolFC numbers, e.g. 1-1000 or 1-10,50-60.")
@click.option("--count", "-n", type=int, help="Deals 1..N (instead of --deals).")
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes [default: all cores].")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    help="Records: JSON lines, or a compact table (a tenth the size) if the name ends in .tsv "
    "[default: winrate-GAME.jsonl].",
)
@click.option("--scheduler", help="A Dask scheduler address (tcp://host:8786) to run the batch on.")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show a progress bar.")
@click.option(
    "--shorten",
    is_flag=True,
    help="Shorten each winning line before recording its length, as solve does (slower; the verdicts are the same).",
)
def winrate_command(**options) -> None:
    """Solve a batch of deals and estimate the win rate, with its 95% Wilson interval.

    Records are appended to the output as deals are decided; rerunning the
    same command resumes where an interrupted run stopped."""
    request = WinrateRequest.from_options(**options)
    outcome, stopped, retried = _run_batch(request)
    click.echo(winrate_summary(request, outcome, bool(stopped), retried))
    if stopped:
        sys.exit(stopped)
    if request.html:
        from .html import report_page

        command = " ".join(["bakers", *(shlex.quote(arg) for arg in sys.argv[1:])])
        _write_page(request.html, functools.partial(report_page, request.rules, outcome, command), say=True)


def _solve(request: SolveRequest) -> SolveResult:
    """Compile the kernels if need be, then solve the deal; through its checkpoint file, if it has one."""
    from .search import solve

    _warm_up()
    run = functools.partial(
        solve,
        request.board,
        request.rules,
        request.limits.budget(),
        one_run=request.one_run,
        layered=request.layered,
        report=None if request.report_every is None else _print_progress,
        report_every=request.report_every or 10.0,  # read only with a report
    )
    if request.checkpoint is None:
        return run()
    return _solve_with_checkpoint(run, request.checkpoint, request.checkpoint_every)


def _solve_with_checkpoint(run: Callable[..., SolveResult], path: Path, every: float) -> SolveResult:
    """Run ``solve`` with a checkpoint at ``path``: Ctrl-C and SIGTERM ask the search to write it and stop
    (it stops between two slices, a fraction of a second apart, once the file is written)."""
    from .search.checkpoint import Checkpoint, CheckpointError, SearchStopped

    asked: list[int] = []

    def ask_to_stop(signum, frame) -> None:
        asked.append(signum)

    checkpoint = Checkpoint(path, every, stop_requested=lambda: bool(asked))
    previous = {signum: signal.signal(signum, ask_to_stop) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        result = run(checkpoint=checkpoint)
    except CheckpointError as err:
        raise InputError(str(err)) from None
    except SearchStopped as stop:
        click.echo(
            f"Stopped after {stop.positions:,} positions; the checkpoint is {stop.path}: run the same command "
            "again to go on.",
            err=True,
        )
        sys.exit(128 + asked[0])
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if checkpoint.resumed_from:
        click.echo(f"Went on from {path}, where {checkpoint.resumed_from:,} positions had been searched.", err=True)
    if result.verdict == UNKNOWN:
        click.echo(f"The checkpoint is {path}: run the same command again to go on.", err=True)
    return result


def _run_batch(request: WinrateRequest) -> tuple[BatchOutcome, int, int]:
    """Run the batch under a progress bar.  Returns its outcome, the exit status of the signal that stopped
    it (128 + its number; 0 if none did), and how many deals recorded unknown it solved again.  Ctrl-C and
    SIGTERM stop it with what it decided so far."""
    from .batch import BatchError, run_batch

    bar = None
    previous = signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        if request.scheduler is None:
            _warm_up()  # where a signal stops it too, with the same summary (nothing decided yet)
        bar = _ProgressBar(len(request.numbers), request.progress)
        outcome = run_batch(
            request.rules, request.numbers, request.limits.budget(), request.output, request.workers,
            request.scheduler, bar.show, bar.started, layout=request.layout, shorten=request.shorten,
        )  # fmt: skip
        return outcome, 0, bar.retried
    except BatchError as err:
        raise InputError(str(err)) from None
    except (KeyboardInterrupt, _Stopped) as stop:
        stopped = 128 + (stop.signum if isinstance(stop, _Stopped) else signal.SIGINT)
        return _outcome_so_far(request, stopped), stopped, bar.retried if bar else 0
    finally:
        if bar is not None:
            bar.close()
        signal.signal(signal.SIGTERM, previous)


def _outcome_so_far(request: WinrateRequest, stopped: int) -> BatchOutcome:
    """What a stopped batch decided, from its output (flushed record by record); if the batch had not yet
    checked its output there is nothing to sum up, and the command ends here with status ``stopped``."""
    from .batch import BatchError, read_outcome

    try:
        return read_outcome(request.output, request.rules, request.numbers, request.layout)
    except BatchError as err:
        click.echo(f"Stopped: {err}", err=True)
        sys.exit(stopped)


class _ProgressBar:
    """A batch's progress bar, with its tally so far; it keeps how many deals are solved again."""

    def __init__(self, total: int, shown: bool):
        from tqdm import tqdm

        self.bar = tqdm(total=total, unit="deal", disable=not shown, dynamic_ncols=True)
        self.retried = 0

    def show(self, record: dict, tally: WinRate) -> None:
        self.bar.set_postfix_str(tally_line(tally))
        self.bar.n = tally.deals  # the deals a resumed run found recorded count too, as in the tally
        self.bar.refresh()

    def started(self, tally: WinRate, unknown_retried: int) -> None:
        self.retried = unknown_retried
        if unknown_retried:
            click.echo(f"Solving again {unknown_retried} deals recorded unknown under a smaller budget.", err=True)
        self.bar.n = tally.deals
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


class _Stopped(Exception):
    """SIGTERM, raised in the batch process so that it stops as Ctrl-C stops it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _stop_on_sigterm(signum, frame) -> None:
    raise _Stopped(signum)


def _write_page(path: str, make: Callable[[], str], say: bool) -> None:
    """Write the page that ``make`` returns to ``path``; a path that cannot be written is bad input."""
    try:
        Path(path).write_text(make(), encoding="utf-8")
    except OSError as err:
        raise InputError(f"--html {path}: {err.strerror or err}") from None
    if say:
        click.echo(f"Page: {path}")


def _warm_up() -> None:
    """Load the compiled kernels, compiling them first where this version has none yet, and say so: it
    takes about half a minute, once."""
    import time

    from .search import is_warm, warm_up

    if is_warm():  # each kernel loads from the cache in milliseconds when first called
        return
    click.echo("Compiling the solver's kernels (first run of this version only, about half a minute)...", err=True)
    began = time.perf_counter()
    warm_up(report=lambda line: click.echo(line, err=True))
    click.echo(f"Compiled in {time.perf_counter() - began:.0f} s.", err=True)


def _print_progress(progress: Progress) -> None:
    click.echo(progress_line(progress), err=True)


if __name__ == "__main__":
    sys.exit(main())
