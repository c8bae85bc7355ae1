"""The words a solve answers in, defined once: verdicts, why a deal is unknown, which search decided it,
and which layout a deal was solved in.

Batch records on disk, ``solve --json`` and the pages write these strings, and records written long ago
are read back by them: they never change.  What a person reads for a search's code is here too
(:data:`FOUND_BY_WORDS`).  Plain Python, no imports: the records and the command line read it without
loading the solver.
"""

from __future__ import annotations

WON, LOST, UNKNOWN = "won", "lost", "unknown"
VERDICTS = (WON, LOST, UNKNOWN)  # a verdict's code in a records Ledger is its index here

# Why a solve ended ``unknown`` (SolveResult.reason): the budget that ran out.
REASON_TIME, REASON_MEMORY, REASON_STATES = "time", "memory", "states"  # (positions: the word records keep)

# A record's count of positions searched: the code says "positions" everywhere, the records on disk have
# always said "states", and keep saying it so that every record ever written reads the same.
POSITIONS_KEY = "states"
REASONS = (REASON_TIME, REASON_MEMORY, REASON_STATES)

# Which search decided a deal (SolveResult.found_by; "" while unknown).
DEPTH_FIRST = "depth-first"  # a win on the depth-first path, or every reachable position searched
BEAM = "beam"  # a win found by a beam search (solver/kernels/beam.py)
WALK = "walk"  # a win found by the walk of the real game (solver/kernels/suitblind.py)
SUIT_BLIND = "suit-blind"  # a loss: a walk's relaxed game cannot be won (solver/kernels/suitblind.py)
CAPACITY = "capacity"  # a loss: the root's capacity test (solver/kernels/capacity.py)
LAYERS = "layers"  # a win found, or every reachable position searched, by the layered search (kernels/layered.py)
STREAMLINED = "streamlined"  # a win found by the depth-first run that forgets suits (solver/search/streamline.py)
TRAP = "first-pile trap"  # a loss: a card trapped for good in the first pile at the deal (solver/kernels/trap.py)
PILES_TRAP = "first-piles trap"  # a loss: cards of the first two to four piles in a deadlock at the deal (trap.py)
STRICT = "strict"  # under PySolFC's rules: a win of the game's strict rules, which PySolFC's allow (search/strict.py)
# A new search's code goes here, with its word:
FOUND_BY = (DEPTH_FIRST, BEAM, WALK, SUIT_BLIND, CAPACITY, LAYERS, STREAMLINED, TRAP, PILES_TRAP, STRICT)

FOUND_BY_WORDS = {
    DEPTH_FIRST: "the depth-first search",
    BEAM: "a beam search",
    WALK: "the walk of the real game",
    SUIT_BLIND: "a relaxed game with suits forgotten",
    CAPACITY: "the root's capacity test",
    LAYERS: "the layered search",
    STREAMLINED: "the streamlined depth-first search",
    TRAP: "a card trapped for good under the first pile's top",
    PILES_TRAP: "cards trapped for good in the first piles",
    STRICT: "the game's strict rules, every move of which PySolFC allows",
}  # each search's code as a person reads it (the pages); every code has one (tests/test_html.py)

# Which layout a deal was solved in (a record's ``layout``).
RULES_LAYOUT = "rules"  # as the written rules deal it; a record that names none (records of old) is this
PYSOLFC_LAYOUT = "pysolfc"  # as PySolFC lays it out (``--pysolfc-layout``)
LAYOUTS = (RULES_LAYOUT, PYSOLFC_LAYOUT)
