"""This solver, Solvitaire and Freecell Solver side by side on the same PySolFC deals.

    python benchmarks/bench_peers.py --solvitaire /path/to/solvitaire --fc-solve /path/to/fc-solve \
        --games bakers-dozen,good-measure,portuguese-solitaire --deals 1-100 --timeout 10

Deal by deal, interleaved so that machine drift cancels out, each deal is given
to: this solver for a verdict only (``solve(shorten_moves=False)``: the
search, then the winning line converted and replayed by the reference
engine, not shortened), this solver with its shortened line (the CLI's
default), Solvitaire, and Freecell Solver, each with the same budget.  This
solver runs in-process (one process decides many deals, as a batch does);
the peers run as processes, one a deal, as their command lines are used, so
their start is measured on a trivial board and reported beside the ratios,
with the ratios again after taking it off.  Every pair of verdicts is
compared: a deal one solver wins and another calls lost is a conflict,
printed loudly and listed first in the report (the script then exits 1).

Peers, neither built by this project (see benchmarks/PEERS.md for how each
was built here): Solvitaire (C++, github.com/thecharlesblake/Solvitaire)
with rules files written here for each game and its ``smart-solvability``
streamliners (a fast incomplete run with 10% of the budget, then a full
one), its best mode for verdicts; Freecell Solver (C,
github.com/shlomif/fc-solve) with ``--game NAME``.  A peer that is not
given, or does not know a game, is left out of that game's rows.

Writes results/bench_peers.md and a per-deal CSV beside it.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Board, Budget, deal, solve  # noqa: E402
from solver.batch import parse_deals  # noqa: E402
from solver.game.cards import card_text, make_card  # noqa: E402
from solver.search import warm_up  # noqa: E402
from solver.stats import wilson_interval  # noqa: E402

# Solvitaire's rules for each game, in its rules-file keys: single cards, no worrying back.  Kings moved
# to the bottom (Baker's Dozen, Good Measure) are in the deal it is given; Good Measure's two Aces too.
SOLVITAIRE_RULES = {
    "bakers-dozen": {"count": 13, "build policy": "any-suit", "spaces policy": "no-build"},
    "good-measure": {"count": 10, "build policy": "any-suit", "spaces policy": "no-build"},
    "portuguese-solitaire": {"count": 13, "build policy": "any-suit", "spaces policy": "kings"},
}
# Freecell Solver's options for each game: Portuguese Solitaire has no preset of its own (PySolFC asks for
# it as Baker's Dozen whose spaces take Kings, as here).
FCS_GAMES = {
    "bakers-dozen": ["--game", "bakers_dozen"],
    "good-measure": ["--game", "good_measure"],
    "portuguese-solitaire": ["--game", "bakers_dozen", "--empty-stacks-filled-by", "kings"],
}
PEERS = ("solvitaire", "fcs")
PEER_NAMES = {"solvitaire": "Solvitaire", "fcs": "Freecell Solver"}
FCS_SOLVED, FCS_UNSOLVED = "This game is solveable.", "I could not solve this game."


def solvitaire_rules(game: str) -> dict:
    piles = dict(SOLVITAIRE_RULES[game], **{"move built group": "no"})
    return {"tableau piles": piles, "foundations": {"removable": False}}


def solvitaire_card(card: int) -> str:
    text = card_text(card)
    return ("10" + text[1]) if text[0] == "T" else text


def solvitaire_deal(board: Board) -> dict:
    """Solvitaire's deal file: piles bottom card first, as ours; the cards already up as its foundations."""
    deal_json: dict = {"tableau piles": [[solvitaire_card(c) for c in pile] for pile in board.piles]}
    up = [make_card(rank, suit) for suit, height in enumerate(board.foundations) for rank in range(1, height + 1)]
    if up:
        deal_json["foundations"] = [solvitaire_card(c) for c in up]
    return deal_json


def timed_process(args: list[str], seconds: float) -> tuple[str | None, float]:
    """Run a peer; its standard output (None when killed at the limit) and its wall seconds."""
    began = time.perf_counter()
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=seconds).stdout
    except subprocess.TimeoutExpired:
        return None, seconds
    return out, time.perf_counter() - began


