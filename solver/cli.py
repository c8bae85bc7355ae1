"""The ``bakers`` command: one subcommand per concern, each a thin layer over the API."""

from __future__ import annotations

import functools
import json
import math
import os
import re
import shlex
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from .game.board import BoardError, parse_board
from .game.cards import SUITS, card_text
from .game.deals import DealNumberError, deal
from .game.deals import pysolfc_layout as pysolfc_layout_of
from .game.engine import describe_moves
from .game.premises import LAYERS_PREMISES, unsupported
from .game.rules import (
    GAMES,
    Rules,
    UnknownGameError,
    UnsupportedPysolfcError,
    get_rules,
    redeals_count_text,
    with_pysolfc,
    with_worrying_back,
)
from .game.variants import RulesFileError, load_rules_file
from .words import PYSOLFC_LAYOUT, RULES_LAYOUT, UNKNOWN

if TYPE_CHECKING:
    from .search import Progress, SolveResult

# The solver, the batch and the pages are imported inside the commands that use them: numba takes a good
# part of a second to load, which --help and a refused argument need not wait for.

GAME_HELP = f"One of: {', '.join(GAMES)}; or a variant's rules file, FILE.toml."


class InputError(click.ClickException):
    """Bad input: a clear message and exit status 2, never a traceback."""

    exit_code = 2


def parse_memory(text: str) -> int:
    """``2G``, ``512M``, ``1.5GiB``, ``300000000`` -> bytes."""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kKmMgGtT]?)(i?[bB])?\s*", text)
    if not m:
        raise InputError(f"--memory {text!r}: give bytes or a size like 512M or 2G")
    scale = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[m.group(2).lower()]
    value = int(float(m.group(1)) * scale)
    if value < 1 << 16:
        raise InputError(f"--memory {text!r}: at least 64K is needed")
    machine = _machine_memory()
    if machine and value > machine:
        raise InputError(f"--memory {text!r}: this machine has {machine / 2**30:.1f} GiB")
    return value


def _machine_memory() -> int:
    """Bytes of memory the machine has (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 0


def check_timeout(timeout: float) -> None:
    if not (math.isfinite(timeout) and timeout > 0):
        raise InputError(f"--timeout {timeout}: give a positive number of seconds")


def _rules_or_fail(game: str, worrying_back: bool, pysolfc: bool = False) -> Rules:
    """A known game's rules, or a variant's from a rules file (``*.toml``); PySolFC's, with ``pysolfc``."""
    if pysolfc and worrying_back:
        raise InputError(
            "give at most one of --pysolfc and --worrying-back (PySolFC's rules say where cards come back)"
        )
    try:
        rules = load_rules_file(game) if game.lower().endswith(".toml") else get_rules(game)
        if pysolfc:
            rules = with_pysolfc(rules)
    except (UnknownGameError, RulesFileError, UnsupportedPysolfcError) as err:
        raise InputError(str(err)) from None
    return with_worrying_back(rules) if worrying_back else rules


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
            "--timeout", "-t", type=float, default=60.0, show_default=True, help="Seconds per deal before `unknown`."
        ),
        click.option("--memory", "-m", default="2G", show_default=True, help="Memory per deal, e.g. 512M, 2G."),
        click.option("--max-states", type=int, default=None, help="Positions per deal before `unknown`."),
        click.option("--html", "html_file", type=click.Path(dir_okay=False, writable=True), help=html_help),
    ]

    def apply(command: Command) -> Command:
        for option in reversed(options):  # as if stacked in this order: the first one on top
            command = option(command)
        return command

    return apply


THOUGHTFUL = (
    "The solver sees the face-down cards (it decides the thoughtful game, as Blake & Gent and Solvitaire do); "
    "a player who does not see them may lose a deal said to be won."
)


@click.group()
@click.version_option(package_name="bakers-solver")
def main() -> None:
    """Exhaustive solver for the Baker's Dozen family of solitaire games."""


