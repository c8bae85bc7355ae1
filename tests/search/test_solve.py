"""``solve()`` (solver/search/solve.py) itself: it compiles the kernels before its clock starts, and
decides whole deals with lines the engine replays (two decks here).  (Its verdicts against the reference
search are held in tests/test_agreement.py, and each search's part in tests/search/test_*.py.)"""

import pytest

from solver.game.deals import deal
from solver.game.rules import GAMES
from solver.search import LOST, WON, Budget, solve

_COMPILING_IS_NOT_BUDGETED = """
import importlib
import time
from solver import GAMES, Budget, deal, solve

solve_module = importlib.import_module("solver.search.solve")  # the module (solver.search.solve is the function)

real_warm_up = solve_module.warm_up

warmed = []


def slow_warm_up():  # as on a fresh cache, where compiling takes a minute and more
    warmed.append(time.perf_counter())
    time.sleep(3)
    real_warm_up()

solve_module.warm_up = slow_warm_up
solve_module.is_warm = lambda: False  # as on a fresh cache
rules = GAMES["good-measure"]
began = time.perf_counter()
result = solve(deal(rules, 2), rules, Budget(seconds=2))
print(result.verdict, result.seconds, len(warmed), time.perf_counter() - began)
"""


@pytest.mark.slow
def test_the_first_solve_compiles_before_its_clock_starts():
    """The README's example on a fresh install answered `unknown (time)` after compiling for longer
    than its budget; now the first solve of a process warms up first, outside the budget."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _COMPILING_IS_NOT_BUDGETED], capture_output=True, text=True)
    verdict, seconds, warm_ups, wall = out.stdout.split()
    assert warm_ups == "1" and float(wall) > 3, out.stdout + out.stderr[-2000:]  # it warmed up, slowly
    assert verdict == "won" and float(seconds) < 2, out.stdout  # and the budget did not count that


@pytest.mark.parametrize("game", ["unusual", "bakers-dozen-2-decks"])
def test_pysolfc_deals_are_decided_and_replayed(game):
    rules = GAMES[game]
    result = solve(deal(rules, 1), rules, Budget(seconds=60))
    assert result.verdict in (WON, LOST)
    assert result.verdict == LOST or len(result.moves) >= 96
