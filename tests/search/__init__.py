"""Tests of solver/search, one file per module."""
