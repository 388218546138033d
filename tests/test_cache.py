"""labelrank._cache.ResultCache: keys follow the arguments and a stable name, never where the code lives."""

from __future__ import annotations

import numpy as np
import pytest

from labelrank._cache import ResultCache

CALLS = {"n": 0}


def square(x, version, threads=1):
    CALLS["n"] += 1
    return np.arange(x) ** 2


def square_moved_and_refactored(x, version, threads=1):
    """The same result, other code (as after a move to another module and a rewrite)."""
    CALLS["n"] += 1
    return np.array([i * i for i in range(x)])


def test_a_moved_or_rewritten_function_keeps_its_entries(tmp_path):
    CALLS["n"] = 0
    first = ResultCache(square, "squares", root=tmp_path, ignore=("threads",))
    np.testing.assert_array_equal(first(5, 1, 2), np.arange(5) ** 2)
    moved = ResultCache(square_moved_and_refactored, "squares", root=tmp_path, ignore=("threads",))
    assert moved.check_call_in_cache(5, 1, 8)  # another thread count: ignored
    np.testing.assert_array_equal(moved(5, 1, 8), np.arange(5) ** 2)
    assert CALLS["n"] == 1
    moved(5, 2, 8)  # a bumped version is another entry
    assert CALLS["n"] == 2
    assert len(list(tmp_path.rglob("output.pkl"))) == 2 and not list(tmp_path.rglob("*.part"))


def test_keywords_memory_mapping_and_a_damaged_entry(tmp_path):
    CALLS["n"] = 0
    cached = ResultCache(square, "squares", root=tmp_path, mmap_mode="r")
    out = cached(x=6, version=1)
    assert isinstance(out, np.memmap) and out.tolist() == [0, 1, 4, 9, 16, 25]
    cached.path(x=6, version=1).write_bytes(b"truncated")
    assert cached(x=6, version=1).tolist() == [0, 1, 4, 9, 16, 25] and CALLS["n"] == 2  # recomputed, replaced
    assert cached(x=6, version=1).tolist() == [0, 1, 4, 9, 16, 25] and CALLS["n"] == 2


def test_bad_arguments_name_themselves(tmp_path):
    with pytest.raises(ValueError, match=r"ignore names \['nope'\]"):
        ResultCache(square, "squares", root=tmp_path, ignore=("nope",))
    with pytest.raises(ValueError, match="name must be a non-empty folder name"):
        ResultCache(square, "a/b", root=tmp_path)
    with pytest.raises(TypeError, match="func must be callable"):
        ResultCache(3, "x", root=tmp_path)


def test_an_exception_leaves_no_entry(tmp_path):
    def fail(x):
        raise RuntimeError("boom")

    cached = ResultCache(fail, "fail", root=tmp_path)
    with pytest.raises(RuntimeError):
        cached(1)
    assert not cached.check_call_in_cache(1) and not list(tmp_path.rglob("*.part"))
