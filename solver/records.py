"""Batch records on disk: one line per decided deal, as JSON lines or as a compact table.

- **JSON lines** (any output but ``*.tsv``; the default): every field of a record, one object a line,
  about 450 bytes a deal.
- **A table** (``*.tsv``): tab-separated values, about 50 bytes a deal, for runs of a million deals.
  A first line ``# bakers-solver records {...}`` names the game, the rules' digest and the layout
  once; a second names the columns; then one row a deal with what a win rate, its timing and a resume
  need (:data:`TABLE_COLUMNS`).  It reads as it is in pandas (``comment="#"``), a spreadsheet or awk.

Either is appended a line at a time, so a killed batch loses at most the line it was writing, which
the next open cuts off (:func:`mend`).  A resume reads only what it needs of each line into arrays
(:class:`Ledger`): a million records take a few seconds and tens of MB, not a dict each.
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Container, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .stats import WinRate
from .words import POSITIONS_KEY, RULES_LAYOUT, VERDICTS

JSON_LINES, TABLE = "jsonl", "tsv"
TABLE_MARK = "# bakers-solver records "
TABLE_COLUMNS = (
    "deal", "verdict", "reason", "found_by", "seconds", POSITIONS_KEY, "moves", "shortened", "memory_mib",
    "budget_seconds", "budget_bytes", "budget_states",
)  # fmt: skip
TAIL_BLOCK = 1 << 16  # bytes read at a time from a file's end, looking for its last newline


class BatchError(ValueError):
    """A batch that cannot run: bad deal range, a locked or corrupt output."""


def format_of(path: Path) -> str:
    """The format an output is written in, by its name: ``*.tsv`` is a table, anything else JSON lines."""
    return TABLE if Path(path).suffix == ".tsv" else JSON_LINES


@dataclass(frozen=True)
class Identity:
    """What every record of one batch output shares: a table says it once, in its first line."""

    game: str
    rules: str | None  # the rules' digest (records of old have none)
    layout: str = RULES_LAYOUT
    thoughtful: bool = False  # face-down cards seen by the solver

    @classmethod
    def of(cls, record: dict) -> Identity:
        """A record's identity; ValueError if its fields are not of their types."""
        identity = cls(
            record["game"], record.get("rules"), record.get("layout", RULES_LAYOUT), record.get("thoughtful", False)
        )
        strings = (identity.game, identity.layout) + ((identity.rules,) if identity.rules is not None else ())
        if not all(isinstance(v, str) for v in strings) or not isinstance(identity.thoughtful, bool):
            raise ValueError("a record's game, rules, layout or thoughtful is not of its type")
        return identity


def header(identity: Identity) -> str:
    """The first two lines of a table."""
    fields = {"game": identity.game, "rules": identity.rules, "layout": identity.layout}
    if identity.thoughtful:
        fields["thoughtful"] = True
    return TABLE_MARK + json.dumps(fields) + "\n" + "\t".join(TABLE_COLUMNS) + "\n"


def encode(record: dict, fmt: str) -> str:
    """One line of ``fmt`` for ``record``, newline included."""
    if fmt == JSON_LINES:
        return json.dumps(record) + "\n"
    row = {**record, **dict(zip(("budget_seconds", "budget_bytes", "budget_states"), record["budget"], strict=True))}
    row["shortened"] = int(row["shortened"])
    return "\t".join("" if row[c] is None else str(row[c]) for c in TABLE_COLUMNS) + "\n"


def whole_length(path: Path, block: int = TAIL_BLOCK) -> int:
    """The bytes of ``path`` up to its last newline: what a torn last line (a kill mid-write) leaves
    whole.  Read back from the end, ``block`` bytes at a time."""
    with open(path, "rb") as f:
        stop = f.seek(0, 2)
        while stop > 0:
            start = max(0, stop - block)
            f.seek(start)
            newline = f.read(stop - start).rfind(b"\n")
            if newline >= 0:
                return start + newline + 1
            stop = start
    return 0


def mend(path: Path, block: int = TAIL_BLOCK) -> None:
    """Cut a torn last line off ``path``, if it has one.  Only a batch does, holding the output's lock and
    after the whole lines read as records; and only a tail that starts as a record would (a file of
    something else, however it ends, is refused, never cut)."""
    if not path.exists():
        return
    keep = whole_length(path, block)
    size = path.stat().st_size
    if keep == size:
        return
    with open(path, "rb") as f:
        f.seek(keep)
        tail = f.read(len(TABLE_MARK))
    if not (tail.startswith(b"{") or TABLE_MARK.encode().startswith(tail[: len(TABLE_MARK)]) or tail[:1].isdigit()):
        raise BatchError(f"{path}: its last line is no batch record; not touching this file")
    with open(path, "r+b") as f:
        f.truncate(keep)


