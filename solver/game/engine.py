"""The reference rules engine: plain Python, written for clarity, not speed.

It checks every solution the fast solver returns, and its exhaustive search
is the yardstick the tests hold the fast solver to on small deals.  It shares
no code with the kernel, and it prunes nothing: no safe-move rule, no
symmetry, just every legal move from every state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import Board
from .cards import SUITS, card_text, is_red, make_card, rank_of, suit_of
from .premises import check_supported
from .rules import UNLIMITED, UNLIMITED_TEXT, Rules

REDEAL_SOURCE = -100  # ``Move.source`` of a redeal
_ILLEGAL = -2  # where ``_destination`` says a move the rules forbid goes (a foundation's index is >= 0)


class IllegalMoveError(ValueError):
    """A move the rules do not allow in that position."""


@dataclass(frozen=True)
class Move:
    """The top ``count`` cards of pile ``source`` go to pile ``target``, or the top card to its
    foundation when ``target`` is None; or a redeal (:data:`REDEAL`).

    Piles are numbered from 0 here; text shows them from 1.  With worrying
    back, a negative ``source`` -1-f is foundation f (``Board.foundations[f]``:
    suit f % 4; with two decks a suit's higher foundation first).  Where
    foundations build by alternate colour two of them may take a card, and a
    foundation's top card may pass to another: ``foundation`` says which
    takes it (None: the first that does).
    """

    source: int
    target: int | None = None
    count: int = 1
    foundation: int | None = None

    @property
    def is_redeal(self) -> bool:
        return self.source == REDEAL_SOURCE


REDEAL = Move(REDEAL_SOURCE)


def _moving_cards(board: Board, move: Move) -> tuple[int, ...]:
    if move.source < 0:
        index = -1 - move.source
        return (board.founded[index][-1] if board.founded else make_card(board.foundations[index], index % 4),)
    return board.piles[move.source][-move.count :]


def redeal_sizes(cards: int, piles: int) -> list[int]:
    """How many cards each pile gets at a redeal: fours from the first pile; PySolFC's Cruel_Talon gives
    the first piles one more each, in turn, when four a pile is not enough (only small test decks)."""
    sizes = [4] * piles
    for extra in range(cards - 4 * piles):
        sizes[extra % piles] += 1
    left, dealt = cards, []
    for size in sizes:
        dealt.append(min(size, left))
        left -= dealt[-1]
    return dealt


def _in_fours_reversed(cards: list[int]) -> list[int]:
    return [c for i in range(0, len(cards), 4) for c in reversed(cards[i : i + 4])]


def redealt(piles: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The piles after a redeal, as PySolFC's Cruel_Talon.dealCards makes them.

    It moves the cards of each pile in turn, from the first pile and each
    pile from its top down, one by one onto a hidden pile; moves that pile to
    the talon in packets of four kept in order (the odd packet first); and
    deals from the talon's top four cards to each pile in turn, one at a
    time.  So, where every pile gets four, reading the piles in order, each
    from its top down, gives the same sequence before and after: only the
    cut into piles changes, a pile of four that starts at a multiple of four
    comes back as it was, and the piles at the end may be short or empty."""
    reading = [c for pile in piles for c in reversed(pile)]
    dealt = _in_fours_reversed(reading)  # the order the talon gives them out, each pile bottom first
    new, start = [], 0
    for size in redeal_sizes(len(dealt), len(piles)):
        new.append(tuple(dealt[start : start + size]))
        start += size
    return tuple(new)


def foundations_taking(board: Board, card: int, rules: Rules) -> list[int]:
    """The indices of the foundations that take ``card``: its suit's (two decks: either of its suit's two);
    by alternate colour, the one of the card's suit for an Ace, else any whose top card is one rank lower
    and of the other colour (PySolFC's AC_FoundationStack)."""
    if rules.foundations_alternate:
        return [index for index, held in enumerate(board.founded) if _alternate_takes(index, held, card)]
    indices = range(suit_of(card), len(board.foundations), 4)
    return [index for index in indices if rules.next_on_foundation(board.foundations[index]) == rank_of(card)]


def _alternate_takes(index: int, held: tuple[int, ...], card: int) -> bool:
    if not held:
        return card == make_card(1, index)
    return rank_of(card) == rank_of(held[-1]) + 1 and is_red(card) != is_red(held[-1])


def _taking_foundation(board: Board, move: Move, card: int, rules: Rules) -> int:
    """The foundation ``move`` puts ``card`` on: the one it names if that one takes it, else (naming none)
    the first that does; ``_ILLEGAL`` if there is none."""
    taking = foundations_taking(board, card, rules)
    if move.foundation is not None:
        return move.foundation if move.foundation in taking else _ILLEGAL
    return taking[0] if taking else _ILLEGAL


def _as_played(board: Board, rules: Rules) -> Board:
    """``board`` with its foundations' cards where foundations build by alternate colour (a board written
    with empty foundations, as a deal is, has none yet)."""
    if rules.foundations_alternate and not board.founded and not any(board.foundations):
        return replace(board, founded=((),) * len(board.foundations))
    return board


def is_legal(board: Board, move: Move, rules: Rules) -> bool:
    return _destination(_as_played(board, rules), move, rules) != _ILLEGAL


def _destination(board: Board, move: Move, rules: Rules) -> int | None:
    """Where ``move`` puts its cards, if the rules allow it in ``board`` (its foundations as played): the
    index of the foundation that takes them, or None for a pile or a redeal; else ``_ILLEGAL``."""
    if move.source == REDEAL_SOURCE:
        return None if board.redeals != 0 and move.target is None and move.count == 1 else _ILLEGAL
    if move.source < 0:  # worrying back: a foundation's top card onto a pile, or to another foundation
        index = -1 - move.source
        if not rules.worrying_back or index >= len(board.foundations) or board.foundations[index] == 0:
            return _ILLEGAL
        if move.target is None:  # passing between foundations by alternate colour
            if not rules.foundations_alternate or move.count != 1:
                return _ILLEGAL
            return _taking_foundation(board, move, _moving_cards(board, move)[0], rules)
        if not 0 <= move.target < len(board.piles) or move.count != 1:
            return _ILLEGAL
        host = board.piles[move.target]
        return None if rules.can_host(host[-1] if host else None, _moving_cards(board, move)[0]) else _ILLEGAL
    if not 0 <= move.source < len(board.piles) or not 1 <= move.count <= len(board.piles[move.source]):
        return _ILLEGAL
    cards = _moving_cards(board, move)
    if move.target is None:
        return _taking_foundation(board, move, cards[0], rules) if move.count == 1 else _ILLEGAL
    if not 0 <= move.target < len(board.piles) or move.target == move.source:
        return _ILLEGAL
    host = board.piles[move.target]
    if move.count > 1 and not _may_move_run(board, move, rules):
        return _ILLEGAL
    return None if rules.can_host(host[-1] if host else None, cards[0]) else _ILLEGAL


def _may_move_run(board: Board, move: Move, rules: Rules) -> bool:
    """Whether the top ``move.count`` cards of its pile may move together (one card always may): a run of
    face-up cards, each built on the one beneath, no longer than the spaces allow."""
    if move.count > _longest_run(board, move.source, rules):
        return False
    spaces = sum(1 for pile in board.piles if not pile)
    return move.count <= rules.max_run(spaces, into_space=not board.piles[move.target])


def _longest_run(board: Board, source: int, rules: Rules) -> int:
    """How many cards from the top of pile ``source`` may move together, spaces aside: 1, or where runs move,
    its top cards that are face up, each built on the one beneath."""
    if source < 0 or not rules.sequence_moves:
        return 1
    pile = board.piles[source]
    count = 1
    while count < len(pile) and pile[-count - 1] not in board.down and rules.can_host(pile[-count - 1], pile[-count]):
        count += 1
    return count


def legal_moves(board: Board, rules: Rules) -> list[Move]:
    check_supported(rules)
    board = _as_played(board, rules)
    moves = []
    foundations = range(-len(board.foundations), 0) if rules.worrying_back else []
    for source in [*foundations, *range(len(board.piles))]:
        for count in range(1, _longest_run(board, source, rules) + 1):
            for target in [None, *range(len(board.piles))]:
                # Foundations by alternate colour: a move to each foundation that takes the card.
                for foundation in (
                    range(len(board.foundations)) if rules.foundations_alternate and target is None else [None]
                ):
                    move = Move(source, target, count, foundation)
                    if is_legal(board, move, rules):
                        moves.append(move)
    if is_legal(board, REDEAL, rules):
        moves.append(REDEAL)
    return moves


def apply_move(board: Board, move: Move, rules: Rules) -> Board:
    board = _as_played(board, rules)
    target = _destination(board, move, rules)
    if target == _ILLEGAL:
        raise IllegalMoveError(f"illegal move {move} in\n{board.to_text()}")
    if move.is_redeal:
        left = board.redeals if board.redeals == UNLIMITED else board.redeals - 1
        return Board(redealt(board.piles), board.foundations, redeals=left, founded=board.founded)
    piles = list(board.piles)
    down = board.down
    cards = _moving_cards(board, move)
    foundations = list(board.foundations)
    founded = list(board.founded)
    if move.source < 0:
        index = -1 - move.source
        foundations[index] = rules.previous_on_foundation(foundations[index])
        if founded:
            founded[index] = founded[index][:-1]
    else:
        piles[move.source] = piles[move.source][: -move.count]
        uncovered = piles[move.source][-1:]
        if uncovered and uncovered[0] in down:  # the card uncovered is turned face up
            down = down - set(uncovered)
    if move.target is None:
        foundations[target] = rank_of(cards[0])
        if founded:
            founded[target] = founded[target] + cards
    else:
        piles[move.target] = piles[move.target] + cards
    return Board(tuple(piles), tuple(foundations), redeals=board.redeals, down=down, founded=tuple(founded))


def replay(board: Board, moves: list[Move], rules: Rules) -> Board:
    """Play ``moves`` from ``board``; raise :class:`IllegalMoveError` at the first illegal one."""
    check_supported(rules)
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
    """``7H from pile 3 onto 8C (pile 9)``, ``7H from pile 3 to empty pile 5``, ``2S from pile 4 to
    foundation``, ``7H 6H 5H from pile 2 onto 8H (pile 6)``, ``redeal (2 left)``; where the move
    uncovers a face-down card, ``..., turning up 5D``."""
    if move.is_redeal:
        left = UNLIMITED_TEXT if board.redeals == UNLIMITED else f"{board.redeals - 1} left"
        return f"redeal ({left})"
    cards = " ".join(card_text(c) for c in _moving_cards(board, move))
    uncovered = board.piles[move.source][-move.count - 1 : -move.count] if move.source >= 0 else ()
    turning = f", turning up {card_text(uncovered[0])}" if uncovered and uncovered[0] in board.down else ""
    origin = f"pile {move.source + 1}"
    if move.source < 0:  # by alternate colour (cards may pass between foundations), which one it leaves
        origin = f"foundation {SUITS[-1 - move.source]}" if board.founded else "foundation"
    if move.target is None:
        target = "" if move.foundation is None else f" {SUITS[move.foundation]}"  # by alternate colour: which
        return f"{cards} from {origin} to foundation{target}{turning}"
    target = board.piles[move.target]
    if not target:
        return f"{cards} from {origin} to empty pile {move.target + 1}{turning}"
    return f"{cards} from {origin} onto {card_text(target[-1])} (pile {move.target + 1}){turning}"


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
    check_supported(rules)
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