class Peers:
    """The peers' binaries and scratch files; each ``run_*`` gives (verdict, wall seconds)."""

    def __init__(self, solvitaire: str | None, fc_solve: str | None, seconds: float, folder: Path):
        self.binaries = {"solvitaire": solvitaire, "fcs": fc_solve}
        self.seconds = seconds
        self.folder = folder

    def plays(self, peer: str, game: str) -> bool:
        if self.binaries[peer] is None:
            return False
        return game in (SOLVITAIRE_RULES if peer == "solvitaire" else FCS_GAMES)

    def run(self, peer: str, game: str, board: Board) -> tuple[str, float]:
        return self.run_solvitaire(game, board) if peer == "solvitaire" else self.run_fcs(game, board)

    def run_solvitaire(self, game: str, board: Board) -> tuple[str, float]:
        rules_file, deal_file = self.folder / f"{game}.rules.json", self.folder / "deal.json"
        if not rules_file.exists():
            rules_file.write_text(json.dumps(solvitaire_rules(game)))
        deal_file.write_text(json.dumps(solvitaire_deal(board)))
        args = [self.binaries["solvitaire"], "--custom-rules", str(rules_file), "--streamliners", "smart-solvability"]
        args += ["--timeout", str(int(self.seconds * 1000)), str(deal_file)]
        out, wall = timed_process(args, self.seconds + 5)  # it stops itself at the limit; the margin is for start
        if out is None:
            return "unknown", wall
        kind = out.split("Solution Type:", 1)[1].split()[0] if "Solution Type:" in out else ""
        return {"solved": "won", "unsolvable": "lost"}.get(kind, "unknown"), wall

    def run_fcs(self, game: str, board: Board) -> tuple[str, float]:
        board_file = self.folder / "deal.board"
        board_file.write_text(board.to_text(GAMES[game]))
        out, wall = timed_process([self.binaries["fcs"], *FCS_GAMES[game], str(board_file)], self.seconds)
        if out is not None and FCS_SOLVED in out:
            return "won", wall
        if out is not None and FCS_UNSOLVED in out:
            return "lost", wall
        return "unknown", min(wall, self.seconds)


