"""The game model, plain Python, no numba: what the kernels and the reference engine read.

- :mod:`.cards`: card codes and their text;
- :mod:`.rules`: each game of the family as a :class:`~.rules.Rules` value, and what the solver supports;
- :mod:`.premises`: what each proof of the solver needs of the rules, each premise named once;
- :mod:`.variants`: a variant of a game from a TOML rules file;
- :mod:`.deals`: PySolFC's shuffles and deal hooks, game number -> layout;
- :mod:`.board`: a position, the board text format and its validation;
- :mod:`.engine`: the reference rules engine and its exhaustive search, which the tests hold the
  solver to and which replays every winning line.
"""
