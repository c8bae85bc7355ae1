"""What the commands print: the games, a deal's verdict (as text or one JSON record), a batch's summary.

Each function returns text for the command line to echo, so that it can be read (and tested) apart from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .game.cards import SUITS, card_text
from .game.engine import Move, describe_moves
from .game.rules import GAMES, Rules, redeals_count_text

if TYPE_CHECKING:
    from .batch import BatchOutcome
    from .requests import SolveRequest, WinrateRequest
    from .search import Progress, SolveResult
    from .stats import WinRate

THOUGHTFUL = (
    "The solver sees the face-down cards (it decides the thoughtful game, as Blake & Gent and Solvitaire do); "
    "a player who does not see them may lose a deal said to be won."
)


def games_table() -> str:
    """Every game of the family with its rules, a row each, then what the columns leave unsaid."""
    header = ("game", "PySolFC", "decks", "piles", "founded", "Kings", "tableau builds", "moves", "a space takes",
              "redeals")  # fmt: skip
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
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines.append("Foundations build up by suit from the Ace (down from the King where 'founded' says K);")
    lines.append("two decks have two foundations per suit, and every card twice.")
    for rules in GAMES.values():
        if rules.face_down_rows:
            lines.append(f"{rules.title} deals {rules.face_down_text()}: the solver sees them (the thoughtful game).")
    return "\n".join(lines)


def _shape(rules: Rules) -> str:
    """``13 x 4``; ``10 x 5+`` where the first piles get one card more (Vineyard)."""
    even = rules.piles * rules.cards_per_pile == rules.cards - rules.founded
    return f"{rules.piles} x {rules.cards_per_pile}" if even else f"{rules.piles} x {rules.cards_per_pile - 1}+"


def solve_text(request: SolveRequest, result: SolveResult) -> str:
    """The deal as laid out, the verdict, and the winning moves numbered from 1."""
    rules, board = request.rules, request.board
    lines = [f"{rules.title}, {request.source}", rules.describe()]
    if board.note:
        lines.append(f"Note: {board.note}")
    if any(board.foundations) and board.founded:  # by alternate colour: each one's top card, of any suit
        ups = [f"{SUITS[i]}: {card_text(held[-1])}" for i, held in enumerate(board.founded) if held]
        lines.append(f"Foundations: {', '.join(ups)}")
    elif any(board.foundations):
        ups = [card_text((top - 1) * 4 + suit) for suit, top in board.foundations_by_suit() if top]
        lines.append(f"Foundations: {' '.join(ups)}")
    if rules.redeals:
        lines.append(f"Redeals left: {redeals_count_text(board.redeals)}")
    lines.append("Piles, each from its bottom card to its playable card (the last):")
    for p, pile in enumerate(board.piles, 1):
        lines.append(f"  pile {p:2d}: {' '.join(board.card_text(c) for c in pile) or '(empty)'}")
    if board.down or rules.face_down_rows:
        lines.append(f"Face-down cards are in brackets. {THOUGHTFUL}")
    lines.append(f"Verdict: {result.verdict} ({result.explanation()})")
    lines.append(f"Positions searched: {result.positions:,}   time: {result.seconds:.3f} s")
    if result.moves:
        lines.append(f"Winning moves ({len(result.moves)}):")
        lines.extend(f"  {i:3d}. {text}" for i, text in enumerate(describe_moves(board, result.moves, rules), 1))
    return "\n".join(lines)


def solve_record(request: SolveRequest, result: SolveResult) -> dict:
    """The deal and its verdict as one JSON object: a batch record's fields, the board and the moves."""
    rules, board = request.rules, request.board
    texts = describe_moves(board, result.moves, rules)
    return {
        "game": rules.name,
        "deal": request.number,
        "source": request.source,
        "board": board.to_text(rules),
        "note": board.note,
        **({"thoughtful": THOUGHTFUL} if board.down or rules.face_down_rows else {}),
        **result.record(),  # the fields a batch record has; "moves" here is the list itself
        "moves": [_json_move(m, t) for m, t in zip(result.moves, texts, strict=True)],
        "layout": request.layout,  # as PySolFC deals it, or as the rules do
    }


def _json_move(move: Move, text: str) -> dict:
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


def progress_line(progress: Progress) -> str:
    return (
        f"{progress.seconds:9.1f} s  {progress.positions:>14,} positions  {progress.walked:>13,} walked  "
        f"{progress.memory / 2**30:6.2f} GiB  run {progress.runs}"
    )


def tally_line(tally: WinRate) -> str:
    """The tally so far, short enough for a progress bar."""
    low, high = tally.interval
    rate = "n/a" if tally.won + tally.lost == 0 else f"{100 * tally.rate:.1f}%"
    return (
        f"won {tally.won} lost {tally.lost} unknown {tally.unknown}; rate {rate} [{100 * low:.1f}%, {100 * high:.1f}%]"
    )


def winrate_summary(request: WinrateRequest, outcome: BatchOutcome, stopped: bool, retried: int) -> str:
    """The rate and its interval, the time per deal, where the records are; whether a signal stopped it."""
    import numpy as np  # here, not above: --help need not load it

    tally, seconds = outcome.tally, np.sort(outcome.seconds)
    decided = f" ({tally.deals} of {len(request.numbers)} decided before the stop)" if stopped else ""
    layout = " (PySolFC's own layouts)" if request.pysolfc_layout and not request.pysolfc else ""
    lines = [f"{request.rules.title}, deals {request.deals_text}{layout}{decided}: {tally.text()}"]
    if request.rules.face_down_rows:
        lines.append(THOUGHTFUL)
    if len(seconds):
        lines.append(
            f"Time per deal: median {seconds[len(seconds) // 2]:.3f} s, max {seconds[-1]:.3f} s, "
            f"total {seconds.sum():.1f} s.  Records: {request.output}"
        )
    if retried:
        lines.append(f"{retried} deals recorded unknown under a smaller budget were solved again.")
    if stopped:
        lines.append("Stopped: rerun the same command to resume.")
    return "\n".join(lines)
