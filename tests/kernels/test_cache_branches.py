"""Where numba's cache of compiled kernels is (solver/kernels/cache.py): ``NUMBA_CACHE_DIR`` if set, the
package's own folder if it may write there, else the user's cache; and whether it is warm, which it is
when it holds the entry kernels, or always with numba's compiler off (nothing is compiled then)."""

import numba
import pytest

from solver.kernels import cache as kernel_cache


@pytest.fixture
def config(monkeypatch):
    """numba's settings as they are, put back after the test."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    monkeypatch.setattr(numba.config, "DISABLE_JIT", numba.config.DISABLE_JIT)
    return monkeypatch


def cache_now() -> str:
    return numba.config.CACHE_DIR


def test_the_cache_goes_where_numba_cache_dir_says(config, tmp_path):
    config.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    kernel_cache.use_versioned_cache()
    assert cache_now() == str(kernel_cache.cache_dir(kernel_cache.PACKAGE, tmp_path))
    assert cache_now().startswith(str(tmp_path / "numba-"))


def test_an_installed_package_it_may_not_write_to_caches_in_the_user_s_cache(config, tmp_path):
    config.delenv("NUMBA_CACHE_DIR", raising=False)
    config.setattr(kernel_cache.os, "access", lambda path, mode: True)  # a checkout
    kernel_cache.use_versioned_cache()
    assert cache_now() == str(kernel_cache.cache_dir(kernel_cache.PACKAGE, kernel_cache.PACKAGE / "__pycache__"))
    config.setattr(kernel_cache.os, "access", lambda path, mode: False)  # a read-only install
    config.setattr(kernel_cache.Path, "home", classmethod(lambda cls: tmp_path))
    kernel_cache.use_versioned_cache()
    assert cache_now() == str(kernel_cache.cache_dir(kernel_cache.PACKAGE, tmp_path / ".cache" / "bakers-solver"))


def test_the_cache_is_warm_once_it_holds_every_entry_kernel_or_with_the_compiler_off(config, tmp_path):
    config.setattr(numba.config, "DISABLE_JIT", False)
    config.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    assert not kernel_cache.is_warm()
    folder = tmp_path / "kernels_0123"  # as numba lays it out: a folder per source folder, an index per kernel
    folder.mkdir()
    for name in kernel_cache.ENTRY_KERNELS:
        assert not kernel_cache.is_warm()
        (folder / f"{name}-97.py311.nbi").write_bytes(b"")
    assert kernel_cache.is_warm()
    config.setattr(numba.config, "CACHE_DIR", str(tmp_path / "empty"))
    assert not kernel_cache.is_warm()
    config.setattr(numba.config, "DISABLE_JIT", True)
    assert kernel_cache.is_warm()
