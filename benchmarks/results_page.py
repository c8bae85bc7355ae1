"""Write results/winrate.md (the win-rate table to cite) and results/winrate.png from the records.

    python benchmarks/results_page.py

One row per game and rule set: strict (the game as ../shared/RULES.md states it, records of game NAME)
and PySolFC (as PySolFC plays it, `--pysolfc`, records of game NAME-pysolfc).  The MANIFEST below
says which records files (JSON lines, one a deal, as `bakers winrate` writes them) make each row:
the main batch first, then the files of hard deals settled later with more time.  A deal decided in
any of them is decided (a later file settles what an earlier one left unknown); a deal won in one
record and lost in another stops the script.  A row whose main file does not exist yet says so.

Nothing on the page is typed in by hand but the manifest's commands: the counts, the intervals, the
budgets and the commits come from the records and from git.  The picture needs the plot extra
(pip install -e '.[plot]'); --no-plot writes the page alone.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.game.deals import deal, pysolfc_layout  # noqa: E402
from solver.game.rules import GAMES, pysolfc_adds_moves_only, with_pysolfc  # noqa: E402
from solver.records import read_ledger  # noqa: E402
from solver.stats import WinRate  # noqa: E402
from solver.words import VERDICTS  # noqa: E402


@dataclass(frozen=True)
class Source:
    """One records file of a row, and the command that wrote it (one line)."""

    path: str  # relative to the repository
    command: str | None  # None: not written into the manifest yet
    note: str = ""  # how it was run beyond the command, in a few words


@dataclass(frozen=True)
class Row:
    """One row of the table: the records of ``game`` over deals ``first``-``last`` in ``sources``."""

    game: str  # the records' "game" field
    sources: tuple[Source, ...]  # the main batch first, then the files of deals settled later
    first: int = 1
    last: int = 10_000
    absent: str = "not run yet"  # what the row says while its main file does not exist


def pysolfc(name: str, last: int = 1000, then: str = "", beside: str = "a hard deal's search", probed: int = 0) -> Row:
    """The PySolFC row of game ``name``: deals 1-``last``, records in results/winrate-NAME-pysolfc.jsonl (deals
    1-1000 first, then 1001-``last``; ``then``: what ran after, into the same file); ``probed``: how many deals
    it left unknown were run again with the strict probe (solver/search/strict.py), into their own file."""
    path = f"results/winrate-{name}-pysolfc.jsonl"
    command = f"bakers winrate -g {name} --pysolfc -d 1-1000 -t 10 -j 1 -o {path}"
    if last > 1000:
        command += f", then the same with -d 1001-{last}"
    note = f"one worker, {beside} on the other core" + (f"; then {then}" if then else "")
    sources = (Source(path, command, note),)
    if probed:
        again = f"results/{name}-pysolfc-unknowns-probe.jsonl"
        sources += (
            Source(
                again,
                f"bakers winrate -g {name} --pysolfc -d <the {probed} unknown> -t 10 -j 1 -o {again}",
                "with the strict probe first, one worker, a benchmark or a test run on the other core",
            ),
        )
    return Row(f"{name}-pysolfc", sources, 1, last)


def single(name: str, command: str, note: str = "") -> Row:
    """A strict row made of one batch, results/winrate-NAME.jsonl."""
    return Row(name, (Source(f"results/winrate-{name}.jsonl", command, note),))


def redeal_row(name: str) -> Row:
    """Cruel's or Ripple Fan's strict row: one batch over deals 1-10000 since the first piles' game
    (solver/kernels/trap.py).  The earlier batches (results/winrate-NAME.jsonl at 10 s, then its unknown
    deals in results/NAME-unknowns-*.jsonl; results/winrate-history.md) agree with it deal for deal."""
    path = f"results/{name}-1-10000-piles.jsonl"
    note = "every deal decided; the earlier batches (10 s, then the deals they left unknown) agree deal for deal"
    return Row(name, (Source(path, f"bakers winrate -g {name} -d 1-10000 -t 60 -m 2G -j 2 -o {path}", note),))


GM = "bakers winrate -g good-measure"  # (Good Measure's commands, shortened)
THEN_60 = "then the same at -t 60, which retried the deals left unknown"

# The fifteen games in GAMES's order; for each, the strict row and the PySolFC row.  Commands as
# results/winrate-history.md gives them ("then the same at -t 60": the deals left unknown, run again
# into the same file).  A new batch: add its file and command here, run this script, commit the three.
MANIFEST: dict[str, dict[str, Row]] = {
    "bakers-dozen": {
        "strict": Row(
            "bakers-dozen",
            (
                Source("results/winrate-bakers-dozen.jsonl", "bakers winrate -g bakers-dozen -d 1-10000 -t 60 -j 1"),
                Source(
                    "results/settled.jsonl",
                    "bakers solve -g bakers-dozen -d N --json",
                    "with --one-run -t 1800 -m 16G for 3036; as it is for 417, 4242 and 6174",
                ),
            ),
        ),
        "pysolfc": pysolfc(
            "bakers-dozen", 10_000, beside="a hard deal's search (1-1000), another batch (1001-10000)", probed=32
        ),
    },
    "good-measure": {
        "strict": Row(
            "good-measure",
            (
                Source("results/winrate-good-measure-60s.jsonl", f"{GM} -d 1-10000 -t 60 -j 1", "for a while -j 2"),
                Source(
                    "results/settled.jsonl",
                    "bakers solve -g good-measure -d N --json",
                    "with --one-run -t 3600 -m 14G for 560, --one-run -t 600 for 6215, "
                    "--one-run -t 420 -m 8G for 1429 and 3741, -t 120 for 3751",
                ),
                Source(
                    "results/good-measure-60s-unknown-rerun.jsonl",
                    f"{GM} -d <the 35 unknown> -t 60 -j 1 -o results/good-measure-60s-unknown-rerun.jsonl",
                ),
                Source(
                    "results/good-measure-60s-unknowns-2a63bae.jsonl",
                    f"{GM} -d <the 32 unknown> -t 60 -j 1 -o results/good-measure-60s-unknowns-2a63bae.jsonl",
                ),
                Source(
                    "results/good-measure-unknowns-600s.jsonl",
                    f"{GM} -d <the 30 unknown> -t 600 -m 8G -j 1 -o results/good-measure-unknowns-600s.jsonl",
                    "in parts, two of them with -j 2",
                ),
                Source(
                    "results/good-measure-unknowns-1200s.jsonl",
                    f"{GM} -d 1187,1889,4512,4696 -t 1200 -m 16G -j 1 -o results/good-measure-unknowns-1200s.jsonl",
                    "then the same with -d 5231,6670,6978,8175",
                ),
                Source(
                    "results/good-measure-unknowns-2400s.jsonl",
                    f"{GM} -d 1889,4512,5231,6978,8175 -t 2400 -m 10G -j 2 "
                    "-o results/good-measure-unknowns-2400s.jsonl",
                ),
                Source(
                    "results/good-measure-unknowns-2700s-20g.jsonl",
                    f"{GM} -d 6978 -t 2700 -m 20G -j 1 -o results/good-measure-unknowns-2700s-20g.jsonl",
                ),
                Source(
                    "results/good-measure-unknowns-7800s.jsonl",
                    None,
                    "command not kept (its session's note was lost): 1889 and 6978, one deal a core",
                ),
                Source(
                    "results/good-measure-unknowns-4500s-16g.jsonl",
                    f"{GM} -d 5231 -t 4500 -m 16G -j 1 -o results/good-measure-unknowns-4500s-16g.jsonl",
                ),
            ),
        ),
        "pysolfc": pysolfc(
            "good-measure",
            10_000,
            "from deal 3063 on, -j 2 (the same command resumed once the other batch had ended)",
            beside="a hard deal's search (1-1000), another batch (1001-3062)",
            probed=686,
        ),
    },
    "spanish-patience": {
        "strict": single("spanish-patience", "bakers winrate -g spanish-patience -d 1-10000 -t 10"),
        "pysolfc": pysolfc(
            "spanish-patience",
            10_000,
            "-d <the 17 unknown> -t 60 -m 4G, which won 2; then the 15 left at -t 120 -m 4G with beams (5355a3e), "
            "which won all 15",
            beside="another batch",
        ),
    },
    "portuguese-solitaire": {
        "strict": single("portuguese-solitaire", "bakers winrate -g portuguese-solitaire -d 1-10000 -t 60 -j 1"),
        "pysolfc": pysolfc("portuguese-solitaire", 10_000, "-d <the 2 unknown> -t 60 -j 2, which won both"),
    },
    "spanish-patience-ii": {
        "strict": single("spanish-patience-ii", "bakers winrate -g spanish-patience-ii -d 1-10000 -t 10"),
        "pysolfc": pysolfc("spanish-patience-ii", 10_000),
    },
    "cruel": {
        "strict": redeal_row("cruel"),
        "pysolfc": pysolfc("cruel", 10_000, "-d <the 7 unknown> -t 120 -m 4G, which won 5", probed=2),
    },
    "ripple-fan": {
        "strict": redeal_row("ripple-fan"),
        "pysolfc": pysolfc("ripple-fan", 10_000, probed=139),
    },
    "perseverance": {
        "strict": single("perseverance", "bakers winrate -g perseverance -d 1-10000 -t 10 -j 2", THEN_60),
        "pysolfc": pysolfc("perseverance", 10_000, "-d <the 9 unknown> -t 60 -j 2, which won all 9"),
    },
    "indefatigable": {
        "strict": single("indefatigable", "bakers winrate -g indefatigable -d 1-10000 -t 10 -j 2"),
        "pysolfc": pysolfc("indefatigable", 10_000),
    },
    "royal-family": {
        "strict": single("royal-family", "bakers winrate -g royal-family -d 1-10000 -t 10 -j 2"),
        "pysolfc": pysolfc("royal-family", 10_000),
    },
    "castles-in-spain": {
        "strict": single("castles-in-spain", "bakers winrate -g castles-in-spain -d 1-10000 -t 10 -j 2", THEN_60),
        "pysolfc": pysolfc("castles-in-spain", 10_000, "-d <the 5 unknown> -t 60 -j 2, which won 4", probed=1),
    },
    "martha": {
        "strict": single("martha", "bakers winrate -g martha -d 1-10000 -t 10 -j 2"),
        "pysolfc": pysolfc("martha", 10_000, "-d <the 1 unknown> -t 60 -j 2, which won it"),
    },
    "vineyard": {
        "strict": Row(
            "vineyard",
            (
                Source("results/winrate-vineyard.jsonl", "bakers winrate -g vineyard -d 1-10000 -t 10 -j 2", THEN_60),
                Source(
                    "results/settled.jsonl",
                    "bakers solve -g vineyard -d N --one-run -t 600 -m 6G --json",
                    "23, 5697, 5982, 7291 and 9426, one at a time beside a hard deal's search; 2560 with -t 1200; "
                    "2130 with -t 14400 -m 18G --checkpoint (won after 1,601 s)",
                ),
            ),
        ),
        "pysolfc": pysolfc(
            "vineyard", 10_000, beside="a hard deal's search (1-1000), another batch (1001-10000)", probed=133
        ),
    },
    "unusual": {
        "strict": single(
            "unusual",
            "bakers winrate -g unusual -d 1-10000 -t 60 -j 2",
            "then -d <the 9 unknown> -t 120 -j 1 with beams in two-deck games (5355a3e), which won all 9",
        ),
        "pysolfc": pysolfc(
            "unusual", 10_000, "-d <the 15 unknown> -t 60 with beams in two-deck games (5355a3e), which won all 15"
        ),
    },
    "bakers-dozen-2-decks": {
        "strict": single(
            "bakers-dozen-2-decks",
            "bakers winrate -g bakers-dozen-2-decks -d 1-10000 -t 60 -j 2",
            "resumed from deal 3734 with a later commit",
        ),
        "pysolfc": pysolfc("bakers-dozen-2-decks", 10_000),
    },
}

RULE_SETS = {"strict": "strict", "pysolfc": "PySolFC"}
WON, LOST, UNKNOWN = (VERDICTS.index(v) for v in ("won", "lost", "unknown"))
MISSING = -1
SHOWN_MISSING = 12  # missing deals named in a row, at most (the rest counted)

HEADER = """\
# Win rates of PySolFC deals