@main.command("games")
def games_command() -> None:
    """List every game of the family with its rules."""
    header = (
        "game",
        "PySolFC",
        "decks",
        "piles",
        "founded",
        "Kings",
        "tableau builds",
        "moves",
        "a space takes",
        "redeals",
    )
    rows = [header]
    for rules in GAMES.values():
        base = "K" if rules.foundations_down else "A"
        rows.append((
            rules.name,
            str(rules.pysol_id or "-"),
            str(rules.decks),
            _shape(rules),
            f"{rules.founded} {base}" if rules.founded else "-",
            "to bottom" if rules.kings_to_bottom else "where dealt",
            rules.building(),
            ("runs, 2^spaces" if rules.runs_by_spaces else "runs") if rules.sequence_moves else "one card",
            rules.space_text(),
            redeals_count_text(rules.redeals),
        ))  # fmt: skip
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    click.echo("Foundations build up by suit from the Ace (down from the King where 'founded' says K);")
    click.echo("two decks have two foundations per suit, and every card twice.")
    for rules in GAMES.values():
        if rules.face_down_rows:
            click.echo(f"{rules.title} deals {rules.face_down_text()}: the solver sees them (the thoughtful game).")


def _shape(rules) -> str:
    """``13 x 4``; ``10 x 5+`` where the first piles get one card more (Vineyard)."""
    even = rules.piles * rules.cards_per_pile == rules.cards - rules.founded
    return f"{rules.piles} x {rules.cards_per_pile}" if even else f"{rules.piles} x {rules.cards_per_pile - 1}+"


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
    default=600.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds between checkpoints while searching.",
)
@click.option(
    "--report-every",
    "report_every",
    type=float,
    default=None,
    metavar="SECONDS",
    help="Every SECONDS, print the time, positions searched and walked, and memory held to standard error.",
)
def solve_command(
    game, number, board_file, timeout, memory, max_states, as_json, one_run, layered, checkpoint_file,
    checkpoint_every, report_every, html_file, pysolfc_layout, worrying_back, pysolfc,
) -> None:  # fmt: skip
    """Decide one deal: won (with the winning moves), lost, or unknown."""
    rules = _rules_or_fail(game, worrying_back, pysolfc)
    pysolfc_layout = pysolfc_layout or (pysolfc and number is not None)  # PySolFC's rules, on its layout
    if (number is None) == (board_file is None):
        raise InputError("give exactly one of --deal NUMBER and --board FILE")
    check_timeout(timeout)
    if max_states is not None and max_states <= 0:
        raise InputError("--max-states must be positive")
    if report_every is not None and not report_every > 0:
        raise InputError("--report-every must be a positive number of seconds")
    if pysolfc_layout and number is None:
        raise InputError("--pysolfc-layout needs --deal NUMBER")
    if one_run and layered:
        raise InputError("give at most one of --one-run and --layered")
    if checkpoint_file is not None and not (one_run or layered):
        raise InputError(
            "--checkpoint needs --one-run or --layered: the default schedule's restarts, beams and walks keep "
            "state that a checkpoint does not hold"
        )
    if not checkpoint_every > 0:
        raise InputError("--checkpoint-every must be a positive number of seconds")
    try:
        if pysolfc_layout:
            board = pysolfc_layout_of(rules, number).validate(rules)
            source = f"PySolFC deal {number}, laid out exactly as PySolFC deals it"
        elif number is not None:
            board = deal(rules, number)
            source = f"PySolFC deal {number}" if rules.ranks == 13 else f"deal {number}"
        else:
            board = parse_board(board_file.read(), rules).validate(rules)
            source = f"board {board_file.name}"
    except (BoardError, DealNumberError) as err:
        raise InputError(str(err)) from None
    except UnicodeDecodeError:
        raise InputError(f"board {board_file.name}: not a text file (UTF-8)") from None
    problem = unsupported(rules)
    if problem:
        raise InputError(f"{rules.title}: {problem}")
    from .search import Budget, solve
    from .search.layered import can_search

    if layered and not can_search(rules, board):
        raise InputError(f"{rules.title}: --layered: {LAYERS_PREMISES}")
    budget = Budget(seconds=timeout, memory=parse_memory(memory), states=max_states)
    _warm_up()
    report = None if report_every is None else _print_progress
    run = functools.partial(
        solve, board, rules, budget, one_run=one_run, layered=layered, report=report, report_every=report_every or 10.0
    )
    result = run() if checkpoint_file is None else _solve_with_checkpoint(run, Path(checkpoint_file), checkpoint_every)
    if as_json:
        record = _json_record(rules, source, number, board, result)
        record["layout"] = PYSOLFC_LAYOUT if pysolfc_layout else RULES_LAYOUT  # as PySolFC deals it, or the rules'
        click.echo(json.dumps(record))
    else:
        _print_text(rules, source, board, result)
    if html_file:
        from .html import replay_page

        _write_page(html_file, lambda: replay_page(board, rules, result, source, budget), not as_json)


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
def winrate_command(
    game,
    deal_range,
    count,
    jobs,
    output,
    timeout,
    memory,
    max_states,
    scheduler,
    progress,
    html_file,
    pysolfc_layout,
    shorten,
    worrying_back,
    pysolfc,
) -> None:
    """Solve a batch of deals and estimate the win rate, with its 95% Wilson interval.

    Records are appended to the output as deals are decided; rerunning the
    same command resumes where an interrupted run stopped."""
    import numpy as np
    from tqdm import tqdm

    from .batch import BatchError, check_output, parse_deals, read_outcome, run_batch
    from .search import Budget

    rules = _rules_or_fail(game, worrying_back, pysolfc)
    pysolfc_layout = pysolfc_layout or pysolfc  # PySolFC's rules, on its layouts
    if (deal_range is None) == (count is None):
        raise InputError("give exactly one of --deals RANGE and --count N")
    if count is not None and count < 1:
        raise InputError("--count must be at least 1")
    check_timeout(timeout)
    if max_states is not None and max_states <= 0:
        raise InputError("--max-states must be positive")
    if jobs is not None and jobs < 1:
        raise InputError("--jobs must be at least 1")
    try:
        numbers = parse_deals(deal_range if deal_range is not None else f"1-{count}")
    except BatchError as err:
        raise InputError(str(err)) from None
    budget = Budget(seconds=timeout, memory=parse_memory(memory), states=max_states)
    path = Path(output or f"winrate-{rules.name}.jsonl")
    try:
        check_output(path)  # before compiling and drawing a bar
    except BatchError as err:
        raise InputError(str(err)) from None
    bar = None

    def show(record, tally) -> None:
        low, high = tally.interval
        rate = "n/a" if tally.won + tally.lost == 0 else f"{100 * tally.rate:.1f}%"
        bar.set_postfix_str(f"won {tally.won} lost {tally.lost} unknown {tally.unknown}; "
                            f"rate {rate} [{100 * low:.1f}%, {100 * high:.1f}%]")  # fmt: skip
        bar.n = tally.deals  # the deals a resumed run found recorded count too, as in the tally
        bar.refresh()

    retried = 0

    def started(tally, unknown_retried: int) -> None:
        nonlocal retried
        retried = unknown_retried
        if retried:
            click.echo(f"Solving again {retried} deals recorded unknown under a smaller budget.", err=True)
        bar.n = tally.deals
        bar.refresh()

    layout = PYSOLFC_LAYOUT if pysolfc_layout else RULES_LAYOUT
    stopped = 0  # the exit status of a run stopped by a signal: 128 + its number
    previous = signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        if scheduler is None:
            _warm_up()  # where a signal stops it too, with the same summary (nothing decided yet)
        bar = tqdm(total=len(numbers), unit="deal", disable=not progress, dynamic_ncols=True)
        workers = jobs or os.cpu_count() or 1
        outcome = run_batch(
            rules, numbers, budget, path, workers, scheduler, show, started, layout=layout, shorten=shorten
        )
    except BatchError as err:
        raise InputError(str(err)) from None
    except (KeyboardInterrupt, _Stopped) as stop:
        stopped = 128 + (stop.signum if isinstance(stop, _Stopped) else signal.SIGINT)
        try:  # what was decided is in the output, flushed record by record
            outcome = read_outcome(path, rules, numbers, layout)
        except BatchError as err:  # stopped before the batch had checked its output: nothing of it to sum up
            click.echo(f"Stopped: {err}", err=True)
            sys.exit(stopped)
    finally:
        if bar is not None:
            bar.close()
        signal.signal(signal.SIGTERM, previous)
    tally, seconds = outcome.tally, np.sort(outcome.seconds)
    decided = f" ({tally.deals} of {len(numbers)} decided before the stop)" if stopped else ""
    layout_text = " (PySolFC's own layouts)" if pysolfc_layout and not pysolfc else ""
    click.echo(f"{rules.title}, deals {deal_range or f'1-{count}'}{layout_text}{decided}: {tally.text()}")
    if rules.face_down_rows:
        click.echo(THOUGHTFUL)
    if len(seconds):
        click.echo(
            f"Time per deal: median {seconds[len(seconds) // 2]:.3f} s, max {seconds[-1]:.3f} s, "
            f"total {seconds.sum():.1f} s.  Records: {path}"
        )
    if retried:
        click.echo(f"{retried} deals recorded unknown under a smaller budget were solved again.")
    if stopped:
        click.echo("Stopped: rerun the same command to resume.")
        sys.exit(stopped)
    if html_file:
        from .html import report_page

        command = " ".join(["bakers", *(shlex.quote(arg) for arg in sys.argv[1:])])
        _write_page(html_file, lambda: report_page(rules, outcome, command), True)


