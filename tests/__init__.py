"""The tests, laid out as the code is: tests/game, tests/kernels and tests/search hold one file for each module
of solver/game, solver/kernels and solver/search that has behaviour of its own (tests/kernels/test_dead.py
tests solver/kernels/dead.py); the tests of solver's top-level modules, and those that hold the whole solver
to the reference search (test_agreement.py, test_fuzz.py, test_robustness.py, test_corpus.py), are here.
The helpers the tests share (naive.py, harness.py, corpus.py, rule_walks.py) are imported by name:
pyproject.toml puts this folder on the path.  Packages, so that a kernel and its driver may each have a test
file of their name (tests/kernels/test_beam.py, tests/search/test_beam.py)."""