Generated from the records beside this file by `python benchmarks/results_page.py` (its manifest
names the records files of each row and the commands that wrote them); do not edit it by hand.
The runs' dates, machines, timings and how each hard deal was settled: [winrate-history.md](winrate-history.md).

- **Rules**: *strict* plays the game as `../shared/RULES.md` states it; *PySolFC* as PySolFC plays
  it (`--pysolfc`, records of game `NAME-pysolfc`).  Deals are PySolFC's game numbers.
- **Win rate**: won among decided deals, won / (won + lost); *exact for these deals* when none is
  unknown (the interval is then for the game's rate over all deals).
- **95% interval**: the Wilson score interval over all the deals of the row, every unknown deal
  counted as lost for the lower bound and as won for the upper.
- **A row's records**: the main batch, then files of hard deals settled later with more time (listed
  below the table); a deal decided in any of them counts as decided.  A deal with no record is
  *missing*, named in the deals column and left out of the counts.
- **Budget per deal**: time and memory, from the records (*not recorded*: records older than that
  field, whose command gives it).
- **Machine**: not given per row.  A `won` is a winning line replayed by the engine and a `lost` an
  exhausted search: neither depends on the machine; only which deals a budget leaves unknown does.
- **Commit**: the last commit that changed each records file of the row, the main batch's first.
- Castles in Spain and Martha are *thoughtful*: the solver sees the face-down cards.
"""


class ResultsError(ValueError):
    """Records that cannot make a row: two verdicts of one deal that disagree, a file missing, two layouts."""


@dataclass
class Settled:
    """What one later file of a row decided that the files before it had left unknown."""

    source: Source
    won: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)


@dataclass
class RowResult:
    """One row of the table, counted."""

    name: str  # the game, a key of GAMES
    rules: str  # a key of RULE_SETS
    row: Row
    ran: bool  # whether the main file exists
    tally: WinRate = WinRate(0, 0, 0)
    missing: list[int] = field(default_factory=list)
    budgets: list[tuple | None] = field(default_factory=list)  # distinct (seconds, bytes, positions)
    source_budgets: list[list[tuple | None]] = field(default_factory=list)  # the same, one list a source
    commits: list[str] = field(default_factory=list)  # one a source
    settled: list[Settled] = field(default_factory=list)  # one a later source
    unknown: list[int] = field(default_factory=list)  # the deals still unknown
    verdicts: dict[int, int] = field(default_factory=dict)  # deal -> verdict code, of the decided deals


def commit_of(path: Path) -> str:
    """The short hash of the last commit that changed ``path``; marked if it has changed since."""

    def git(*args: str) -> str:
        try:
            done = subprocess.run(["git", *args, "--", path.name], cwd=path.parent, capture_output=True, text=True)
        except OSError:
            return ""
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("log", "-1", "--format=%h")
    if not commit:
        return "not committed"
    return commit + (" + changes" if git("status", "--porcelain") else "")


def tally_row(name: str, rules: str, row: Row, root: Path = ROOT) -> RowResult:
    """Count ``row`` from its records under ``root``; ResultsError if two records of a deal disagree."""
    result = RowResult(name, rules, row, ran=(root / row.sources[0].path).exists())
    if not result.ran:
        return result
    size = row.last - row.first + 1
    verdict = np.full(size, MISSING, np.int64)  # each deal's, over every file so far
    decided_by = np.full(size, -1, np.int64)  # the first source that decided it
    seen: dict[int, list[tuple[int, str]]] = {}  # per verdict code: (deal offset, file) of decided records
    budgets: set = set()
    layouts: dict[str, str] = {}  # layout -> the first file of it: a row's deals are laid out one way
    for index, source in enumerate(row.sources):
        path = root / source.path
        if not path.exists():
            raise ResultsError(f"{row.game}: {source.path} is in the manifest but not on disk")
        ledger = read_ledger(path)
        if row.game not in ledger.game_names:
            if index:
                raise ResultsError(f"{row.game}: {source.path} holds no record of this game")
            result.commits.append(commit_of(path))
            result.source_budgets.append([])
            continue
        for identity in ledger.identities:
            if identity.game == row.game:
                layouts.setdefault(identity.layout, source.path)
        if len(layouts) > 1:
            raise ResultsError(f"{row.game}: deals laid out in several ways: {layouts}")
        mine = np.asarray(ledger.games) == ledger.game_names.index(row.game)
        deals = np.asarray(ledger.deals, np.int64)
        mine &= (deals >= row.first) & (deals <= row.last)
        offsets, codes = deals[mine] - row.first, np.asarray(ledger.verdicts, np.int64)[mine]
        here = {ledger.budgets[b] for b in np.unique(np.asarray(ledger.budget_of, np.int64)[mine])}
        result.source_budgets.append(sorted(here, key=budget_order))
        budgets |= here
        for code in (WON, LOST):
            seen.setdefault(code, []).extend((int(o), source.path) for o in np.unique(offsets[codes == code]))
        decided = codes != UNKNOWN
        newly = np.unique(offsets[decided][decided_by[offsets[decided]] < 0])
        decided_by[newly] = index
        verdict[offsets[decided]] = codes[decided]
        unknown = offsets[~decided]
        verdict[unknown[verdict[unknown] == MISSING]] = UNKNOWN
        result.commits.append(commit_of(path))
    check_agreement(row, seen)
    won, lost, unknown = (int(np.count_nonzero(verdict == code)) for code in (WON, LOST, UNKNOWN))
    result.tally = WinRate(won, lost, unknown)
    result.missing = [int(o) + row.first for o in np.flatnonzero(verdict == MISSING)]
    result.unknown = [int(o) + row.first for o in np.flatnonzero(verdict == UNKNOWN)]
    decided = np.flatnonzero((verdict == WON) | (verdict == LOST))
    result.verdicts = {int(o) + row.first: int(verdict[o]) for o in decided}
    result.budgets = sorted(budgets, key=budget_order)
    for index, source in enumerate(row.sources[1:], 1):
        here = np.flatnonzero(decided_by == index)
        settled = Settled(source)
        settled.won = [int(o) + row.first for o in here if verdict[o] == WON]
        settled.lost = [int(o) + row.first for o in here if verdict[o] == LOST]
        result.settled.append(settled)
    return result


def budget_order(budget: tuple | None) -> tuple:
    """Not recorded first, then by seconds and memory (None, no limit, last)."""
    if budget is None:
        return (0,)
    return (1, *((math.inf if v is None else v) for v in budget))


def check_agreement(row: Row, seen: dict[int, list[tuple[int, str]]]) -> None:
    """Stop, loudly, on any deal that one record says won and another lost."""
    won: dict[int, list[str]] = {}
    for offset, path in seen.get(WON, []):
        won.setdefault(offset, []).append(path)
    lost: dict[int, list[str]] = {}
    for offset, path in seen.get(LOST, []):
        if offset in won:
            lost.setdefault(offset, []).append(path)
    if lost:
        lines = [
            f"  deal {offset + row.first}: won in {', '.join(won[offset])}; lost in {', '.join(paths)}"
            for offset, paths in sorted(lost.items())
        ]
        raise ResultsError(f"{row.game}: records disagree on {len(lost)} deal(s):\n" + "\n".join(lines))


def table(manifest: dict[str, dict[str, Row]] = MANIFEST, root: Path = ROOT) -> list[RowResult]:
    """Every row of ``manifest``, counted from the records under ``root``, in the manifest's order."""
    return [tally_row(name, rules, row, root) for name, rows in manifest.items() for rules, row in rows.items()]


