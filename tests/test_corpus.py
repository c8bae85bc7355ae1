"""The shared corpus (tests/corpus.py) is what it says: its stored verdicts are the reference search's.

The agreement tests trust ``corpus.txt`` instead of searching every deal
again; here every set's deals are checked against the file's digest, and a
sample of them is searched again by the reference engine.
"""

import pytest
from corpus import FILE, LOST, SETS, TOO_LARGE, WON, boards, reference_verdict, verdicts
from harness import fast_sample

SAMPLE_EVERY = 50  # deals of each set searched again (about 100 in all)


# The sets whose sample takes the reference search seconds: the full suite searches them again.
LONG = ["variants", "worry/spanish-patience-ii", "larger/good-measure"]
LONG += [f"pysolfc/{g}" for g in ("portuguese-solitaire", "spanish-patience-ii", "castles-in-spain", "martha")]


@pytest.mark.parametrize("name", fast_sample(list(SETS), [name for name in SETS if name not in LONG]))
def test_the_stored_verdicts_are_the_reference_search_s(name):
    stored = verdicts(name)  # refuses a file whose digest or length does not match the deals
    assert set(stored) <= {WON, LOST, TOO_LARGE}
    assert stored.count(TOO_LARGE) <= len(stored) // 2, f"{name}: most deals too large for the reference"
    limit = SETS[name][1]
    pairs = boards(name)
    for i in range(0, len(pairs), SAMPLE_EVERY):
        rules, board = pairs[i]
        assert reference_verdict(board, rules, limit) == stored[i], f"{name} deal {i}\n{board.to_text()}"


def test_every_set_is_in_the_file_once():
    names = [line.split()[0] for line in FILE.read_text().splitlines()]
    assert sorted(names) == sorted(SETS)
