"""labelrank.cache.ResultCache: keys follow the arguments and a stable name, never where the code lives."""

from __future__ import annotations

import numpy as np
import pytest

from labelrank.cache import ResultCache

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
    assert len(list(tmp_path.rglob("output.lrc"))) == 2 and not list(tmp_path.rglob("*.part"))
    assert not list(tmp_path.rglob("output.pkl"))  # arrays are stored as data, not pickled


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


# ---------------------------------------------------------------------------------- authentication of entries
def test_a_changed_entry_that_still_reads_is_never_used(tmp_path):
    """A well-formed entry of another value in place of an entry (a flipped sign, a planted file) is computed
    again, with a warning naming the entry, and replaced; the same for a result kept as a pickle."""
    import joblib

    from labelrank._entries import write_entry

    CALLS["n"] = 0
    cached = ResultCache(square, "squares", root=tmp_path)
    assert cached(4, 1).tolist() == [0, 1, 4, 9] and CALLS["n"] == 1
    with open(cached.path(4, 1), "wb") as fh:
        write_entry(-np.arange(4) ** 2, fh)  # same shape and type, other values
    with pytest.warns(RuntimeWarning, match=r"output.lrc does not match its HMAC"):
        assert cached(4, 1).tolist() == [0, 1, 4, 9]
    assert CALLS["n"] == 2 and cached(4, 1).tolist() == [0, 1, 4, 9] and CALLS["n"] == 2  # replaced, trusted again
    odd = ResultCache(as_set, "sets", root=tmp_path)  # a set is no data type of the entries: kept as a pickle
    assert odd(3) == {0, 1, 2} and odd.path(3).name == "output.pkl"
    joblib.dump({7}, odd.path(3))
    with pytest.warns(RuntimeWarning, match=r"output.pkl does not match its HMAC"):
        assert odd(3) == {0, 1, 2}


def as_set(n):
    return set(range(n))


def test_an_authentic_entry_copied_to_another_key_is_not_trusted(tmp_path):
    """The HMAC covers the entry's name and key as well as its bytes: a replayed entry is not another's result."""
    import shutil

    cached = ResultCache(square, "squares", root=tmp_path)
    cached(3, 1)
    target = cached.folder(4, 1)
    target.mkdir(parents=True)
    for name in ("output.lrc", "output.hmac"):
        shutil.copy(cached.folder(3, 1) / name, target / name)
    with pytest.warns(RuntimeWarning, match="does not match its HMAC"):
        assert cached(4, 1).tolist() == [0, 1, 4, 9]


class _Planted:
    """A pickle that runs code when it is loaded."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        import pathlib

        return pathlib.Path.touch, (pathlib.Path(self.marker),)


def test_a_planted_pickle_never_runs(tmp_path):
    import pickle

    cached = ResultCache(square, "squares", root=tmp_path / "cache")
    cached(3, 1)
    marker = tmp_path / "ran"
    for name in ("output.lrc", "output.pkl"):  # in place of the entry, or as a pickle beside it
        (cached.folder(3, 1) / name).write_bytes(pickle.dumps(_Planted(str(marker))))
        (cached.folder(3, 1) / "output.hmac").write_text("0" * 64 + "\n")  # a forged tag
        with pytest.warns(RuntimeWarning, match="does not match its HMAC"):
            assert cached(3, 1).tolist() == [0, 1, 4]
        assert not marker.exists()
    # without the tag, a planted pickle is not even read: the data entry is read first, and decoded, never unpickled
    from labelrank._entries import EntryError, read_entry

    with pytest.raises(EntryError, match="not a labelrank cache entry"):
        read_entry(pickle.dumps(_Planted(str(marker))))
    assert not marker.exists()


def test_entries_are_trusted_under_their_own_key_only(tmp_path, monkeypatch):
    """The key lives outside the cache folder, readable by its owner alone; another key trusts no entry."""
    import stat

    from labelrank import cache as _cache

    monkeypatch.setattr(_cache, "_KEYS", {})
    monkeypatch.setenv("LABELRANK_CACHE_KEY_FILE", str(tmp_path / "keys" / "mine"))
    CALLS["n"] = 0
    cached = ResultCache(square, "squares", root=tmp_path / "shared")
    cached(5, 1)
    key = tmp_path / "keys" / "mine"
    assert key.is_file() and stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    assert not any((tmp_path / "shared").rglob("mine"))
    cached(5, 1)
    assert CALLS["n"] == 1
    monkeypatch.setenv("LABELRANK_CACHE_KEY_FILE", str(tmp_path / "keys" / "theirs"))
    with pytest.warns(RuntimeWarning, match="does not match its HMAC"):
        cached(5, 1)
    assert CALLS["n"] == 2