def title_of(name: str) -> str:
    return GAMES[name].title if name in GAMES else name


def percent(value: float, digits: int) -> str:
    return f"{100 * value:.{digits}f}%"


def size_text(size: int | None) -> str:
    if size is None:
        return "no memory limit"
    gib = size / 2**30
    if gib >= 1:
        return f"{gib:g} GiB" if gib == round(gib, 1) else f"{gib:.1f} GiB"
    return f"{size / 2**20:g} MiB"


def span(values: list, unit: str) -> str:
    low, high = min(values), max(values)
    return f"{low:g}{unit}" if low == high else f"{low:g}-{high:g}{unit}"


def budget_text(budgets: list[tuple | None]) -> str:
    """One budget as seconds and memory; several as "mixed" with their ranges."""
    known = [b for b in budgets if b is not None]
    if not known:
        return "not recorded" if budgets else ""
    if len(budgets) == 1:
        seconds, memory, _ = known[0]
        return ("no time limit" if seconds is None else f"{seconds:g} s") + ", " + size_text(memory)
    seconds = [b[0] for b in known if b[0] is not None]
    memory = [b[1] / 2**30 for b in known if b[1] is not None]
    parts = [span(seconds, " s") if seconds else "", span(memory, " GiB") if memory else ""]
    text = "mixed: " + ", ".join(p for p in parts if p)
    return text + ("; some not recorded" if len(known) < len(budgets) else "")


