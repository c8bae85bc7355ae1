"""Numba's cache of compiled kernels (solver/kernels/cache.py): kept apart for each version of the kernel
sources, so that no kernel runs stale code of a module it calls."""


def test_the_kernel_cache_is_kept_apart_for_each_version_of_any_kernel_module(tmp_path):
    """A change to any kernel module (or to solver/limits.py, whose MAX_PILES sizes their layouts) moves
    numba's cache elsewhere, so no kernel runs stale code of a module it calls (numba itself checks only
    the kernel's own file); same sources, same place."""
    from solver.kernels import cache as kernel_cache

    sources = [p.relative_to(kernel_cache.PACKAGE) for p in kernel_cache.kernel_sources(kernel_cache.PACKAGE)]
    for name in sources:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text((kernel_cache.PACKAGE / name).read_text())
    base = tmp_path / "cache"
    first = kernel_cache.cache_dir(tmp_path, base)
    assert kernel_cache.cache_dir(tmp_path, base) == first and first.parent == base
    for name in sources:
        text = (tmp_path / name).read_text()
        (tmp_path / name).write_text(text + "\n# changed\n")
        assert kernel_cache.cache_dir(tmp_path, base) != first, name
        (tmp_path / name).write_text(text)
    assert kernel_cache.cache_dir(tmp_path, base) == first


def test_every_module_with_kernels_is_in_the_kernels_folder_and_the_cache_digest():
    from solver.kernels import cache as kernel_cache

    with_kernels = {path for path in kernel_cache.PACKAGE.rglob("*.py") if "@njit" in path.read_text()}
    assert with_kernels and with_kernels <= set(kernel_cache.kernel_sources(kernel_cache.PACKAGE))
    assert all(path.parent == kernel_cache.KERNELS for path in with_kernels)


def test_the_package_uses_the_versioned_cache():
    import numba

    from solver.kernels import cache as kernel_cache

    assert numba.config.CACHE_DIR.endswith(kernel_cache.cache_dir(kernel_cache.PACKAGE, kernel_cache.PACKAGE).name)
