"""The games of the family, as data.

Each game is one :class:`Rules` value; the dealer, the reference engine and
the search kernel read nothing else.  ``../shared/RULES.md`` is the source.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields, replace
from functools import cache

from ..limits import PILE_ROWS
from .cards import is_red, rank_of, suit_of

BUILD_RANK = "rank"  # by rank, any suit
BUILD_SUIT = "suit"  # by rank within the suit
BUILD_ALTERNATE = "alternate-colour"  # by rank, red on black and black on red
BUILD_WORDS = {BUILD_RANK: "rank, any suit", BUILD_SUIT: "suit", BUILD_ALTERNATE: "alternate colour"}  # "down by ..."

UNLIMITED = -1  # ``Rules.redeals``: as many redeals as the player likes
UNLIMITED_TEXT = "unlimited"  # ... as a board's ``Redeals:`` line, the outputs and the moves write it


def redeals_count_text(count: int) -> str:
    """A number of redeals as a board's ``Redeals:`` line and the outputs write it: ``2``, ``unlimited``."""
    return UNLIMITED_TEXT if count == UNLIMITED else str(count)


EMPTY_NONE = "none"  # an empty pile stays empty
EMPTY_ANY = "any"  # any single card may go to an empty pile
EMPTY_KING = "king"  # only a King (the deck's top rank) may
EMPTY_RULES = (EMPTY_NONE, EMPTY_ANY, EMPTY_KING)  # what a rules file's ``empty_pile`` may say
SPACE_TAKES = {EMPTY_NONE: "nothing", EMPTY_ANY: "any card", EMPTY_KING: "a King"}  # what a space takes, in a word
EMPTY_TEXT = {
    EMPTY_NONE: "an empty pile stays empty",
    EMPTY_ANY: "any card may fill an empty pile",
    EMPTY_KING: "only a King may fill an empty pile",
}  # ... in a sentence

DEAL_BAKERS = "bakers-dozen"  # PySolFC's Baker's Dozen hook: Kings swapped down
DEAL_GOOD_MEASURE = "good-measure"  # the Baker's Dozen hook, then two Aces out
DEAL_PLAIN = "plain"  # PySolFC's Portuguese Solitaire: no hook
DEAL_BASES_LAST = "bases-last"  # PySolFC's Cruel hook: the foundations' base cards dealt last, to the foundations


def two_copies(rules: Rules) -> bool:
    """Whether the kernels see each card code twice, and so key a card by its place: two decks, or
    foundations by alternate colour (solver/search/arrays.py, "Foundations by alternate colour")."""
    return rules.decks > 1 or rules.foundations_alternate


def most_cards_a_pile(rules: Rules) -> int:
    """The most cards a pile may hold at the start of a search (it may grow by a run of every rank)."""
    return PILE_ROWS - rules.ranks - 1 if two_copies(rules) else rules.cards


# The rules keys a variant's rules file may not set yet, with the word for the person who asked.
UNSUPPORTED_KEYS = {
    "build": "a variant builds down by rank in any suit; the other building rules come with the named games only",
    "sequence_moves": "a variant moves single cards; sequence moves come with the named games only",
    "redeals": "a variant has no redeals; redeals come with the named games only",
}


class UnknownGameError(ValueError):
    """A game name that the project does not know."""


