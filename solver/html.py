"""Self-contained HTML pages: a deal and its solution to step through, and a batch's report.

Each page is one file with its data, style and script inline: no network,
no external assets, it opens from disk in any browser.  The replay's
positions are computed here, by the reference engine replaying the moves,
so the page only draws them; ``#step=N`` (or ``#step=last``) in the page's
address opens it at a move, which is how the browser test reads it.
"""

from __future__ import annotations

import html
import json
import math
from typing import TYPE_CHECKING

import numpy as np

from .game.board import Board
from .game.cards import RANK_TEXT
from .game.engine import apply_move, describe_moves
from .game.rules import Rules
from .search.result import Budget, SolveResult
from .words import FOUND_BY_WORDS, LOST, UNKNOWN, VERDICTS, WON

if TYPE_CHECKING:
    from .batch import BatchOutcome


def _frame(board: Board) -> dict:
    return {"piles": [list(p) for p in board.piles], "found": list(board.foundations), "down": sorted(board.down)}


def _budget_text(budget: Budget) -> str:
    parts = ["no time limit" if budget.seconds is None else f"{budget.seconds:g} s"]
    parts.append(f"{budget.memory / 2**30:g} GiB")
    if budget.positions is not None:
        parts.append(f"{budget.positions:,} positions")
    return ", ".join(parts)


def replay_data(
    board: Board, rules: Rules, result: SolveResult, title: str, source: str, budget: Budget | None = None
) -> dict:
    """What the replay page draws: every position of the line, each move with its text."""
    frames, moves = [_frame(board)], []
    position = board
    for move, text in zip(result.moves, describe_moves(board, result.moves, rules), strict=True):
        if move.is_redeal:  # every pile changes: nothing to single out
            position = apply_move(position, move, rules)
            moves.append({"text": text, "card": None, "from": -1, "to": -2})
            frames.append(_frame(position))
            continue
        source_pile = move.source if move.source >= 0 else -1
        card = position.piles[move.source][-move.count] if move.source >= 0 else None  # a run: its bottom card
        position = apply_move(position, move, rules)
        if card is None:  # worrying back: the card now on top of its target pile
            card = position.piles[move.target][-1]
        target = -1 if move.target is None else move.target
        moves.append({"text": text, "card": card, "from": source_pile, "to": target})
        frames.append(_frame(position))
    stats = [
        ("verdict", f"{result.verdict}" + (f" ({result.reason})" if result.reason else "")),
        ("positions searched", f"{result.positions:,}"),
        ("time", f"{result.seconds:.3f} s"),
    ]
    if result.found_by:
        stats.append(("decided by", FOUND_BY_WORDS.get(result.found_by, result.found_by)))
    if budget is not None:
        stats.append(("budget", _budget_text(budget)))
    if result.verdict == WON:
        stats.append(("moves", f"{len(result.moves)}"))
    return {
        "title": title,
        "source": source,
        "rules": rules.describe(),
        "note": " ".join(filter(None, [board.note, _face_down_note(board, rules)])),
        "verdict": result.verdict,
        "explanation": result.explanation(),
        "stats": stats,
        "frames": frames,
        "moves": moves,
        "ranks": RANK_TEXT[: rules.ranks],
    }


def _face_down_note(board: Board, rules: Rules) -> str:
    if not (board.down or rules.face_down_rows):
        return ""
    return (
        "Striped cards are face down in the game: the solver sees them (it decides the thoughtful game), "
        "a player does not. A move that uncovers one turns it up."
    )


def replay_page(board: Board, rules: Rules, result: SolveResult, source: str, budget: Budget | None = None) -> str:
    """One self-contained page showing the deal, the verdict and, for a win, every move; ``budget``: the
    one the solve had, shown beside the statistics."""
    data = replay_data(board, rules, result, f"{rules.title}, {source}", source, budget)
    return _page(f"{rules.title}, {source}: {result.verdict}", _REPLAY_BODY, _REPLAY_SCRIPT, data)


RATE_POINTS = 1000  # points of the running rate drawn at most: a million deals make a page of kilobytes


