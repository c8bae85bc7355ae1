"""Shorter winning lines: cut the detours out of the search's own path.

A depth-first path wanders: it moves cards away and back, and visits
positions that differ from earlier ones only by the order of the piles.  We
walk the path and, from each position, take the move that lands furthest
along it, comparing positions up to pile order (a 128-bit Zobrist key over
(card, card beneath) pairs, as the kernel does); after such a jump the rest
of the path is relabelled pile by pile.  The result is replayed by the
reference engine before anyone sees it, so a mistake here could only make
``solve`` fail loudly, never report a wrong line.
"""

from __future__ import annotations

import functools
import random
import time

from ..game.board import Board
from ..game.engine import Move, apply_move, legal_moves
from ..game.premises import classic
from ..game.rules import Rules

_BOTTOM = 52
_rng = random.Random(20261130)
_KEYS = [[_rng.getrandbits(128) for _card in range(52)] for _below in range(_BOTTOM + 1)]


def _pair(piles: list[list[int]], p: int, i: int) -> int:
    """The key of the card at height i of pile p resting on what lies beneath it."""
    return _KEYS[piles[p][i - 1] if i else _BOTTOM][piles[p][i]]


def _key(piles: list[list[int]]) -> int:
    k = 0
    for p, pile in enumerate(piles):
        for i in range(len(pile)):
            k ^= _pair(piles, p, i)
    return k


def _child_key(piles: list[list[int]], key: int, src: int, dst: int | None) -> int:
    key ^= _pair(piles, src, len(piles[src]) - 1)
    if dst is not None:
        card = piles[src][-1]
        key ^= _KEYS[piles[dst][-1] if piles[dst] else _BOTTOM][card]
    return key


def _play(piles: list[list[int]], move: Move) -> None:
    card = piles[move.source].pop()
    if move.target is not None:
        piles[move.target].append(card)


@functools.lru_cache(maxsize=16)
def _hosts(rules: Rules) -> tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]]:
    """For each card, the cards that may take it, and whether an empty pile may, by ``Rules.can_host``,
    read once per rules: the shortener asks thousands of times a line."""
    cards = range(52)
    hosts = tuple(tuple(host for host in cards if rules.can_host(host, card)) for card in cards)
    return hosts, tuple(rules.can_host(None, card) for card in cards)


def _furthest(
    piles: list[list[int]],
    found: list[int],
    key: int,
    last: dict[int, int],
    hosts: tuple,
    into_space: tuple[bool, ...],
    beyond: int,
) -> tuple[int, int, int | None] | None:
    """The move from ``piles`` (whose key is ``key``) to the position furthest along the path (``last``),
    if that is past ``beyond``: (where, source, target), target None to a foundation.  Ties go to the
    first in the order of source piles, each source's foundation move first, then its targets in pile
    order.  (One deck: each top card is on one pile only.)"""
    on_top = {pile[-1]: p for p, pile in enumerate(piles) if pile}
    spaces = [p for p, pile in enumerate(piles) if not pile]
    best = None
    for src, pile in enumerate(piles):
        if not pile:
            continue
        card = pile[-1]
        lifted = key ^ _pair(piles, src, len(pile) - 1)  # the key without the card
        if found[card % 4] == card // 4:
            j = last.get(lifted, -1)
            if j > beyond:
                beyond, best = j, (j, src, None)
        targets = [on_top[host] for host in hosts[card] if host in on_top]
        # A lone card into a space makes the same position up to pile order: no shortcut.
        if spaces and len(pile) > 1 and into_space[card]:
            targets += spaces
        for dst in sorted(targets):
            j = last.get(lifted ^ _KEYS[piles[dst][-1] if piles[dst] else _BOTTOM][card], -1)
            if j > beyond:
                beyond, best = j, (j, src, dst)
    return best