def deal_list(deals: list[int], most: int | None = None) -> str:
    """Deals as ranges: 1-3, 7, 9-10; past ``most`` ranges, how many more deals."""
    runs: list[list[int]] = []
    for d in deals:
        if runs and d == runs[-1][1] + 1:
            runs[-1][1] = d
        else:
            runs.append([d, d])
    shown = runs if most is None else runs[:most]
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in shown)
    rest = sum(b - a + 1 for a, b in runs[len(shown) :])
    return text + (f" and {rest} more" if rest else "")


def rate_text(tally: WinRate) -> str:
    if tally.won + tally.lost == 0:
        return "-"
    digits = tally.digits()
    rate = "100%" if tally.lost == 0 else percent(tally.rate, digits)
    return f"**{rate}**, exact for these deals" if tally.unknown == 0 else rate


def markdown_row(result: RowResult) -> str:
    title, rules = title_of(result.name), RULE_SETS[result.rules]
    if not result.ran:
        return f"| {title} | {rules} | {result.row.absent} |" + " |" * 8
    tally = result.tally
    deals = f"{result.row.first}-{result.row.last}"
    if result.missing:
        deals += f" (**{len(result.missing)} missing**: {deal_list(result.missing, SHOWN_MISSING)})"
    low, high = tally.interval
    digits = tally.digits()
    interval = f"[{percent(low, digits)}, {percent(high, digits)}]" if tally.deals else "-"
    commits = ", ".join(dict.fromkeys(result.commits))
    later = len(result.row.sources) - 1
    command = command_text(result.row.sources[0]) + (f"; then {later} more (below)" if later else "")
    cells = [title, rules, deals, str(tally.won), str(tally.lost), str(tally.unknown), rate_text(tally), interval]
    return "| " + " | ".join([*cells, budget_text(result.budgets), commits, command]) + " |"


