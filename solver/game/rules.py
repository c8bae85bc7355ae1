"""The games of the family, as data.

Each game is one :class:`Rules` value; the dealer, the reference engine and
the search kernel read nothing else.  ``../shared/RULES.md`` is the source.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cards import rank_of

BUILD_RANK = "rank"  # down by rank, any suit

EMPTY_NONE = "none"  # an empty pile stays empty
EMPTY_ANY = "any"  # any single card may go to an empty pile
EMPTY_KING = "king"  # only a King (the deck's top rank) may

DEAL_BAKERS = "bakers-dozen"  # PySolFC's Baker's Dozen hook: Kings swapped down
DEAL_GOOD_MEASURE = "good-measure"  # the Baker's Dozen hook, then two Aces out
DEAL_PLAIN = "plain"  # PySolFC's Portuguese Solitaire: no hook

MAX_PILES = 32  # the most piles a game may have: the kernels' scratch layouts are sized for it

# The rules the solver's proofs do not cover yet (solver/kernels/position.py, "Safe foundation moves"),
# by the key a rules file would set, with the word for the person who asked.
UNSUPPORTED_KEYS = {
    "build": "only building down by rank, any suit, is supported",
    "sequence_moves": "only single-card moves are supported",
    "redeals": "redeals are not supported",
}


class UnknownGameError(ValueError):
    """A game name that the project does not know."""


@dataclass(frozen=True)
class Rules:
    """One game of the family.

    ``ranks`` below 13 gives a reduced deck (Ace..rank ``ranks``, four suits);
    its top rank plays the King.  The tests use those; the named games all
    have 13.
    """

    name: str
    title: str
    pysol_id: int | None
    piles: int
    cards_per_pile: int
    aces_founded: int = 0
    kings_to_bottom: bool = False
    build: str = BUILD_RANK
    empty_pile: str = EMPTY_NONE
    sequence_moves: bool = False
    redeals: int = 0
    ranks: int = 13
    worrying_back: bool = False  # a foundation's top card may come back to the tableau
    deal_style: str = DEAL_BAKERS

    @property
    def cards(self) -> int:
        return 4 * self.ranks

    def reduced(self, ranks: int, piles: int) -> Rules:
        """The same rules on this deck and table, the pile size following from them (the tests
        use it for small decks; rules files for their variants)."""
        in_play = 4 * ranks - self.aces_founded
        return replace(self, ranks=ranks, piles=piles, cards_per_pile=-(-in_play // piles), pysol_id=None)

    def can_host(self, host: int | None, card: int) -> bool:
        """Whether ``card`` may be put on ``host``, the top card of a pile (None: an empty pile).

        The one statement of the building and empty-pile rules in plain Python: the reference engine
        and the line shortener read it; the kernels have their compiled twin (solver/kernels/position.py,
        ``space_takes`` in solver/kernels/codes.py)."""
        if host is not None:
            return rank_of(host) == rank_of(card) + 1
        return self.space_takes(rank_of(card))

    def space_takes(self, rank: int) -> bool:
        """Whether an empty pile may take a card of ``rank``."""
        return self.empty_pile == EMPTY_ANY or (self.empty_pile == EMPTY_KING and rank == self.ranks)

    def describe(self) -> str:
        empty = {
            EMPTY_NONE: "an empty pile stays empty",
            EMPTY_ANY: "any card may fill an empty pile",
            EMPTY_KING: "only a King may fill an empty pile",
        }[self.empty_pile]
        kings = "Kings moved to the bottom" if self.kings_to_bottom else "Kings left where they fall"
        founded = f", {self.aces_founded} Aces founded at the start" if self.aces_founded else ""
        empty += "; worrying back allowed" if self.worrying_back else ""
        return (
            f"{self.title}: {self.piles} piles of {self.cards_per_pile}{founded}; {kings}; "
            f"build down by rank, any suit, one card at a time; {empty}"
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
            aces_founded=2,
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
    )
}


def unsupported(rules: Rules) -> str:
    """Why the solver cannot decide ``rules``, or "" when it can."""
    if rules.build != BUILD_RANK:
        return UNSUPPORTED_KEYS["build"]
    if rules.sequence_moves:
        return UNSUPPORTED_KEYS["sequence_moves"]
    if rules.redeals:
        return UNSUPPORTED_KEYS["redeals"]
    if rules.ranks > 13:
        return f"the solver handles at most 13 ranks, not {rules.ranks}"
    if not 1 <= rules.piles <= MAX_PILES:
        return f"the solver handles 1 to {MAX_PILES} piles, not {rules.piles}"
    return ""


def with_worrying_back(rules: Rules) -> Rules:
    """The same game, but a foundation's top card may come back to the tableau."""
    if rules.worrying_back:
        return rules
    return replace(
        rules, name=f"{rules.name}-worrying-back", title=f"{rules.title} (worrying back)", worrying_back=True
    )


def get_rules(name: str) -> Rules:
    key = name.strip().lower().replace("_", "-").replace(" ", "-").replace("'", "")
    if key in GAMES:
        return GAMES[key]
    raise UnknownGameError(
        f"unknown game {name!r}; known games: {', '.join(GAMES)} (or a variant's rules file, FILE.toml)"
    )