@dataclass(frozen=True)
class Rules:
    """One game of the family.

    ``ranks`` below 13 gives a reduced deck (Ace..rank ``ranks``, four suits);
    its top rank plays the King.  The tests use those; the named games all
    have 13.  ``founded``: how many foundations start with their base card,
    an Ace, or a King where the foundations build down.
    """

    name: str
    title: str
    pysol_id: int | None
    piles: int
    cards_per_pile: int
    founded: int = 0
    kings_to_bottom: bool = False
    build: str = BUILD_RANK
    both_ways: bool = False  # the tableau builds up or down; else down only
    foundations_down: bool = False  # foundations build King to Ace (Royal Family); else Ace to King
    empty_pile: str = EMPTY_NONE
    sequence_moves: bool = False  # a run built by the building rule moves as a unit
    runs_by_spaces: bool = False  # ... at most 2^k cards with k empty piles, 2^(k-1) into one (PySolFC's SuperMove)
    runs_into_spaces: bool = False  # ... and an empty pile takes a run; else a single card
    face_down_rows: tuple[int, ...] = ()  # rows of the deal (0: the first, the bottom) dealt face down
    redeals: int = 0  # how many; ``UNLIMITED``
    ranks: int = 13
    decks: int = 1  # two: every card twice, and two foundations per suit (Unusual, Baker's Dozen (2 decks))
    worrying_back: bool = False  # a foundation's top card may come back to the tableau
    # Foundations build up from their suit's Ace by alternate colour in any suit, and a foundation's top card
    # may pass to another foundation that takes it (PySolFC's Spanish Patience: AC_FoundationStack).
    foundations_alternate: bool = False
    pysolfc: bool = False  # the game as PySolFC plays it (``with_pysolfc``), not as ../shared/RULES.md states it
    deal_style: str = DEAL_BAKERS

    @property
    def cards(self) -> int:
        return 4 * self.ranks * self.decks

    @property
    def foundations(self) -> int:
        """How many foundations: one per suit and deck."""
        return 4 * self.decks

    def reduced(self, ranks: int, piles: int) -> Rules:
        """The same rules on this deck and table, the pile size following from them (the tests
        use it for small decks; rules files for their variants)."""
        in_play = 4 * ranks * self.decks - self.founded
        return replace(self, ranks=ranks, piles=piles, cards_per_pile=-(-in_play // piles), pysol_id=None)

    def changes_text(self) -> str:
        """The fields that differ from their defaults, as ``Rules(name='...', ...)``: what a batch record's
        ``rules`` digest and the test corpus's digests read, so that a new field (whose default keeps every
        old game as it was) changes neither."""
        changed = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if getattr(self, f.name) != f.default]
        return f"Rules({', '.join(changed)})"

    def digest(self) -> str:
        """16 hex digits that tell these rules from any others: two rules files of one name, say."""
        return _digest(self)

    def can_host(self, host: int | None, card: int) -> bool:
        """Whether ``card`` may be put on ``host``, the top card of a pile (None: an empty pile).

        The one statement of the building and empty-pile rules in plain Python: the reference engine
        and the line shortener read it; the kernels have their compiled twin (``builds_on`` and
        ``space_takes`` in solver/kernels/codes.py)."""
        if host is None:
            return self.space_takes(rank_of(card))
        step = rank_of(host) - rank_of(card)
        if not (step == 1 or (self.both_ways and step == -1)):
            return False
        if self.build == BUILD_SUIT:
            return suit_of(host) == suit_of(card)
        if self.build == BUILD_ALTERNATE:
            return is_red(host) != is_red(card)
        return True

    def max_run(self, spaces: int, into_space: bool) -> int:
        """The most cards one move may take, with ``spaces`` empty piles, into one of them or not.

        PySolFC's ``SuperMoveAC_RowStack`` (Castles in Spain, no free cells): ``1 << spaces`` onto a
        card, ``1 << (spaces - 1)`` into an empty pile; ``Martha_RowStack``: any run onto a card, a
        single card into an empty pile."""
        if not self.sequence_moves or (into_space and not self.runs_into_spaces):
            return 1
        if self.runs_by_spaces:
            return 1 << max(spaces - (1 if into_space else 0), 0)
        return self.cards

    @property
    def base_rank(self) -> int:
        """The rank a foundation starts with."""
        return self.ranks if self.foundations_down else 1

    def next_on_foundation(self, top: int) -> int:
        """The rank a foundation whose top card has rank ``top`` (0: empty) takes next; 0 when it is full."""
        if top == 0:
            return self.base_rank
        following = top - 1 if self.foundations_down else top + 1
        return following if 1 <= following <= self.ranks else 0

    def previous_on_foundation(self, top: int) -> int:
        """The top rank of a foundation whose top card (of rank ``top``) has come back (0: empty)."""
        following = top + 1 if self.foundations_down else top - 1
        return following if 1 <= following <= self.ranks else 0

    def founded_ranks(self, top: int) -> range:
        """The ranks on a foundation whose top card has rank ``top``."""
        if top == 0:
            return range(0)
        return range(top, self.ranks + 1) if self.foundations_down else range(1, top + 1)

    def space_takes(self, rank: int) -> bool:
        """Whether an empty pile may take a card of ``rank``."""
        return self.empty_pile == EMPTY_ANY or (self.empty_pile == EMPTY_KING and rank == self.ranks)

    def building(self) -> str:
        """How the tableau builds, in words: "down by suit", "up or down by alternate colour"."""
        way = "up or down" if self.both_ways else "down"
        return f"{way} by {BUILD_WORDS[self.build]}"

    def redeals_text(self) -> str:
        return {0: "no redeal", 1: "1 redeal"}.get(self.redeals, f"{redeals_count_text(self.redeals)} redeals")

    def empty_text(self) -> str:
        """What an empty pile takes, in a sentence: "only a King may fill an empty pile"."""
        return EMPTY_TEXT[self.empty_pile]

    def space_text(self) -> str:
        """What an empty pile takes, in a word or two: "a King", "any card or run"."""
        return SPACE_TAKES[self.empty_pile] + (" or run" if self.runs_into_spaces else "")

    def shape_text(self) -> str:
        """The deal's shape: "13 piles of 4", "10 piles of 5, piles 1-2 get 6"."""
        in_play = self.cards - self.founded
        short, extra = divmod(in_play, self.piles)
        if not extra or self.cards_per_pile != short + 1:
            return f"{self.piles} piles of {self.cards_per_pile}"
        first = "pile 1" if extra == 1 else f"piles 1-{extra}"
        return f"{self.piles} piles of {short}, {first} get{'s' if extra == 1 else ''} {short + 1}"

    def face_down_text(self) -> str:
        """Which rows are dealt face down: "rows 1-3 face down", "rows 1 and 3 face down"."""
        rows = [r + 1 for r in self.face_down_rows]
        if not rows:
            return "all cards face up"
        if len(rows) == 1:
            return f"row {rows[0]} face down"
        if rows == list(range(rows[0], rows[-1] + 1)):
            return f"rows {rows[0]}-{rows[-1]} face down"
        return f"rows {', '.join(map(str, rows[:-1]))} and {rows[-1]} face down"

    def describe(self) -> str:
        kings = "Kings moved to the bottom" if self.kings_to_bottom else "Kings left where they fall"
        base = "Kings" if self.foundations_down else "Aces"
        founded = f", {self.founded} {base} founded at the start" if self.founded else ""
        if self.decks > 1:
            founded = f", {self.decks} decks" + founded
        if self.foundations_down:
            founded += ", foundations build down from the King"
        if self.foundations_alternate:
            founded += ", foundations build up by alternate colour from their suit's Ace (a card may pass between them)"
        moves = "one card at a time"
        if self.sequence_moves:
            moves = "runs move as a unit" + (", as many cards as the empty piles allow" if self.runs_by_spaces else "")
            moves += "" if self.runs_into_spaces or self.empty_pile == EMPTY_NONE else ", one card into an empty pile"
        if self.face_down_rows:
            moves += f"; {self.face_down_text()} (the solver sees them: it decides the thoughtful game)"
        empty = self.empty_text() + ("; worrying back allowed" if self.worrying_back else "")
        return (
            f"{self.title}: {self.shape_text()}{founded}; {kings}; "
            f"build {self.building()}, {moves}; {empty}; {self.redeals_text()}"
        )


GAMES: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules("bakers-dozen", "Baker's Dozen", 31, 13, 4, kings_to_bottom=True),
        Rules(
            "good-measure",
            "Good Measure",
            86,
            10,
            5,
            founded=2,
            kings_to_bottom=True,
            deal_style=DEAL_GOOD_MEASURE,
        ),
        Rules("spanish-patience", "Spanish Patience", 85, 13, 4, kings_to_bottom=True, empty_pile=EMPTY_ANY),
        Rules(
            "portuguese-solitaire",
            "Portuguese Solitaire",
            308,
            13,
            4,
            empty_pile=EMPTY_KING,
            deal_style=DEAL_PLAIN,
        ),
        Rules(
            "spanish-patience-ii",
            "Spanish Patience II",
            664,
            13,
            4,
            empty_pile=EMPTY_ANY,
            deal_style=DEAL_PLAIN,
        ),
        # PySolFC pysollib/games/bakersdozen.py: Cruel's row stacks take one card and nothing when empty; its
        # talon (Cruel_Talon, max_rounds=-1) redeals without end; its hook deals the Aces last, to the foundations.
        Rules("cruel", "Cruel", 104, 12, 4, founded=4, build=BUILD_SUIT, redeals=UNLIMITED, deal_style=DEAL_BASES_LAST),
        # PySolFC's RippleFan: 13 piles, no hook, Cruel's talon.  Its SS_RowStack would move runs, but RULES.md
        # says single cards, and where they disagree RULES.md decides.
        Rules("ripple-fan", "Ripple Fan", 369, 13, 4, build=BUILD_SUIT, redeals=UNLIMITED, deal_style=DEAL_PLAIN),
        # PySolFC's Perseverance: Cruel with runs of any length (max_move unlimited) and max_rounds=3.
        Rules(
            "perseverance",
            "Perseverance",
            404,
            12,
            4,
            founded=4,
            build=BUILD_SUIT,
            sequence_moves=True,
            redeals=2,
            deal_style=DEAL_BASES_LAST,
        ),  # fmt: skip
        # PySolFC's Indefatigable: UD_SS_RowStack (one card, any card in a space), max_rounds=3.
        Rules(
            "indefatigable",
            "Indefatigable",
            515,
            12,
            4,
            founded=4,
            build=BUILD_SUIT,
            both_ways=True,
            empty_pile=EMPTY_ANY,
            redeals=2,
            deal_style=DEAL_BASES_LAST,
        ),  # fmt: skip
        # PySolFC's RoyalFamily: foundations from the King down (dir=-1), its hook deals the Kings last;
        # UD_AC_RowStack (one card, any card in a space), max_rounds=2.
        Rules(
            "royal-family",
            "Royal Family",
            291,
            12,
            4,
            founded=4,
            foundations_down=True,
            build=BUILD_ALTERNATE,
            both_ways=True,
            empty_pile=EMPTY_ANY,
            redeals=1,
            deal_style=DEAL_BASES_LAST,
        ),  # fmt: skip
        # PySolFC's CastlesInSpain: three rows dealt face down, then one face up; SuperMoveAC_RowStack: a run
        # of at most 2^k cards with k empty piles (2^(k-1) into one of them), any card or run in a space.
        Rules(
            "castles-in-spain",
            "Castles in Spain",
            83,
            13,
            4,
            build=BUILD_ALTERNATE,
            empty_pile=EMPTY_ANY,
            sequence_moves=True,
            runs_by_spaces=True,
            runs_into_spaces=True,
            face_down_rows=(0, 1, 2),
            deal_style=DEAL_PLAIN,
        ),  # fmt: skip
        # PySolFC's Martha: the Aces dealt last, to the foundations; rows 1 and 3 face down (flip=(0, 1, 0));
        # Martha_RowStack: any run onto a card, a single card into an empty pile.
        Rules(
            "martha",
            "Martha",
            84,
            12,
            4,
            founded=4,
            build=BUILD_ALTERNATE,
            empty_pile=EMPTY_ANY,
            sequence_moves=True,
            face_down_rows=(0, 2),
            deal_style=DEAL_BASES_LAST,
        ),  # fmt: skip
        # PySolFC's Vineyard: 10 rows, five rows dealt, then piles 1-2 one card more; one card at a time,
        # any card into a space (AC_RowStack, max_move=1, base_rank=ANY_RANK).
        Rules(
            "vineyard",
            "Vineyard",
            876,
            10,
            6,
            build=BUILD_ALTERNATE,
            empty_pile=EMPTY_ANY,
            deal_style=DEAL_PLAIN,
        ),  # fmt: skip
        # PySolFC's Unusual: Cruel (one card, nothing in a space, Cruel_Talon's unlimited redeals, the Aces dealt
        # last, to the foundations) with two decks and 24 rows.
        Rules(
            "unusual",
            "Unusual",
            823,
            24,
            4,
            founded=8,
            build=BUILD_SUIT,
            redeals=UNLIMITED,
            decks=2,
            deal_style=DEAL_BASES_LAST,
        ),  # fmt: skip
        # PySolFC's BakersDozen2Decks: Baker's Dozen (its King hook, one card, nothing in a space) with two
        # decks and 26 rows.
        Rules("bakers-dozen-2-decks", "Baker's Dozen (2 decks)", 860, 26, 4, kings_to_bottom=True, decks=2),
    )
}