def command_text(source: Source) -> str:
    """The command in code, then its note; a note alone if the command is not known."""
    if source.command is None:
        return source.note or "not in the manifest yet"
    return f"`{source.command}`" + (f" ({source.note})" if source.note else "")


def settled_text(result: RowResult) -> str:
    """The paragraph under the table for a row with later files: what each settled, and how."""
    lines = [f"**{title_of(result.name)}, {RULE_SETS[result.rules]}**, after the main batch:", ""]
    for settled, commit, budgets in zip(result.settled, result.commits[1:], result.source_budgets[1:], strict=True):
        what = [
            f"{label} {deal_list(deals)}" for label, deals in (("won", settled.won), ("lost", settled.lost)) if deals
        ]
        path = Path(settled.source.path).name
        done = "; ".join(what) or "settled none"
        lines.append(f"- `{path}` ({commit}; budget {budget_text(budgets)}): {done}.  {command_text(settled.source)}")
    still = f"still unknown: {deal_list(result.unknown)}." if result.unknown else "none unknown."
    return "\n".join([*lines, "", f"Settled later: {sum(len(s.won) + len(s.lost) for s in result.settled)}; {still}"])


def page(results: list[RowResult], picture: str | None = "winrate.png") -> str:
    head = (
        "| game | rules | deals | won | lost | unknown | win rate | 95% interval | budget per deal | commit "
        "| command |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|"
    )
    parts = [HEADER, head + "\n" + "\n".join(markdown_row(r) for r in results), ""]
    later = [settled_text(r) for r in results if r.ran and len(r.row.sources) > 1]
    if later:
        parts += ["## Deals settled after the main batch", "", *(p + "\n" for p in later)]
    pairs = zip(results, results[1:], strict=False)
    differ = [differences_text(r, p) for r, p in pairs if r.name == p.name and r.rules == "strict" and r.ran and p.ran]
    if differ:
        parts += ["## Deals whose verdict differs between the rule sets", "", *(d + "\n" for d in differ)]
    if picture:
        parts += [f"![Win rates with their 95% intervals, strict and PySolFC rules]({picture})", ""]
    parts.append("The history of these rows, and the rows for worrying back: [winrate-history.md](winrate-history.md).")
    return "\n".join(parts) + "\n"