def lines_of(path: Path) -> Iterator[tuple[int, bytes]]:
    """(line number from 1, line) for each whole line of ``path``, read as a stream (a million records
    are 400 MB of JSON); a torn last line is left out, and left where it is.  Nothing if there is no file."""
    if not path.exists():
        return
    end = whole_length(path)
    with open(path, "rb") as f:
        read = 0
        for number, line in enumerate(f, 1):
            read += len(line)
            if read > end:
                return
            yield number, line


def _bad_line(path: Path, line_no: int) -> BatchError:
    return BatchError(f"{path}: line {line_no} is not a batch record; not touching this file")


def _table_identity(path: Path, lines: Iterator[tuple[int, bytes]]) -> Identity | None:
    """A table's identity from its two header lines, read off ``lines``; None for an empty file."""
    first = next(lines, None)
    if first is None:
        return None
    if not first[1].startswith(TABLE_MARK.encode()):
        raise BatchError(f"{path} is not a table of batch records (its first line is not {TABLE_MARK.strip()!r})")
    try:
        fields = json.loads(first[1][len(TABLE_MARK) :])
        identity = Identity.of({"rules": fields["rules"], "layout": fields["layout"], **fields})
    except (ValueError, KeyError, TypeError):
        raise _bad_line(path, 1) from None
    second = next(lines, (2, b""))[1]
    if second.decode(errors="replace").rstrip("\n").split("\t") != list(TABLE_COLUMNS):
        raise BatchError(f"{path}: line 2 does not name this version's columns; give another output")
    return identity


def _number(text: str, kind: type) -> int | float | None:
    return None if text == "" else kind(text)


def _table_row(fields: list[str]) -> dict:
    """A table row's fields as a record's (without the identity); ValueError if malformed."""
    if len(fields) != len(TABLE_COLUMNS):
        raise ValueError
    row = dict(zip(TABLE_COLUMNS, fields, strict=True))
    if row["verdict"] not in VERDICTS:
        raise ValueError
    return {
        "deal": int(row["deal"]),
        "verdict": row["verdict"],
        "reason": row["reason"],
        "found_by": row["found_by"],
        "seconds": float(row["seconds"]),
        POSITIONS_KEY: int(row[POSITIONS_KEY]),
        "moves": int(row["moves"]),
        "shortened": bool(int(row["shortened"])),
        "memory_mib": float(row["memory_mib"]),
        "budget": [
            _number(row["budget_seconds"], float),
            _number(row["budget_bytes"], int),
            _number(row["budget_states"], int),
        ],
    }


def read_records(path: Path) -> list[dict]:
    """Every record in ``path``, in file order, as dicts (a table's rows carry its identity's fields); a
    torn last line is cut off the file.  For tables and plots: a resume reads a :class:`Ledger` instead."""
    return list(iter_records(path))


def iter_records(path: Path) -> Iterator[dict]:
    """The records of ``path`` one at a time, as :func:`read_records` gives them, from a stream."""
    path = Path(path)
    lines = lines_of(path)
    if format_of(path) == TABLE:
        identity = _table_identity(path, lines)
        if identity is None:
            return
        shared = {"game": identity.game, "rules": identity.rules, "layout": identity.layout}
        shared |= {"thoughtful": True} if identity.thoughtful else {}
        for line_no, line in lines:
            try:
                yield {**shared, **_table_row(line.decode().rstrip("\n").split("\t"))}
            except (ValueError, UnicodeDecodeError):
                raise _bad_line(path, line_no) from None
        return
    for line_no, line in lines:
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            record["game"], record["deal"], record["verdict"]  # noqa: B018 -- the fields a record must have
        except (ValueError, KeyError, TypeError):
            raise _bad_line(path, line_no) from None
        yield record


def latest_records(
    path: Path, game: str, deals: Container[int] | None = None, verdicts: Container[str] | None = None
) -> dict[int, dict]:
    """Deal -> the last record of it in ``path`` (a deal retried with a larger budget has several), of
    the deals ``deals`` if given; only those whose last record has a verdict of ``verdicts`` if given.
    Read from a stream, holding only the records it returns."""
    latest: dict[int, dict] = {}
    for record in iter_records(path):
        deal = record["deal"]
        if record["game"] != game or (deals is not None and deal not in deals):
            continue
        if verdicts is None or record["verdict"] in verdicts:
            latest[deal] = record
        else:  # a later record of another verdict stands in for any earlier one kept
            latest.pop(deal, None)
    return latest