def with_worrying_back(rules: Rules) -> Rules:
    """The same game, but a foundation's top card may come back to the tableau."""
    if rules.worrying_back:
        return rules
    return replace(
        rules, name=f"{rules.name}-worrying-back", title=f"{rules.title} (worrying back)", worrying_back=True
    )


# How PySolFC plays each game where it differs from ../shared/RULES.md, read from PySolFC's sources
# (pysollib/games/bakersdozen.py and pysollib/stack.py at commit 7a3d146; docs/pysolfc.md has the classes and lines).
# Every game but Indefatigable lets a foundation's top card come back: foundations inherit OpenStack's
# max_move=1 (stack.py 2188-2190, 2363-2366), and only Indefatigable wraps its SS_FoundationStack with
# max_move=0 (bakersdozen.py 347).  Ripple Fan's rows are plain SS_RowStacks, which move runs of any
# length (SequenceRowStack's max_move=999999, stack.py 2646-2648; bakersdozen.py 406-407).
PYSOLFC_CHANGES: dict[str, dict[str, object]] = {
    **{name: {"worrying_back": True} for name in GAMES if name != "indefatigable"},
    "ripple-fan": {"worrying_back": True, "sequence_moves": True},
    # PySolFC's Spanish Patience (game 85) is another game: its foundations build up by alternate colour in
    # any suit from their Aces (AC_FoundationStack, bakersdozen.py 171), a card may pass from one foundation
    # to another, and an empty pile takes nothing (BakersDozen's rows, base_rank=NO_RANK).
    "spanish-patience": {"worrying_back": True, "empty_pile": EMPTY_NONE, "foundations_alternate": True},
}
# PySolFC's rules of a game allow every move RULES.md's do, and more, where they only add these: a deal that
# RULES.md wins is won in PySolFC on the same layout.  Not so for Spanish Patience (another game there).
PYSOLFC_ADDS_ONLY = frozenset({"worrying_back", "sequence_moves"})