def _running_rate_svg(verdicts: np.ndarray) -> str:
    """The win rate among decided deals after each deal (verdict codes in deal order, as
    :data:`solver.words.VERDICTS` numbers them), as an inline SVG."""
    width, height, pad = 640, 220, 40
    won = np.cumsum(verdicts == VERDICTS.index(WON))
    decided = np.cumsum(verdicts != VERDICTS.index(UNKNOWN))
    shown = np.unique(np.linspace(0, len(verdicts) - 1, min(len(verdicts), RATE_POINTS)).astype(np.int64))
    points = [(int(i) + 1, won[i] / decided[i]) for i in shown if decided[i]]
    if not points:
        return "<p>No deal decided yet.</p>"
    low = min(rate for _, rate in points)
    low = max(0.0, math.floor(low * 20) / 20 - 0.05)
    n = max(len(verdicts), 2)

    def xy(i: int, rate: float) -> str:
        x = pad + (width - 2 * pad) * (i - 1) / (n - 1)
        y = height - pad - (height - 2 * pad) * (rate - low) / (1 - low or 1)
        return f"{x:.1f},{y:.1f}"

    line = " ".join(xy(i, r) for i, r in points)
    ticks = "".join(
        f'<text x="{pad - 6}" y="{height - pad - (height - 2 * pad) * (t - low) / (1 - low or 1) + 4:.1f}" '
        f'text-anchor="end">{100 * t:.0f}%</text>'
        for t in (low, (low + 1) / 2, 1.0)
    )
    return (
        f'<svg class="plot" viewBox="0 0 {width} {height}" role="img" aria-label="running win rate">'
        f'<rect x="{pad}" y="{pad}" width="{width - 2 * pad}" height="{height - 2 * pad}" class="frame"/>'
        f'<polyline points="{line}" class="rate"/>{ticks}'
        f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">deals, in order (1 to {len(verdicts)})</text>'
        "</svg>"
    )


def _histogram_svg(seconds: np.ndarray) -> str:
    """Solve times on a log scale (decades from 1 ms), as an inline SVG bar chart."""
    edges = [0.001 * 10 ** (k / 2) for k in range(0, 12)]  # 1 ms .. ~300 s, half decades
    counts = np.bincount(np.searchsorted(edges, seconds, side="right"), minlength=len(edges) + 1).tolist()
    labels = ["<1 ms"] + [_seconds_label(e) for e in edges]
    width, height, pad, top = 640, 220, 40, max(counts) or 1
    bar = (width - 2 * pad) / len(counts)
    bars = "".join(
        f'<rect x="{pad + k * bar + 2:.1f}" y="{height - pad - (height - 2 * pad) * c / top:.1f}" '
        f'width="{bar - 4:.1f}" height="{(height - 2 * pad) * c / top:.1f}" class="bar"><title>{c}</title></rect>'
        f'<text x="{pad + (k + 0.5) * bar:.1f}" y="{height - pad + 14}" text-anchor="middle" class="small">'
        f"{html.escape(labels[k])}</text>"
        for k, c in enumerate(counts)
    )
    return (
        f'<svg class="plot" viewBox="0 0 {width} {height}" role="img" aria-label="solve times">{bars}'
        f'<text x="{pad}" y="{pad - 10}" class="small">deals (at most {top} in a bar), from the time shown up'
        "</text>"
        "</svg>"
    )


def _seconds_label(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.0f} s"


def report_page(rules: Rules, outcome: BatchOutcome, command: str) -> str:
    """One page for a batch: the win rate and its interval, the running rate, the solve times, and the
    lost and unknown deals, each with the command that shows it."""
    tally = outcome.tally
    low, high = tally.interval
    rate = "n/a" if tally.won + tally.lost == 0 else f"{100 * tally.rate:.{tally.digits()}f}%"
    notable = outcome.records(verdicts=(LOST, UNKNOWN))  # a million won deals need not be read whole
    rows = []
    for verdict in (LOST, UNKNOWN):
        chosen = [r for r in notable if r["verdict"] == verdict]
        items = "".join(
            f"<li><b>{r['deal']}</b> {html.escape(r.get('reason') or r.get('found_by') or '')}, "
            f"{r['seconds']:.2f} s: <code>bakers solve --game {html.escape(rules.name)} --deal {r['deal']} "
            f"--html deal-{r['deal']}.html</code></li>"
            for r in chosen
        )
        heading = f"<h2>{verdict.capitalize()} deals ({len(chosen)})</h2>"
        rows.append(f"{heading}<ul class='deals'>{items or '<li>none</li>'}</ul>")
    digits = tally.digits()
    body = (
        f"<h1>{html.escape(rules.title)}: {tally.deals} deals</h1>"
        f"<p class='rules'>{html.escape(rules.describe())}</p>"
        f"<p class='headline'>won <b>{tally.won}</b>, lost <b>{tally.lost}</b>, unknown <b>{tally.unknown}</b>; "
        f"win rate among decided deals <b>{rate}</b>, 95% Wilson interval "
        f"<b>[{100 * low:.{digits}f}%, {100 * high:.{digits}f}%]</b> (an unknown deal counts as lost for the "
        f"lower bound and as won for the upper)</p>"
        f"<p>Command: <code>{html.escape(command)}</code></p>"
        f"<h2>The win rate after each deal</h2>{_running_rate_svg(outcome.verdicts)}"
        f"<h2>Solve times</h2>{_histogram_svg(outcome.seconds)}" + "".join(rows)
    )
    return _page(f"{rules.title}: win rate", body, "", None)