@dataclass
class Ledger:
    """What a batch needs of the records in its output, in arrays, one entry a line in file order: whose
    each is (``games``), its deal, verdict (an index into :data:`VERDICTS`), solve time and budget (an
    index into ``budgets``).  The identities found are kept to refuse an output of another batch."""

    identities: set[Identity] = field(default_factory=set)
    game_names: list[str] = field(default_factory=list)
    budgets: list[tuple] = field(default_factory=list)
    # Typed arrays, 8 bytes or fewer an entry where a list would hold an object each.
    games: array = field(default_factory=lambda: array("h"))
    deals: array = field(default_factory=lambda: array("q"))
    verdicts: array = field(default_factory=lambda: array("b"))
    seconds: array = field(default_factory=lambda: array("d"))
    budget_of: array = field(default_factory=lambda: array("h"))

    def add(self, identity: Identity, deal: int, verdict: str, seconds: float, budget: list | None) -> None:
        """One record's line; ValueError (or OverflowError) if a field is not what a record holds."""
        finite = isinstance(seconds, (int, float)) and math.isfinite(seconds)  # OverflowError past a float
        if not isinstance(deal, int) or not finite:
            raise ValueError("a record's deal or seconds is not of its type")
        self.identities.add(identity)
        self.games.append(_index(self.game_names, identity.game))
        self.deals.append(deal)
        self.verdicts.append(VERDICTS.index(verdict))
        self.seconds.append(seconds)
        self.budget_of.append(self._budget_index(budget))

    def _budget_index(self, budget: list | None) -> int:
        """``budget``'s index in ``budgets``, checked the first time it is met (a batch has a handful)."""
        key = None if budget is None else tuple(budget)
        try:
            return self.budgets.index(key)
        except ValueError:
            if not _is_budget(budget):
                raise ValueError("a record's budget is not seconds, bytes and positions") from None
            self.budgets.append(key)
            return len(self.budgets) - 1

    def latest(self, game: str) -> dict[str, np.ndarray]:
        """The last line of each deal of ``game``, in arrays sorted by deal: "deal", "verdict",
        "seconds" and "budget" (an index into ``budgets``)."""
        if game not in self.game_names or not self.deals:
            empty = np.zeros(0, np.int64)
            return {"deal": empty, "verdict": empty, "seconds": np.zeros(0), "budget": empty}
        mine = np.flatnonzero(np.asarray(self.games) == self.game_names.index(game))
        deals = np.asarray(self.deals, np.int64)[mine]
        _, last_reversed = np.unique(deals[::-1], return_index=True)  # the first of each deal, read backwards
        chosen = mine[len(mine) - 1 - last_reversed]
        return {
            "deal": np.asarray(self.deals, np.int64)[chosen],
            "verdict": np.asarray(self.verdicts, np.int64)[chosen],
            "seconds": np.asarray(self.seconds, np.float64)[chosen],
            "budget": np.asarray(self.budget_of, np.int64)[chosen],
        }


def _is_budget(budget) -> bool:
    """None (records of old), or seconds, bytes and positions, each a number or None (no limit)."""
    if budget is None:
        return True
    return (
        isinstance(budget, list)
        and len(budget) == 3
        and all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in budget)
    )


def _index(values: list, value) -> int:
    """``value``'s index in ``values``, appended if new (the lists hold a handful of distinct values)."""
    try:
        return values.index(value)
    except ValueError:
        values.append(value)
        return len(values) - 1


def read_ledger(path: Path) -> Ledger:
    """The :class:`Ledger` of ``path`` (empty if it does not exist); a torn last line is left out."""
    path = Path(path)
    lines = lines_of(path)
    ledger = Ledger()
    if format_of(path) == TABLE:
        identity = _table_identity(path, lines)
        if identity is not None:
            ledger.identities.add(identity)
            _read_table_rows(path, lines, identity, ledger)
        return ledger
    identities: dict[tuple, Identity] = {}  # each made and checked once: a batch's records share one
    for line_no, line in lines:
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            key = (r["game"], r.get("rules"), r.get("layout", RULES_LAYOUT), r.get("thoughtful", False))
            identity = identities.get(key) or identities.setdefault(key, Identity.of(r))
            ledger.add(identity, r["deal"], r["verdict"], r.get("seconds", 0.0), r.get("budget"))
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
            raise _bad_line(path, line_no) from None
    return ledger


def _read_table_rows(path: Path, lines: Iterator[tuple[int, bytes]], identity: Identity, ledger: Ledger) -> None:
    deal, verdict, seconds = (TABLE_COLUMNS.index(c) for c in ("deal", "verdict", "seconds"))
    budget = TABLE_COLUMNS.index("budget_seconds")
    for line_no, line in lines:
        fields = line.decode(errors="replace").rstrip("\n").split("\t")
        try:
            if len(fields) != len(TABLE_COLUMNS):
                raise ValueError
            ledger.add(
                identity,
                int(fields[deal]),
                fields[verdict],
                float(fields[seconds]),
                [_number(fields[budget], float), _number(fields[budget + 1], int), _number(fields[budget + 2], int)],
            )
        except (ValueError, OverflowError):  # a malformed number, a verdict not in VERDICTS
            raise _bad_line(path, line_no) from None


def tally_of(verdicts: np.ndarray) -> WinRate:
    """The verdict codes of a :class:`Ledger` counted."""
    won, lost, unknown = (int(n) for n in np.bincount(np.asarray(verdicts, np.int64), minlength=3)[:3])
    return WinRate(won, lost, unknown)
