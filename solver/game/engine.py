"""The reference rules engine: plain Python, written for clarity, not speed.

It checks every solution the fast solver returns, and its exhaustive search
is the yardstick the tests hold the fast solver to on small deals.  It shares
no code with the kernel, and it prunes nothing: no safe-move rule, no
symmetry, just every legal move from every state.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .cards import card_text, make_card, rank_of, suit_of
from .rules import BUILD_RANK, Rules


class IllegalMoveError(ValueError):
    """A move the rules do not allow in that position."""


@dataclass(frozen=True)
class Move:
    """The top card of pile ``source`` goes to pile ``target``, or to its foundation when ``target`` is None.

    Piles are numbered from 0 here; text shows them from 1.  With worrying
    back, a negative ``source`` -1-s is the foundation of suit s.
    """

    source: int
    target: int | None = None


def _check_supported(rules: Rules) -> None:
    if rules.build != BUILD_RANK or rules.sequence_moves or rules.redeals:
        raise NotImplementedError(f"{rules.title}: only single-card, build-by-rank games without redeals")


def _can_place(board: Board, card: int, target: int, rules: Rules) -> bool:
    pile = board.piles[target]
    return rules.can_host(pile[-1] if pile else None, card)


def _moving_card(board: Board, move: Move) -> int:
    if move.source < 0:
        suit = -1 - move.source
        return make_card(board.foundations[suit], suit)
    return board.piles[move.source][-1]


def is_legal(board: Board, move: Move, rules: Rules) -> bool:
    if move.source < 0:  # worrying back: a foundation's top card onto a pile
        suit = -1 - move.source
        if not rules.worrying_back or suit > 3 or board.foundations[suit] == 0 or move.target is None:
            return False
        return 0 <= move.target < len(board.piles) and _can_place(board, _moving_card(board, move), move.target, rules)
    if not move.source < len(board.piles) or not board.piles[move.source]:
        return False
    card = board.piles[move.source][-1]
    if move.target is None:
        return board.foundations[suit_of(card)] == rank_of(card) - 1
    if not 0 <= move.target < len(board.piles) or move.target == move.source:
        return False
    return _can_place(board, card, move.target, rules)


def legal_moves(board: Board, rules: Rules) -> list[Move]:
    _check_supported(rules)
    moves = []
    foundations = range(-4, 0) if rules.worrying_back else []
    for source in [*foundations, *range(len(board.piles))]:
        for target in [None, *range(len(board.piles))]:
            move = Move(source, target)
            if is_legal(board, move, rules):
                moves.append(move)
    return moves


def apply_move(board: Board, move: Move, rules: Rules) -> Board:
    if not is_legal(board, move, rules):
        raise IllegalMoveError(f"illegal move {move} in\n{board.to_text()}")
    piles = list(board.piles)
    card = _moving_card(board, move)
    foundations = list(board.foundations)
    if move.source < 0:
        foundations[suit_of(card)] -= 1
    else:
        piles[move.source] = piles[move.source][:-1]
    if move.target is None:
        foundations[suit_of(card)] += 1
    else:
        piles[move.target] = piles[move.target] + (card,)
    return Board(tuple(piles), (foundations[0], foundations[1], foundations[2], foundations[3]))


def replay(board: Board, moves: list[Move], rules: Rules) -> Board:
    """Play ``moves`` from ``board``; raise :class:`IllegalMoveError` at the first illegal one."""
    _check_supported(rules)
    for number, move in enumerate(moves, 1):
        try:
            board = apply_move(board, move, rules)
        except IllegalMoveError as err:
            raise IllegalMoveError(f"move {number}: {err}") from None
    return board


def is_solution(board: Board, moves: list[Move], rules: Rules) -> bool:
    """True when ``moves`` are all legal and end with every card on a foundation."""
    try:
        return replay(board, moves, rules).is_won()
    except IllegalMoveError:
        return False


def describe_move(board: Board, move: Move) -> str:
    """``7H from pile 3 onto 8C (pile 9)``, ``7H from pile 3 to empty pile 5``, ``2S from pile 4 to foundation``."""
    card = card_text(_moving_card(board, move))
    if move.target is None:
        return f"{card} from pile {move.source + 1} to foundation"
    origin = "foundation" if move.source < 0 else f"pile {move.source + 1}"
    target = board.piles[move.target]
    if not target:
        return f"{card} from {origin} to empty pile {move.target + 1}"
    return f"{card} from {origin} onto {card_text(target[-1])} (pile {move.target + 1})"


def describe_moves(board: Board, moves: list[Move], rules: Rules) -> list[str]:
    lines = []
    for move in moves:
        lines.append(describe_move(board, move))
        board = apply_move(board, move, rules)
    return lines


def reference_search(board: Board, rules: Rules, max_states: int = 2_000_000) -> list[Move] | None:
    """Exhaustive depth-first search over exact positions.

    Returns a winning move list, or None when no position reachable from
    ``board`` is won.  Raises RuntimeError past ``max_states`` distinct positions.
    """
    _check_supported(rules)
    if board.is_won():
        return []
    seen = {board}
    stack = [(board, iter(legal_moves(board, rules)))]
    path: list[Move] = []
    while stack:
        position, moves = stack[-1]
        move = next(moves, None)
        if move is None:
            stack.pop()
            if path:
                path.pop()
            continue
        child = apply_move(position, move, rules)
        if child in seen:
            continue
        if child.is_won():
            return [*path, move]
        seen.add(child)
        if len(seen) > max_states:
            raise RuntimeError(f"reference search passed {max_states} positions")
        stack.append((child, iter(legal_moves(child, rules))))
        path.append(move)
    return None