def pysolfc_adds_moves_only(name: str) -> bool:
    """Whether PySolFC's rules of game ``name`` allow every move RULES.md's do (PYSOLFC_ADDS_ONLY)."""
    return set(PYSOLFC_CHANGES.get(name, {})) <= PYSOLFC_ADDS_ONLY


class UnsupportedPysolfcError(ValueError):
    """A game whose PySolFC rules the solver cannot play."""


def with_pysolfc(rules: Rules) -> Rules:
    """The game as PySolFC plays it (PYSOLFC_CHANGES); a rules file's variant or an unknown game is refused."""
    if rules.pysolfc:
        return rules
    if GAMES.get(rules.name) != rules:
        raise UnsupportedPysolfcError(f"{rules.title}: PySolFC's rules exist only for the fifteen named games")
    return replace(
        rules,
        name=f"{rules.name}-pysolfc",
        title=f"{rules.title} (PySolFC's rules)",
        pysolfc=True,
        **PYSOLFC_CHANGES.get(rules.name, {}),
    )


def get_rules(name: str) -> Rules:
    key = name.strip().lower().replace("_", "-").replace(" ", "-").replace("'", "")
    if key in GAMES:
        return GAMES[key]
    raise UnknownGameError(
        f"unknown game {name!r}; known games: {', '.join(GAMES)} (or a variant's rules file, FILE.toml)"
    )


@cache  # a batch record carries the digest: once per rules, not once per deal
def _digest(rules: Rules) -> str:
    return hashlib.sha256(rules.changes_text().encode()).hexdigest()[:16]