def _page(title: str, body: str, script: str, data: dict | None) -> str:
    payload = ""
    if data is not None:  # inert JSON, safe inside a script element
        text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
        payload = f'<script id="data" type="application/json">{text}</script>'
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>{body}{payload}<script>{script}</script></body></html>\n"
    )


_STYLE = """
body{font:15px/1.4 system-ui,sans-serif;margin:16px;background:#f4f1ea;color:#222}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:18px 0 6px}
.rules,.note,.small{color:#555;font-size:13px}
.layout{display:flex;gap:18px;align-items:flex-start;flex-wrap:wrap}
.table{background:#2f6b3f;border-radius:10px;padding:12px;min-width:300px}
.row{display:flex;gap:8px;margin-bottom:12px}
.piles{display:flex;gap:8px;flex-wrap:wrap}
.pile{width:46px;min-height:68px;border:1px dashed #8fbf9a;border-radius:6px;position:relative;padding-bottom:4px}
.pile .label{position:absolute;bottom:-16px;width:100%;text-align:center;color:#cfe6d4;font-size:11px}
.card{width:44px;height:62px;border:1px solid #999;border-radius:5px;background:#fff;font-weight:600;
 font-size:15px;padding:2px 4px;box-sizing:border-box;margin-top:-44px;box-shadow:0 1px 2px #0004}
.pile .card:first-child,.found .card{margin-top:0}
.red{color:#c0262d}.black{color:#111}
.card.down{background:repeating-linear-gradient(45deg,#dfe6ef,#dfe6ef 4px,#cdd7e4 4px,#cdd7e4 8px);opacity:.9}
.found{width:46px;height:64px;border:1px dashed #8fbf9a;border-radius:6px;color:#cfe6d4;text-align:center;
 font-size:26px;line-height:62px}
.moved{outline:3px solid #ffcc00;outline-offset:1px}.src,.dst{border-color:#ffcc00;border-style:solid}
.controls{margin:10px 0;display:flex;gap:6px;align-items:center}
button{font-size:15px;padding:4px 10px;border-radius:5px;border:1px solid #777;background:#fff;cursor:pointer}
.moves{max-height:560px;overflow:auto;background:#fff;border:1px solid #ccc;border-radius:6px;padding:6px 8px;
 min-width:300px;margin:0;padding-left:3em}
.moves li{cursor:pointer;padding:1px 4px;border-radius:3px}.moves li.current{background:#ffe680}
.verdict-won{color:#1b7a2e}.verdict-lost{color:#b3261e}.verdict-unknown{color:#8a6d00}
dl{display:grid;grid-template-columns:max-content max-content;gap:2px 12px;margin:8px 0}dt{color:#555}dd{margin:0}
svg.plot{width:100%;max-width:680px;background:#fff;border:1px solid #ccc;border-radius:6px;font-size:12px}
svg .frame{fill:none;stroke:#bbb}svg .rate{fill:none;stroke:#2f6b3f;stroke-width:2}svg .bar{fill:#2f6b3f}
svg .small{font-size:10px;fill:#555}.deals{columns:2}
"""

_REPLAY_BODY = """
<h1 id="title"></h1><p class="rules" id="rules"></p><p class="note" id="note"></p>
<p>Verdict: <b id="verdict"></b> <span id="explanation"></span></p><dl id="stats"></dl>
<div class="layout"><div>
<div class="controls" id="controls">
<button id="first" title="first (Home)">|&#x25C0;</button><button id="back" title="back (&#x2190;)">&#x25C0;</button>
<button id="play" title="play or pause (space)">&#x25B6;</button>
<button id="forward" title="forward (&#x2192;)">&#x25B6;&#x25B6;</button>
<button id="last" title="last (End)">&#x25B6;|</button>
<span id="where"></span></div>
<div class="table"><div class="row" id="foundations"></div><div class="piles" id="piles"></div></div>
<p class="small">Each pile is drawn from its bottom card (top of the column) to its playable card (bottom).</p>
<p id="current" class="current-move"></p>
</div><ol class="moves" id="moves"></ol></div>
"""

