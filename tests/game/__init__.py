"""Tests of solver/game, one file per module."""
