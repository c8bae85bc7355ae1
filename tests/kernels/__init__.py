"""Tests of solver/kernels, one file per module; each proof in a kernel module names the test that checks it."""