_REPLAY_SCRIPT = """
const D = JSON.parse(document.getElementById('data').textContent);
const SUITS = ['\\u2663', '\\u2666', '\\u2665', '\\u2660'];
let step = 0, timer = null;
const $ = (id) => document.getElementById(id);
function cardEl(c, cls) {
  const e = document.createElement('div');
  const rank = D.ranks[Math.floor(c / 4)], suit = c % 4;
  e.className = 'card ' + (suit === 1 || suit === 2 ? 'red' : 'black') + (cls ? ' ' + cls : '');
  e.textContent = (rank === 'T' ? '10' : rank) + SUITS[suit];
  e.dataset.card = c;
  return e;
}
function draw() {
  const f = D.frames[step], m = step > 0 ? D.moves[step - 1] : null;
  const fo = $('foundations'); fo.innerHTML = '';
  f.found.forEach((r, i) => {
    const s = i % 4;  // two decks: eight foundations, the second of each suit at i + 4
    const slot = document.createElement('div'); slot.className = 'found'; slot.dataset.suit = s; slot.dataset.rank = r;
    if (r > 0) slot.appendChild(cardEl((r - 1) * 4 + s, m && m.to < 0 && m.card === (r - 1) * 4 + s ? 'moved' : ''));
    else slot.textContent = SUITS[s];
    fo.appendChild(slot);
  });
  const ps = $('piles'); ps.innerHTML = '';
  f.piles.forEach((pile, p) => {
    const e = document.createElement('div'); e.className = 'pile'; e.dataset.pile = p;
    if (m && m.from === p) e.classList.add('src');
    if (m && m.to === p) e.classList.add('dst');
    pile.forEach((c) => e.appendChild(cardEl(c, (m && m.card === c && m.to === p ? 'moved' : '')
      + (f.down.includes(c) ? ' down' : ''))));
    const l = document.createElement('div'); l.className = 'label'; l.textContent = p + 1; e.appendChild(l);
    ps.appendChild(e);
  });
  document.querySelectorAll('#moves li').forEach((li, i) => li.classList.toggle('current', i === step - 1));
  const cur = document.querySelector('#moves li.current'); if (cur) cur.scrollIntoView({block: 'nearest'});
  $('where').textContent = D.moves.length ? 'move ' + step + ' of ' + D.moves.length : '';
  $('current').textContent = m ? step + '. ' + m.text : (D.moves.length ? 'The deal, before the first move.' : '');
  $('current').dataset.step = step;
  history.replaceState(null, '', '#step=' + step);
}
function go(s) { step = Math.max(0, Math.min(D.frames.length - 1, s)); draw(); }
function play() {
  if (timer) { clearInterval(timer); timer = null; $('play').innerHTML = '&#x25B6;'; return; }
  if (step === D.frames.length - 1) go(0);
  $('play').innerHTML = '&#x275A;&#x275A;';
  timer = setInterval(() => { if (step >= D.frames.length - 1) play(); else go(step + 1); }, 600);
}
$('title').textContent = D.title; $('rules').textContent = D.rules; $('note').textContent = D.note || '';
$('verdict').textContent = D.verdict; $('verdict').className = 'verdict-' + D.verdict;
$('explanation').textContent = '(' + D.explanation + ')';
D.stats.forEach(([k, v]) => { const dt = document.createElement('dt'); dt.textContent = k;
  const dd = document.createElement('dd'); dd.textContent = v; $('stats').append(dt, dd); });
D.moves.forEach((m, i) => { const li = document.createElement('li'); li.textContent = m.text;
  li.addEventListener('click', () => go(i + 1)); $('moves').appendChild(li); });
if (!D.moves.length) { $('controls').style.display = 'none'; $('moves').style.display = 'none'; }
$('first').onclick = () => go(0); $('back').onclick = () => go(step - 1); $('play').onclick = play;
$('forward').onclick = () => go(step + 1); $('last').onclick = () => go(D.frames.length - 1);
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowRight') go(step + 1); else if (e.key === 'ArrowLeft') go(step - 1);
  else if (e.key === 'Home') go(0); else if (e.key === 'End') go(D.frames.length - 1);
  else if (e.key === ' ') { e.preventDefault(); play(); } });
const want = /step=(last|\\d+)/.exec(location.hash);
go(want ? (want[1] === 'last' ? D.frames.length - 1 : parseInt(want[1], 10)) : 0);
"""