def differences_text(strict: RowResult, pysolfc: RowResult) -> str:
    """The deals of a game that both rule sets decide, with different verdicts (PySolFC's rules let a card
    come back and, in Ripple Fan, runs move: more moves, so more wins, but for Good Measure's layouts, which
    differ where a King lies above a card)."""
    both = sorted(set(strict.verdicts) & set(pysolfc.verdicts))
    gained = [d for d in both if pysolfc.verdicts[d] == WON and strict.verdicts[d] == LOST]
    lost = [d for d in both if pysolfc.verdicts[d] == LOST and strict.verdicts[d] == WON]
    text = f"**{title_of(strict.name)}**, {len(both)} deals decided by both: "
    text += f"won by PySolFC's rules and lost by the strict ones: {len(gained)}"
    text += f" ({deal_list(gained)})" if gained else ""
    text += f"; lost by PySolFC's and won by the strict ones: {len(lost)}"
    if not pysolfc_adds_moves_only(strict.name):  # another game in PySolFC: either may win what the other loses
        why = ", PySolFC's being another game: foundations by alternate colour, spaces that take nothing"
        return text + (f" ({deal_list(lost)}{why})." if lost else ".")
    same = [d for d in lost if deal(GAMES[strict.name], d) == pysolfc_layout(with_pysolfc(GAMES[strict.name]), d)]
    if same:  # PySolFC's rules allow every strict move: on one layout, a strict win is a PySolFC win
        raise ResultsError(f"{strict.name}: deals {same} lost under PySolFC's rules, won under the strict ones")
    layouts = ", each laid out otherwise by PySolFC (a King left above another card)" if lost else ""
    return text + (f" ({deal_list(lost)}{layouts})." if lost else ".")