def _solve_with_checkpoint(run, path: Path, every: float):
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


class _Stopped(Exception):
    """SIGTERM, raised in the batch process so that it stops as Ctrl-C stops it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _stop_on_sigterm(signum, frame) -> None:
    raise _Stopped(signum)


def _write_page(path: str, make, say: bool) -> None:
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
    click.echo(
        f"{progress.seconds:9.1f} s  {progress.states:>14,} positions  {progress.walked:>13,} walked  "
        f"{progress.memory / 2**30:6.2f} GiB  run {progress.runs}",
        err=True,
    )


def _json_move(move, text: str) -> dict:
    if move.is_redeal:
        return {"from": "redeal", "to": "redeal", "cards": 0, "text": text}
    back = {"foundation": -move.source} if move.source < 0 else {}  # which, from 1 (two decks: a suit's two)
    # Foundations by alternate colour: which one the card goes onto, from 1 in suit order C D H S.
    onto = {"to_foundation": move.foundation + 1} if move.foundation is not None else {}
    return {
        "from": "foundation" if move.source < 0 else move.source + 1,
        **back,
        "to": "foundation" if move.target is None else move.target + 1,
        **onto,
        "cards": move.count,
        "text": text,
    }


def _json_record(rules, source, number, board, result: SolveResult) -> dict:
    texts = describe_moves(board, result.moves, rules)
    return {
        "game": rules.name,
        "deal": number,
        "source": source,
        "board": board.to_text(rules),
        "note": board.note,
        **({"thoughtful": THOUGHTFUL} if board.down or rules.face_down_rows else {}),
        **result.record(),  # the fields a batch record has; "moves" here is the list itself
        "moves": [_json_move(m, t) for m, t in zip(result.moves, texts, strict=True)],
    }


def _print_text(rules, source, board, result: SolveResult) -> None:
    click.echo(f"{rules.title}, {source}")
    click.echo(rules.describe())
    if board.note:
        click.echo(f"Note: {board.note}")
    if any(board.foundations) and board.founded:  # by alternate colour: each one's top card, of any suit
        ups = [f"{SUITS[i]}: {card_text(held[-1])}" for i, held in enumerate(board.founded) if held]
        click.echo(f"Foundations: {', '.join(ups)}")
    elif any(board.foundations):
        ups = [card_text((top - 1) * 4 + suit) for suit, top in board.foundations_by_suit() if top]
        click.echo(f"Foundations: {' '.join(ups)}")
    if rules.redeals:
        click.echo(f"Redeals left: {redeals_count_text(board.redeals)}")
    click.echo("Piles, each from its bottom card to its playable card (the last):")
    for p, pile in enumerate(board.piles, 1):
        click.echo(f"  pile {p:2d}: {' '.join(board.card_text(c) for c in pile) or '(empty)'}")
    if board.down or rules.face_down_rows:
        click.echo(f"Face-down cards are in brackets. {THOUGHTFUL}")
    click.echo(f"Verdict: {result.verdict} ({result.explanation()})")
    click.echo(f"States searched: {result.states:,}   time: {result.seconds:.3f} s")
    if result.moves:
        click.echo(f"Winning moves ({len(result.moves)}):")
        for i, text in enumerate(describe_moves(board, result.moves, rules), 1):
            click.echo(f"  {i:3d}. {text}")


if __name__ == "__main__":
    sys.exit(main())