def _relabel(actual: list[list[int]], path: list[list[int]]) -> list[int] | None:
    """sigma with actual[sigma[k]] == path[k] for every pile k, or None if none exists."""
    where: dict[tuple[int, ...], list[int]] = {}
    for p, pile in enumerate(actual):
        where.setdefault(tuple(pile), []).append(p)
    sigma = []
    for pile in path:
        spots = where.get(tuple(pile))
        if not spots:
            return None
        sigma.append(spots.pop())
    return sigma


def shorten(board: Board, moves: list[Move], rules: Rules, deadline: float | None = None) -> list[Move]:
    """A winning line no longer than ``moves`` through positions of ``moves`` (up to pile order).

    Past ``deadline`` (a ``time.perf_counter()`` value) the rest of the line
    is kept as the search found it, relabelled, so a time budget holds even
    on a line of a million moves.  A line that worries a card back is kept
    as it is: the shortcuts here know no moves off a foundation.  Games with
    redeals, runs or other building rules take the plain shortcuts of
    :func:`shorten_exact`."""
    if not classic(rules):
        return shorten_exact(board, moves, rules, deadline)
    if any(move.source < 0 for move in moves):
        return moves
    path_piles = [list(p) for p in board.piles]
    keys = [_key(path_piles)]
    for move in moves:
        keys.append(_child_key(path_piles, keys[-1], move.source, move.target))
        _play(path_piles, move)
    last = {k: i for i, k in enumerate(keys)}

    hosts, into_space = _hosts(rules)
    actual = [list(p) for p in board.piles]
    found = list(board.foundations)
    path_piles = [list(p) for p in board.piles]  # the path replayed up to `at`
    at, i, sigma = 0, 0, list(range(len(actual)))
    out: list[Move] = []
    key = keys[0]

    def advance_to(j: int) -> None:
        nonlocal at
        while at < j:
            _play(path_piles, moves[at])
            at += 1

    target = last[key]
    if target > 0:
        advance_to(target)
        sigma = _relabel(actual, path_piles) or sigma
        i = target if sigma is not None else 0
    while i < len(moves):
        if deadline is not None and time.perf_counter() > deadline:
            return out + [Move(sigma[m.source], None if m.target is None else sigma[m.target]) for m in moves[i:]]
        here = moves[i]
        step = Move(sigma[here.source], None if here.target is None else sigma[here.target])
        best_j, best_move = i + 1, step
        further = _furthest(actual, found, key, last, hosts, into_space, best_j)
        if further is not None:
            best_j, best_move = further[0], Move(further[1], further[2])
        card = actual[best_move.source][-1]
        key = _child_key(actual, key, best_move.source, best_move.target)
        _play(actual, best_move)
        if best_move.target is None:
            found[card % 4] += 1
        advance_to(best_j)
        if best_j != i + 1 or best_move != step:  # the path's own next move keeps actual[sigma[k]] == path[k]
            sigma = _relabel(actual, path_piles)
            if sigma is None:  # a key collision: give up shortening, keep the search's own line
                return moves
        i = best_j
        out.append(best_move)
    return out


def shorten_exact(board: Board, moves: list[Move], rules: Rules, deadline: float | None = None) -> list[Move]:
    """A winning line no longer than ``moves``: from each position, the legal move (the reference engine's)
    that lands furthest along the line, positions compared exactly (pile order, redeals left and all).
    Past ``deadline`` the rest of the line is kept as it is."""
    positions = [board]
    for move in moves:
        positions.append(apply_move(positions[-1], move, rules))
    last = {position: i for i, position in enumerate(positions)}
    out: list[Move] = []
    i = last[board]
    while i < len(moves):
        if deadline is not None and time.perf_counter() > deadline:
            return out + moves[i:]
        best_j, best_move = i + 1, moves[i]
        for move in legal_moves(positions[i], rules):
            j = last.get(apply_move(positions[i], move, rules), -1)
            if j > best_j:
                best_j, best_move = j, move
        out.append(best_move)
        i = best_j
    return out