# The logit axis: from PLOT_LOW to just past FULL, where a rate or bound of 100% (or above FULL) is drawn.
PLOT_LOW, FULL = 0.2, 1 - 1e-5
TICKS = (0.3, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999, FULL)


def draw(results: list[RowResult], target: Path) -> None:
    """One figure: each game's rate and interval, strict and PySolFC side by side, on a logit axis
    (a rate near 100% and one near 30% both show their intervals)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    names = list(dict.fromkeys(r.name for r in results))
    fig, ax = plt.subplots(figsize=(9, 0.42 * len(names) + 1.6))
    styles = {"strict": ("o", "tab:blue", -0.17), "pysolfc": ("s", "tab:orange", 0.17)}
    handles = []
    for rules, (marker, colour, shift) in styles.items():
        mine = [r for r in results if r.rules == rules and r.ran and r.tally.won + r.tally.lost]
        ran = sum(1 for r in results if r.rules == rules and r.ran)
        label = f"{RULE_SETS[rules]} rules ({ran} of {len(names)} games run)"
        if not mine:
            handles += ax.plot([], [], marker=marker, color=colour, linestyle="none", label=label)
            continue
        ys = [names.index(r.name) + shift for r in mine]
        clip = lambda v: min(max(v, PLOT_LOW), FULL)  # noqa: E731
        rates = [clip(r.tally.rate) for r in mine]
        lows = [clip(r.tally.interval[0]) for r in mine]
        highs = [clip(r.tally.interval[1]) for r in mine]
        xerr = [
            [x - lo for x, lo in zip(rates, lows, strict=True)],
            [hi - x for x, hi in zip(rates, highs, strict=True)],
        ]
        handles.append(
            ax.errorbar(rates, ys, xerr=xerr, fmt=marker, color=colour, capsize=3, markersize=5, label=label)
        )
    ax.set_xscale("logit")
    ax.set_xlim(PLOT_LOW, 1 - 0.6e-5)
    ax.xaxis.set_major_locator(FixedLocator(TICKS))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "100%" if v == FULL else f"{100 * v:g}%"))
    ax.set_yticks(range(len(names)), [title_of(n) for n in names])
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.grid(axis="x", color="0.9")
    ax.set_xlabel("win rate (won / decided), logit scale; bars: 95% Wilson interval, unknown counted lost / won")
    ranges = sorted({(r.row.first, r.row.last) for r in results if r.ran}, key=lambda fl: fl[0] - fl[1])
    first, last = ranges[0] if ranges else (results[0].row.first, results[0].row.last)
    fewer = " or fewer (the table gives each row's deals)" if len(ranges) > 1 else ""
    ax.set_title(f"Win rates of PySolFC deals {first}-{last}{fewer}", fontsize=10, pad=24)
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--page", type=Path, default=ROOT / "results" / "winrate.md", help="[default: %(default)s]")
    parser.add_argument("--picture", type=Path, default=ROOT / "results" / "winrate.png", help="[default: %(default)s]")
    parser.add_argument("--no-plot", action="store_true", help="write the page alone (no matplotlib needed)")
    args = parser.parse_args()
    if list(MANIFEST) != list(GAMES):
        sys.exit(f"the manifest's games are not GAMES in its order: {list(MANIFEST)}")
    try:
        results = table()
    except ResultsError as err:
        sys.exit(f"results_page.py: {err}")
    picture = None if args.no_plot else args.picture
    text = page(results, picture=None if picture is None else os.path.relpath(picture, args.page.parent))
    args.page.write_text(text)
    print(f"wrote {args.page}")
    if picture is not None:
        draw(results, picture)
        print(f"wrote {picture}")
    for result in results:
        if result.ran:
            print(markdown_row(result))


if __name__ == "__main__":
    main()