def trivial_board(game: str) -> Board:
    """A board won by foundation moves alone, no search: the deck in the order it goes up, cut into the
    game's piles with the first card to go up on top; for timing a peer's start."""
    board = deal(GAMES[game], 1)
    cards = [make_card(rank, suit) for rank in range(1, 14) for suit in range(4) if rank > board.foundations[suit]]
    piles, size = len(board.piles), -(-len(cards) // len(board.piles))
    trivial = tuple(tuple(reversed(cards[p * size : (p + 1) * size])) for p in range(piles))
    return Board(trivial, board.foundations).validate(GAMES[game])


def process_start(peers: Peers, peer: str, game: str, repeats: int = 15) -> float:
    """The peer's median wall seconds on a trivial board: what a process costs it before any search."""
    board = trivial_board(game)
    walls = []
    for _ in range(repeats):
        verdict, wall = peers.run(peer, game, board)
        if verdict != "won":  # e.g. Debian's fc-solve 5.0.0, built for at most 10 piles
            raise SystemExit(f"{PEER_NAMES[peer]} does not win a trivial {game} board: check its build and options")
        walls.append(wall)
    return statistics.median(walls)


def ours(board: Board, game: str, seconds: float, shorten_moves: bool) -> tuple[str, float]:
    began = time.perf_counter()
    result = solve(board, GAMES[game], Budget(seconds=seconds), shorten_moves=shorten_moves)
    return result.verdict, time.perf_counter() - began


def compare_deal(game: str, number: int, seconds: float, peers: Peers, playing: list[str]) -> dict:
    board = deal(GAMES[game], number)
    row: dict = {"game": game, "deal": number}
    row["ours"], row["ours_s"] = ours(board, game, seconds, shorten_moves=False)
    _, row["ours_line_s"] = ours(board, game, seconds, shorten_moves=True)
    for peer in PEERS:
        row[peer], row[f"{peer}_s"] = peers.run(peer, game, board) if peer in playing else ("", math.nan)
    decided = {row[k] for k in ("ours", *playing)} - {"unknown"}
    row["conflict"] = len(decided) > 1
    return row


def geometric_mean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def peer_rows(rows: list[dict], peer: str, start: float) -> tuple[list[str], list[str]]:
    """A table row for one peer on one game's rows, and the deals where it is faster than our verdict."""
    both = [r for r in rows if r["ours"] != "unknown" and r[peer] not in ("unknown", "")]
    if not both:
        return [], []
    ratio = [r[f"{peer}_s"] / r["ours_s"] for r in both]
    ratio_line = [r[f"{peer}_s"] / r["ours_line_s"] for r in both]
    ratio_net = [max(r[f"{peer}_s"] - start, 1e-5) / r["ours_s"] for r in both]
    faster = sorted((r["ours_s"] / r[f"{peer}_s"], r["deal"]) for r in both if r[f"{peer}_s"] < r["ours_s"])
    decided = sum(r[peer] != "unknown" for r in rows)
    table = [
        f"| {PEER_NAMES[peer]} | {decided} | {len(both)} | {statistics.median(r[f'{peer}_s'] for r in both) * 1e3:.1f} "
        f"| {start * 1e3:.1f} | **{statistics.median(ratio):.1f}x** | {geometric_mean(ratio):.1f}x "
        f"| {statistics.median(ratio_line):.1f}x | {statistics.median(ratio_net):.1f}x | {len(faster)} "
        f"| {sum(f > 2 for f, _ in faster)} |"
    ]
    slow = [f"{d} ({f:.1f}x)" for f, d in reversed(faster)]
    return table, slow


def much_faster_share(rows: list[dict], starts: dict) -> str:
    """How often a peer is more than twice faster than our verdict, over every deal-peer pair both decided,
    with its 95% Wilson interval: a few lucky peer runs are to be expected, so the share is what to watch."""
    pairs = much = 0
    for row in rows:
        for peer in PEERS:
            if (row["game"], peer) in starts and row["ours"] != "unknown" and row[peer] not in ("unknown", ""):
                pairs += 1
                much += row[f"{peer}_s"] * 2 < row["ours_s"]
    low, high = wilson_interval(much, pairs)
    return (
        f"A peer more than 2x faster than our verdict: {much} of {pairs} deal-peer pairs both decided "
        f"({100 * much / max(pairs, 1):.1f}%, 95% Wilson interval {100 * low:.1f}-{100 * high:.1f}%)."
    )


def report(rows: list[dict], starts: dict, args: argparse.Namespace, wall: float) -> str:
    conflicts = [r for r in rows if r["conflict"]]
    lines = [f"# This solver, Solvitaire and Freecell Solver: PySolFC deals {args.deals}", ""]
    if conflicts:
        lines += ["**VERDICT CONFLICTS** (a solver wins a deal another calls lost):", ""]
        lines += [f"- {r['game']} {r['deal']}: ours {r['ours']}, " + ", ".join(
            f"{PEER_NAMES[p]} {r[p]}" for p in PEERS if r[p]) for r in conflicts]  # fmt: skip
        lines.append("")
    lines += [
        f"Budget: {args.timeout:g} s a deal for each solver.  Machine: {machine()}.",
        f"Command: `python benchmarks/bench_peers.py {' '.join(sys.argv[1:])}` ({wall / 60:.0f} min, one process "
        "at a time, the deals interleaved).",
        "",
        "Ours: in-process `solve()` wall time, verdict only (the line converted and replayed by the reference "
        "engine, not shortened); *with line*: shortened as the CLI prints it.  Peers: process wall time, start "
        "included (*start*: median on a trivial board); *net of start*: the ratio with that start taken off the "
        "peer's time.  Ratios are peer / ours over the deals both decided; *faster*: deals where the peer's "
        "time is below our verdict time, *> 2x*: more than twice below.",
        "",
        much_faster_share(rows, starts),
        "",
    ]
    for game in dict.fromkeys(r["game"] for r in rows):
        game_rows = [r for r in rows if r["game"] == game]
        ours_decided = sum(r["ours"] != "unknown" for r in game_rows)
        verdict_s = [r["ours_s"] for r in game_rows if r["ours"] != "unknown"]
        line_s = [r["ours_line_s"] for r in game_rows if r["ours"] != "unknown"]
        lines += [
            f"## {GAMES[game].title}",
            "",
            f"This solver decides {ours_decided} of {len(game_rows)} "
            f"({sum(r['ours'] == 'won' for r in game_rows)} won); median {statistics.median(verdict_s) * 1e3:.1f} ms "
            f"a deal for the verdict, {statistics.median(line_s) * 1e3:.1f} ms with the shortened line.",
            "",
            "| peer | decided | both decided | peer median ms | start ms | median ratio | geometric mean "
            "| median ratio, with line | median ratio, net of start | faster | > 2x |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        slow_lists = []
        for peer in PEERS:
            if (game, peer) not in starts:
                lines.append(f"| {PEER_NAMES[peer]} | not run | | | | | | | | | |")
                continue
            table, slow = peer_rows(game_rows, peer, starts[game, peer])
            lines += table
            if slow:
                slow_lists.append(f"- {PEER_NAMES[peer]} faster than our verdict on: {', '.join(slow)}")
        lines += ["", *(slow_lists or ["No peer is faster than our verdict on any deal."]), ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="bakers-dozen,good-measure,portuguese-solitaire")
    parser.add_argument("--deals", default="1-100")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds a deal, for each solver")
    parser.add_argument("--solvitaire", help="Solvitaire's binary")
    parser.add_argument("--fc-solve", help="Freecell Solver's fc-solve binary")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench_peers")
    args = parser.parse_args()
    games = args.games.split(",")
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    for path in (args.solvitaire, args.fc_solve):
        if path is not None and not Path(path).is_file():
            parser.error(f"no such binary: {path}")
    warm_up()
    rows, starts = [], {}
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        peers = Peers(args.solvitaire, args.fc_solve, args.timeout, Path(scratch))
        for game in games:
            playing = [p for p in PEERS if peers.plays(p, game)]
            for peer in playing:
                starts[game, peer] = process_start(peers, peer, game)
            for number in parse_deals(args.deals):
                row = compare_deal(game, number, args.timeout, peers, playing)
                rows.append(row)
                if row["conflict"]:
                    print(f"VERDICT CONFLICT on {game} {number}: {row}", file=sys.stderr)
    with open(args.out.with_suffix(".csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    text = report(rows, starts, args, time.perf_counter() - began)
    args.out.with_suffix(".md").write_text(text + "\n")
    print(text)
    if any(r["conflict"] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
