"""Tests of labelrank.datasets: registry, verified download/mirror, loaders, ltc weighting, the statistics table.

Tests that read the real benchmark files need a source for them: ``LABELRANK_DATA`` pointing at a mirror (as
``.ci/run`` sets it) or a complete download cache; without one they are skipped with that reason. The download path
is tested for real against an HTTP server on 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import http.server
import math
import os
import re
import shutil
import socket
import threading
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from labelrank import datasets
from labelrank.datasets import (
    REGISTRY,
    ChecksumError,
    DataFile,
    Dataset,
    DataUnavailableError,
    UnknownDatasetError,
    download,
    mulan,
    text,
    vowel,
)
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.preprocessing import normalize
from support import need

LOAD_NAMES = ["emotions", "scene", "yeast", "enron", "reuters21578", "vowel", "20newsgroups"]


# ---------------------------------------------------------------------------------------------------------------
# helpers and fixtures
# ---------------------------------------------------------------------------------------------------------------


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    requests_seen: list[str]

    def log_message(self, *args):  # keep pytest output clean
        pass

    def do_GET(self):
        self.requests_seen.append(self.path)
        super().do_GET()


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """A fresh download cache; no mirror, no base URL from the environment, no proxy for loopback."""
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("LABELRANK_DATA", raising=False)
    monkeypatch.delenv("LABELRANK_BASE_URL", raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    return tmp_path / "cache"


@pytest.fixture
def server(tmp_path):
    """An HTTP server on 127.0.0.1 (ephemeral port, own thread) serving ``tmp_path/served``."""
    root = tmp_path / "served"
    root.mkdir()
    seen: list[str] = []
    handler = type("Handler", (_QuietHandler,), {"requests_seen": seen})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    thread = threading.Thread(target=partial(httpd.serve_forever, poll_interval=0.05), daemon=True)
    thread.start()
    try:
        yield {"url": f"http://127.0.0.1:{httpd.server_address[1]}", "root": root, "seen": seen}
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


@pytest.fixture
def toy(monkeypatch, server, isolated):
    """A registered data set ``toy`` of two small files, served by ``server`` under ``toyset/``."""
    contents = {"a.txt": b"alpha beta\n", "b.bin": bytes(range(256)) * 64}
    folder = server["root"] / "toyset"
    folder.mkdir()
    files = []
    for name, data in contents.items():
        (folder / name).write_bytes(data)
        # the registered origin URL points at a closed port: only an explicit base URL reaches the server
        files.append(DataFile(name, _sha(data), f"http://127.0.0.1:{_closed_port()}/origin/{name}", len(data)))
    ds = Dataset("toy", "toyset", "two small files", "tests", tuple(files))
    monkeypatch.setitem(REGISTRY, "toy", ds)
    return {"ds": ds, "served": folder, "contents": contents, **server, "cache": isolated}


# ---------------------------------------------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------------------------------------------


def test_registry_names_and_folders():
    assert sorted(REGISTRY) == sorted(LOAD_NAMES)
    assert {n: d.folder for n, d in REGISTRY.items()}["20newsgroups"] == "20newsgroups-bydate"
    for name, ds in REGISTRY.items():
        assert ds.name == name
        assert ds.files, name
        for f in ds.files:
            for h in f.accepted:
                assert re.fullmatch(r"[0-9a-f]{64}", h), (name, f.path)
            if "githubusercontent" in f.url:
                # pinned to a 40-hex commit, and ending with the file's name
                assert re.search(r"/[0-9a-f]{40}/", f.url), f.url
                assert f.url.endswith("/" + f.path)


def test_20newsgroups_accepts_official_and_repack():
    (f,) = REGISTRY["20newsgroups"].files
    assert f.url == "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz"
    assert f.sha256 == "8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610"
    assert "a9edaafcd6bb769e0f91b9397cb816373c1bf88f82901d4e62ec11c37f6f0741" in f.accepted


@pytest.mark.parametrize("name", LOAD_NAMES)
def test_registry_matches_source_md(name):
    """Every file and hash listed in the mirror's SOURCE.md is registered, and nothing else."""
    mirror = os.environ.get("LABELRANK_DATA")
    if not mirror:
        pytest.skip("LABELRANK_DATA is not set: no SOURCE.md to compare with")
    ds = REGISTRY[name]
    text = (Path(mirror) / ds.folder / "SOURCE.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\|\s*(\S+)\s*\|\s*([0-9a-f]{64})\s*\|", text, flags=re.M))
    assert set(listed) == {f.path for f in ds.files}
    for f in ds.files:
        assert listed[f.path] in f.accepted


# ---------------------------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: datasets.fetch("nope"),
        lambda: datasets.load("nope", "train"),
        lambda: datasets.load_texts("nope", "train"),
        lambda: datasets.describe("nope"),
    ],
)
def test_unknown_name_lists_known(call):
    with pytest.raises(UnknownDatasetError) as info:
        call()
    assert isinstance(info.value, KeyError) and isinstance(info.value, ValueError)
    msg = str(info.value)
    assert "'nope'" in msg
    for name in LOAD_NAMES:
        assert name in msg


def test_bad_split_and_types():
    with pytest.raises(ValueError, match="MULAN data set.*name='vowel'"):
        datasets.mulan_xml_labels("vowel")
    with pytest.raises(ValueError, match="split.*'validation'"):
        datasets.load("emotions", "validation")
    with pytest.raises(TypeError, match="name must be a str"):
        datasets.load(3, "train")
    with pytest.raises(ValueError, match="load_texts supports name='20newsgroups' only, got name='emotions'"):
        datasets.load_texts("emotions", "train")


# ---------------------------------------------------------------------------------------------------------------
# download path, for real, through a loopback HTTP server
# ---------------------------------------------------------------------------------------------------------------


def test_download_verifies_and_caches(toy):
    folder = datasets.fetch("toy", base_url=toy["url"])
    assert folder == toy["cache"] / "toyset"
    for name, data in toy["contents"].items():
        assert (folder / name).read_bytes() == data
    assert sorted(toy["seen"]) == ["/toyset/a.txt", "/toyset/b.bin"]
    assert not list(folder.glob("*.part"))
    datasets.fetch("toy", base_url=toy["url"])  # verified copies are kept: no new request
    assert len(toy["seen"]) == 2


def test_download_base_url_from_environment(toy, monkeypatch):
    monkeypatch.setenv("LABELRANK_BASE_URL", toy["url"] + "/")
    folder = datasets.fetch("toy")
    assert (folder / "a.txt").read_bytes() == toy["contents"]["a.txt"]


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_download_corrupt_file_rejected_and_removed(toy, damage):
    good = toy["contents"]["b.bin"]
    bad = good[: len(good) // 3] if damage == "truncate" else good[:100] + b"X" + good[101:]
    (toy["served"] / "b.bin").write_bytes(bad)
    with pytest.raises(ChecksumError) as info:
        datasets.fetch("toy", base_url=toy["url"])
    msg = str(info.value)
    assert "b.bin" in msg and _sha(good) in msg and _sha(bad) in msg
    folder = toy["cache"] / "toyset"
    assert not (folder / "b.bin").exists()
    assert not list(folder.glob("*.part"))


def test_damaged_cached_file_is_downloaded_again(toy):
    folder = datasets.fetch("toy", base_url=toy["url"])
    (folder / "b.bin").write_bytes(b"truncated")
    datasets.fetch("toy", base_url=toy["url"])
    assert (folder / "b.bin").read_bytes() == toy["contents"]["b.bin"]
    assert toy["seen"].count("/toyset/b.bin") == 2


def test_http_error_is_reported(toy):
    (toy["served"] / "a.txt").unlink()
    with pytest.raises(DataUnavailableError, match=r"a\.txt.*404.*LABELRANK_DATA"):
        datasets.fetch("toy", base_url=toy["url"])
    assert not (toy["cache"] / "toyset" / "a.txt").exists()
    assert not list((toy["cache"] / "toyset").glob("*.part"))  # the temporary file is removed on failure too


def test_download_does_not_touch_another_process_partial_file(toy):
    """Each download writes its own temporary file: a concurrent fetch of the same file (here: the partial file a
    fixed name ``b.bin.part`` would have been) is neither overwritten nor deleted."""
    folder = toy["cache"] / "toyset"
    folder.mkdir(parents=True)
    other = {name: folder / f"{name}.part" for name in toy["contents"]}
    for name, path in other.items():
        path.write_bytes(b"another process is writing this")
    datasets.fetch("toy", base_url=toy["url"])
    for name, data in toy["contents"].items():
        assert (folder / name).read_bytes() == data
        assert other[name].read_bytes() == b"another process is writing this"
    assert sorted(folder.glob("*.part")) == sorted(other.values())  # ours are gone
    assert (folder / "a.txt").stat().st_mode & 0o777 == 0o644


def test_no_mirror_no_network_says_how_to_set_labelrank_data(toy):
    with pytest.raises(DataUnavailableError) as info:
        datasets.fetch("toy")  # the registered origins point at a closed port
    msg = str(info.value)
    assert "/origin/a.txt" in msg
    assert "LABELRANK_DATA" in msg and "export LABELRANK_DATA=" in msg


def test_mirror_is_read_in_place(toy, monkeypatch):
    monkeypatch.setenv("LABELRANK_DATA", str(toy["root"]))
    assert datasets.fetch("toy") == toy["root"] / "toyset"
    assert not toy["cache"].exists()  # nothing copied
    assert toy["seen"] == []


def test_mirror_corrupt_file_names_file_and_hashes(toy, monkeypatch):
    monkeypatch.setenv("LABELRANK_DATA", str(toy["root"]))
    (toy["served"] / "a.txt").write_bytes(b"alpha")
    with pytest.raises(ChecksumError) as info:
        datasets.fetch("toy")
    msg = str(info.value)
    assert str(toy["served"] / "a.txt") in msg
    assert _sha(toy["contents"]["a.txt"]) in msg and _sha(b"alpha") in msg
    assert (toy["served"] / "a.txt").exists()  # the mirror is never modified


def test_mirror_missing_file(toy, monkeypatch):
    monkeypatch.setenv("LABELRANK_DATA", str(toy["root"]))
    (toy["served"] / "b.bin").unlink()
    with pytest.raises(FileNotFoundError, match=r"toyset.b\.bin"):
        datasets.fetch("toy")


def test_verify_memoizes_but_sees_changes(tmp_path):
    p = tmp_path / "f"
    p.write_bytes(b"one")
    assert datasets.verify(p, _sha(b"one")) == _sha(b"one")
    p.write_bytes(b"two!")  # another size: the memo must not answer for it
    with pytest.raises(ChecksumError):
        datasets.verify(p, _sha(b"one"))
    with pytest.raises(FileNotFoundError):
        datasets.verify(tmp_path / "missing", _sha(b"one"))


@pytest.fixture
def emotions_source():
    """The verified folder of the real emotions files (mirror or cache), found before ``isolated`` hides them."""
    need("emotions")
    return datasets.fetch("emotions")


def test_real_download_of_emotions(emotions_source, server, isolated, monkeypatch):
    """Serve a copy of the real emotions files; download, verify against the registry, then parse."""
    shutil.copytree(emotions_source, server["root"] / "emotions", ignore=shutil.ignore_patterns("SOURCE.md"))
    monkeypatch.setenv("LABELRANK_BASE_URL", server["url"])
    folder = datasets.fetch("emotions")
    assert folder == isolated / "emotions"
    for f in REGISTRY["emotions"].files:
        assert _sha((folder / f.path).read_bytes()) == f.sha256
    X, Y, labels = datasets.load("emotions", "test")
    assert X.shape == (202, 72) and Y.shape == (202, 6)
    # a corrupted served file is rejected and removed
    (folder / "emotions-test.arff").unlink()
    arff = server["root"] / "emotions" / "emotions-test.arff"
    arff.write_bytes(arff.read_bytes()[:-1000])
    with pytest.raises(ChecksumError, match="emotions-test.arff"):
        datasets.fetch("emotions")
    assert not (folder / "emotions-test.arff").exists()


# ---------------------------------------------------------------------------------------------------------------
# MULAN: labels by name
# ---------------------------------------------------------------------------------------------------------------

_TOY_ARFF = """@relation toy
@attribute f1 numeric
@attribute lab_b {0,1}
@attribute f2 numeric
@attribute lab_a {0,1}
@data
1.5,1,2.0,0
-3,0,4.25,1
0,1,0,1
"""
_TOY_XML = """<?xml version="1.0" encoding="utf-8"?>
<labels xmlns="http://mulan.sourceforge.net/labels">
<label name="lab_a"></label>
<label name="lab_b"></label>
</labels>
"""


def test_mulan_labels_selected_by_name_not_position(tmp_path):
    (tmp_path / "toy-train.arff").write_text(_TOY_ARFF)
    (tmp_path / "toy.xml").write_text(_TOY_XML)
    X, Y, labels = mulan._parse_mulan(tmp_path, "toy", "train")
    assert labels == ["lab_b", "lab_a"]  # ARFF declaration order, chosen by the names in the xml
    np.testing.assert_array_equal(X, [[1.5, 2.0], [-3, 4.25], [0, 0]])
    np.testing.assert_array_equal(Y, [[1, 0], [0, 1], [1, 1]])
    assert Y.dtype == np.int64  # was uint8, which wraps 2 * Y - 1 to 255 (see test_label_matrices_are_wide_ints)


def test_label_matrices_are_wide_ints(tmp_path):
    """Y is int64 wherever it is built: 2 * Y - 1 gives -1/+1 and Y.T @ Y counts beyond 255 (uint8 wrapped)."""
    (tmp_path / "toy-train.arff").write_text(_TOY_ARFF)
    (tmp_path / "toy.xml").write_text(_TOY_XML)
    _, Y, _ = mulan._parse_mulan(tmp_path, "toy", "train")
    np.testing.assert_array_equal(2 * Y - 1, [[1, -1], [-1, 1], [1, 1]])
    Y = text._label_matrix([("a",)] * 300, ["a", "b"])
    assert Y.dtype == np.int64 and (Y.T @ Y)[0, 0] == 300 and Y.sum() == 300
    assert download.PARSE_VERSION >= 2  # the cached uint8 parses are not reused
    (tmp_path / "vowel.train").write_text("row.names,y," + ",".join(f"x.{i}" for i in range(1, 11)) + "\n"
                                          "1,3," + ",".join(["0.5"] * 10) + "\n")
    _, Y, _ = vowel._parse_vowel(tmp_path, "train")
    assert Y.dtype == np.int64 and (2 * Y - 1).min() == -1


def test_mulan_xml_naming_absent_label(tmp_path):
    (tmp_path / "toy-train.arff").write_text(_TOY_ARFF)
    (tmp_path / "toy.xml").write_text(_TOY_XML.replace("lab_a", "lab_zz"))
    with pytest.raises(ValueError, match="lab_zz"):
        mulan._parse_mulan(tmp_path, "toy", "train")


def test_yeast_labels_by_name_against_raw_arff():
    need("yeast")
    import arff

    folder = datasets.fetch("yeast")
    xml_order = datasets.mulan_xml_labels("yeast")
    X, Y, labels = datasets.load("yeast", "train")
    assert sorted(labels) == sorted(xml_order) and labels != xml_order
    assert labels == [f"Class{i}" for i in range(1, 15)]
    with open(folder / "yeast-train.arff") as fh:
        raw = arff.load(fh)
    names = [a for a, _ in raw["attributes"]]
    data = np.array(raw["data"], dtype=object)
    for j, lab in enumerate(labels):
        np.testing.assert_array_equal(Y[:, j], data[:, names.index(lab)].astype(float))
    np.testing.assert_allclose(X[:, 0], data[:, 0].astype(float))


# ---------------------------------------------------------------------------------------------------------------
# counts of every data set (SOURCE.md)
# ---------------------------------------------------------------------------------------------------------------

# name: (train, test, features or None, labels, train cardinality, test cardinality) from SOURCE.md
EXPECTED = {
    "emotions": (391, 202, 72, 6, 1.813, 1.975),
    "scene": (1211, 1196, 294, 6, 1.062, 1.086),
    "yeast": (1500, 917, 103, 14, 4.228, 4.252),
    "enron": (1123, 579, 1001, 53, None, None),
    "vowel": (528, 462, 10, 11, 1.0, 1.0),
    "reuters21578": (7770, 3019, None, 90, None, None),
    "20newsgroups": (11314, 7532, None, 20, 1.0, 1.0),
}


@pytest.mark.parametrize("name", LOAD_NAMES)
def test_counts_match_source_md(name):
    need(name)
    n_train, n_test, n_feat, n_lab, card_train, card_test = EXPECTED[name]
    for split, n, card in (("train", n_train, card_train), ("test", n_test, card_test)):
        X, Y, labels = datasets.load(name, split)
        assert X.shape[0] == Y.shape[0] == n
        assert Y.shape[1] == len(labels) == n_lab
        assert Y.dtype == np.int64 and set(np.unique(Y)) <= {0, 1}
        if n_feat is not None:
            assert isinstance(X, np.ndarray) and X.shape[1] == n_feat and X.dtype == np.float64
        else:
            assert sp.issparse(X) and X.format == "csr"
        if card is not None:
            assert round(float(Y.sum(axis=1).mean()), 3) == card
    if name in ("vowel", "20newsgroups"):
        assert (Y.sum(axis=1) == 1).all()


def test_vowel_classes_balanced():
    need("vowel")
    _, Y, labels = datasets.load("vowel", "train")
    assert labels == [str(i) for i in range(1, 12)]
    assert (Y.sum(axis=0) == 48).all()
    _, Y, _ = datasets.load("vowel", "test")
    assert (Y.sum(axis=0) == 42).all()


def test_reuters_modapte_counts():
    need("reuters21578")
    docs = datasets.reuters_documents()
    assert len(docs) == 21578 and docs["newid"].is_unique
    yes = docs[docs["topics_attr"] == "YES"]
    assert (yes["lewissplit"] == "TRAIN").sum() == 9603
    assert (yes["lewissplit"] == "TEST").sum() == 3299
    parts, categories = datasets.modapte_split(docs)
    assert len(categories) == 90
    assert len(parts["train"]) == 7770 and len(parts["test"]) == 3019
    folder = datasets.fetch("reuters21578")
    all_topics = (folder / "all-topics-strings.lc.txt").read_text(encoding="latin-1").split()
    assert len(all_topics) == 135 and set(categories) <= set(all_topics)
    for s in ("train", "test"):  # every kept category has a document on both sides
        assert {t for ts in parts[s]["topics"] for t in ts} == set(categories)
    X_train, Y_train, labels = datasets.load("reuters21578", "train")
    X_test, Y_test, _ = datasets.load("reuters21578", "test")
    assert labels == categories
    assert X_train.shape[1] == X_test.shape[1] == len(datasets.vocabulary("reuters21578"))
    assert (Y_train.sum(axis=1) >= 1).all() and (Y_test.sum(axis=1) >= 1).all()
    assert (Y_train.sum(axis=0) >= 1).all() and (Y_test.sum(axis=0) >= 1).all()
    norms = np.sqrt(np.asarray(X_train.multiply(X_train).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, 1.0)
    assert Y_train[:, labels.index("earn")].sum() > 2000  # the largest category


def test_reuters_document_text():
    need("reuters21578")
    docs = datasets.reuters_documents().set_index("newid")
    first = docs.loc[1]  # the cocoa story opening reut2-000.sgm
    assert first["topics"] == ("cocoa",) and first["lewissplit"] == "TRAIN"
    assert first["text"].startswith("BAHIA COCOA REVIEW")
    joined = "".join(docs["text"].head(500))
    assert not re.search(r"</?(TEXT|TITLE|BODY|DATELINE|AUTHOR)\b", joined)  # markup removed
    assert "&lt;" not in joined and "<SRD>" in joined  # entities decoded (ticker symbols such as &lt;SRD&gt;)


def test_20newsgroups_texts_and_matrix_agree():
    need("20newsgroups")
    texts, y, groups = datasets.load_texts("20newsgroups", "test")
    assert len(texts) == len(y) == 7532 and len(groups) == 20
    assert groups[0] == "alt.atheism" and groups[-1] == "talk.religion.misc"
    assert np.bincount(y).min() > 200
    _, Y, labels = datasets.load("20newsgroups", "test")
    assert labels == groups
    np.testing.assert_array_equal(Y.argmax(axis=1), y)
    stripped, y2, _ = datasets.load_texts("20newsgroups", "test", strip_headers=True)
    np.testing.assert_array_equal(y, y2)
    assert sum(t.startswith("From:") for t in texts) > 7000
    assert sum(t.startswith("From:") for t in stripped) < 50


# ---------------------------------------------------------------------------------------------------------------
# tokenization and ltc
# ---------------------------------------------------------------------------------------------------------------


def test_tokenize_examples():
    assert datasets.tokenize("U.S. wheat exports rose 5.2%") == ["wheat", "exports", "rose"]
    assert datasets.tokenize("Don't STOP-loss x y ab") == ["don", "stop", "loss", "ab"]
    assert datasets.tokenize("café 123abc") == ["caf", "abc"]
    with pytest.raises(TypeError, match="text must be a str"):
        datasets.tokenize(None)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcXYZ019 .-'é\n", max_size=40))
def test_tokenize_is_the_default_analyzer_and_a_regex(txt):
    expected = re.findall(r"[a-z]{2,}", txt.lower())
    assert datasets.tokenize(txt) == datasets.TextAnalyzer()(txt) == expected


def test_text_analyzer_examples():
    analyzer = datasets.TextAnalyzer(r"[a-z][a-z0-9]*", "english", "porter")
    assert analyzer("The G7 ministers were meeting in 1987") == ["g7", "minist", "meet"]
    # the stop list applies before stemming: "show" and "find" are stop words, "shows" and "finds" are not
    assert analyzer("show shows find finds") == ["show", "find"]
    # Porter reduces "s" to the empty string, which is not a term
    assert datasets.TextAnalyzer(r"[a-z]+", "none", "porter")("U.S. rates") == ["u", "rate"]
    assert datasets.TextAnalyzer(r"[a-z]+", "none", "porter2")("generously running") == ["generous", "run"]
    assert datasets.TextAnalyzer(r"[a-z]+")("a Bb") == ["a", "bb"]


def test_text_analyzer_smart_stop_list():
    pytest.importorskip("RAKE")
    smart = datasets.stop_list("smart")
    assert len(smart) == 570 and {"a", "the", "having", "z"} <= smart  # 571 entries, "would" listed twice
    assert len(datasets.stop_list("english")) == 318 and datasets.stop_list("none") == frozenset()
    assert datasets.TextAnalyzer(r"[a-z]+", "smart")("The z index fell") == ["index", "fell"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"pattern": "[a-z"}, "pattern must be a regular expression"),
        ({"pattern": "[a-z]*"}, "must not match the empty string"),
        ({"stop_words": "glasgow"}, "stop_words must be one of"),
        ({"stemmer": "lovins"}, "stemmer must be one of"),
    ],
)
def test_text_analyzer_rejects_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        datasets.TextAnalyzer(**kwargs)
    with pytest.raises(TypeError, match="text must be a str"):
        datasets.TextAnalyzer()(b"bytes")


def test_count_matrix_with_an_analyzer():
    analyzer = datasets.TextAnalyzer(r"[a-z]+", "english", "porter")
    tr, te, vocab = datasets.count_matrix(["The cats sat", "a cat ran"], ["cats running"], analyzer)
    assert vocab == ["cat", "ran", "sat"]
    np.testing.assert_array_equal(tr.toarray(), [[1, 0, 1], [1, 1, 0]])
    np.testing.assert_array_equal(te.toarray(), [[1, 0, 0]])


def test_ltc_worked_example():
    # 3 training documents, 3 terms; N = 3, df = (2, 2, 1)
    train = np.array([[2, 1, 0], [0, 1, 1], [1, 0, 0]])
    test = np.array([[0, 0, 3], [1, 1, 1], [0, 0, 0]])
    Xtr, Xte = datasets.ltc_tfidf(train, test)
    a = (1 + math.log(2)) * math.log(1.5)
    b = math.log(1.5)
    np.testing.assert_allclose(Xtr[0].toarray(), [[a / math.hypot(a, b), b / math.hypot(a, b), 0]])
    c = math.log(3)
    np.testing.assert_allclose(Xtr[1].toarray(), [[0, b / math.hypot(b, c), c / math.hypot(b, c)]])
    np.testing.assert_allclose(Xtr[2].toarray(), [[1, 0, 0]])
    np.testing.assert_allclose(Xte[0].toarray(), [[0, 0, 1]])  # tf = 3 only changes the length
    n = math.sqrt(2 * b * b + c * c)
    np.testing.assert_allclose(Xte[1].toarray(), [[b / n, b / n, c / n]])
    assert Xte[2].nnz == 0  # an empty document stays all-zero


def test_ltc_term_in_every_training_document_has_zero_weight():
    Xtr, Xte = datasets.ltc_tfidf(np.array([[1, 1], [3, 0]]), np.array([[5, 0]]))
    assert Xte.nnz == 0
    np.testing.assert_allclose(Xtr.toarray(), [[0, 1], [0, 0]])


def _dense_ltc(train, test):
    n = train.shape[0]
    df = (train > 0).sum(axis=0)
    idf = np.where(df > 0, np.log(n / np.maximum(df, 1)), 0.0)
    out = []
    for m in (train, test):
        w = np.where(m > 0, (1 + np.log(np.where(m > 0, m, 1))) * idf, 0.0)
        norm = np.linalg.norm(w, axis=1, keepdims=True)
        out.append(np.divide(w, norm, out=np.zeros_like(w), where=norm > 0))
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda t: st.tuples(
            arrays(np.int64, st.tuples(st.integers(1, 7), st.just(t)), elements=st.integers(0, 6)),
            arrays(np.int64, st.tuples(st.integers(0, 5), st.just(t)), elements=st.integers(0, 6)),
        )
    )
)
def test_ltc_properties(pair):
    train, test = pair
    Xtr, Xte = datasets.ltc_tfidf(sp.csr_matrix(train), test)
    for X, M, ref in zip((Xtr, Xte), (train, test), _dense_ltc(train, test)):
        dense = X.toarray()
        assert dense.shape == M.shape and (dense >= 0).all()
        norms = np.linalg.norm(dense, axis=1)
        assert np.allclose(norms[norms > 0], 1.0)
        assert ((dense > 0) <= (M > 0)).all()  # weights only where the term occurs
        np.testing.assert_allclose(dense, ref, atol=1e-12)
    # the training weights do not depend on the test documents
    np.testing.assert_allclose(datasets.ltc_tfidf(train, train[:1])[0].toarray(), Xtr.toarray())


def test_ltc_matches_scikit_learn_components():
    """sklearn's idf is ln(N/df) + 1 (smooth_idf=False); subtract the 1 and normalize: the same weights."""
    rng = np.random.default_rng(0)
    for _ in range(40):
        n_terms = int(rng.integers(2, 30))
        train = rng.poisson(0.7, size=(int(rng.integers(2, 40)), n_terms))
        train[rng.integers(0, train.shape[0], n_terms), np.arange(n_terms)] += 1  # every term has df >= 1
        test = rng.poisson(0.7, size=(int(rng.integers(1, 20)), n_terms))
        idf = TfidfTransformer(smooth_idf=False, sublinear_tf=True, norm=None).fit(train).idf_ - 1.0
        tf = TfidfTransformer(use_idf=False, sublinear_tf=True, norm=None)
        for ours, m in zip(datasets.ltc_tfidf(train, test), (train, test)):
            ref = normalize(sp.csr_matrix(tf.fit_transform(m).multiply(idf)), norm="l2")
            np.testing.assert_allclose(ours.toarray(), ref.toarray(), atol=1e-12)


def test_ltc_bad_input():
    with pytest.raises(ValueError, match="same number of terms, got 2 and 3"):
        datasets.ltc_tfidf(np.ones((2, 2)), np.ones((1, 3)))
    with pytest.raises(ValueError, match="train_counts must hold finite non-negative"):
        datasets.ltc_tfidf(np.array([[1, -1]]), np.ones((1, 2)))
    with pytest.raises(ValueError, match="test_counts"):
        datasets.ltc_tfidf(np.ones((1, 2)), np.array([[np.nan, 1]]))
    with pytest.raises(ValueError, match="at least one document"):
        datasets.ltc_tfidf(np.ones((0, 2)), np.ones((1, 2)))


def test_ltc_sums_duplicate_sparse_entries():
    """A CSR matrix may store one cell in several entries: df counts the document once, tf is their sum."""
    dense_train = np.array([[3, 1, 0], [0, 1, 2], [1, 0, 0]])
    dup = sp.csr_matrix((np.array([1.0, 2.0, 1.0, 1.0, 2.0, 1.0]), np.array([0, 0, 1, 1, 2, 0]),
                         np.array([0, 3, 5, 6])), shape=(3, 3))  # row 0: 1 + 2 in column 0
    assert not dup.has_canonical_format and (dup.toarray() == dense_train).all()
    test = sp.csr_matrix((np.array([1.0, 1.0]), np.array([2, 2]), np.array([0, 2])), shape=(1, 3))
    ours = datasets.ltc_tfidf(dup, test)
    ref = datasets.ltc_tfidf(dense_train, np.array([[0, 0, 2]]))
    for a, b in zip(ours, ref):
        np.testing.assert_allclose(a.toarray(), b.toarray(), atol=1e-12)
    assert dup.nnz == 6  # the caller's matrix is not modified


@pytest.mark.parametrize("bad", [np.ones(3), [1, 2, 3], np.ones((1, 2, 3)), 5])
def test_ltc_rejects_input_that_is_not_2d(bad):
    with pytest.raises(ValueError, match="train_counts must be 2-D"):
        datasets.ltc_tfidf(bad, np.ones((1, 3)))
    with pytest.raises(ValueError, match="test_counts must be 2-D"):
        datasets.ltc_tfidf(np.ones((2, 3)), bad)


def test_count_matrix_vocabulary_from_training_only():
    tr, te, vocab = datasets.count_matrix(["the cat sat", "the dog"], ["cat cat bird"])
    assert vocab == ["cat", "dog", "sat", "the"]
    np.testing.assert_array_equal(tr.toarray(), [[1, 0, 1, 1], [0, 1, 0, 1]])
    np.testing.assert_array_equal(te.toarray(), [[2, 0, 0, 0]])


# ---------------------------------------------------------------------------------------------------------------
# enron tree, statistics, CLI
# ---------------------------------------------------------------------------------------------------------------


def test_enron_label_parents_and_categories():
    need("enron")
    parents = datasets.enron_label_parents()
    _, _, labels = datasets.load("enron", "train")
    assert parents[datasets.ENRON_ROOT] is None
    assert set(parents) == set(labels) | {"A", "B", "C", "D", datasets.ENRON_ROOT}
    assert all(parents[top] == datasets.ENRON_ROOT for top in "ABCD")
    assert all(parents[lab] == lab[0] for lab in labels)
    sizes = {top: sum(p == top for p in parents.values()) for top in "ABCD"}
    assert sizes == {"A": 8, "B": 13, "C": 13, "D": 19}
    cats = datasets.enron_categories()
    assert set(cats) == set(parents) - {datasets.ENRON_ROOT}
    assert cats["A"] == "Coarse genre" and cats["D.D19"] == "dislike / scorn"


@pytest.mark.parametrize("label", ["AB.AB1", ".x", "E.E1", "A", "A.", "A.A1.x"])
def test_enron_label_parents_rejects_labels_outside_a_to_d(monkeypatch, label):
    """The top category is one of A, B, C, D exactly ("" and "AB" are substrings of "ABCD" but no category)."""
    monkeypatch.setattr(mulan, "mulan_xml_labels", lambda name: ["A.A1", label])
    with pytest.raises(ValueError, match=re.escape(f"label {label!r} is not of the form <A-D>.<code>")):
        datasets.enron_label_parents()


def test_enron_label_parents_is_the_tree_of_the_label_paths(monkeypatch):
    from labelrank.hierarchy import LabelTree

    labels = ["A.A1", "B.B1", "A.A2", "D.D19"]
    monkeypatch.setattr(mulan, "mulan_xml_labels", lambda name: labels)
    parents = datasets.enron_label_parents()
    assert parents == {"enron": None, "A": "enron", "A.A1": "A", "B": "enron", "B.B1": "B", "A.A2": "A",
                       "D": "enron", "D.D19": "D"}
    assert LabelTree.from_parents(parents) == LabelTree.from_paths(labels, root="enron")


@pytest.mark.parametrize("line", ["0 Zeroth genre", "5 Fifth genre", "0.3 a code under 0", "5.1 a code under 5"])
def test_enron_categories_rejects_numbers_outside_1_to_4(tmp_path, monkeypatch, line):
    (tmp_path / "categories.txt").write_text(f"1 Coarse genre\n1.1 Company Business\n{line}\n", encoding="utf-8")
    monkeypatch.setattr(mulan, "fetch", lambda name: tmp_path)
    with pytest.raises(ValueError, match=r"categories.txt line 3: top category '[05]' is not one of 1 \.\.\. 4"):
        datasets.enron_categories()


def test_enron_categories_maps_numbers_to_letters(tmp_path, monkeypatch):
    (tmp_path / "categories.txt").write_text("\n1 Coarse genre\n \n1.1 Business\n4 Tone\n4.19 scorn\n",
                                             encoding="utf-8")
    monkeypatch.setattr(mulan, "fetch", lambda name: tmp_path)
    assert datasets.enron_categories() == {"A": "Coarse genre", "A.A1": "Business", "D": "Tone", "D.D19": "scorn"}


def test_describe_emotions_cardinality_conventions():
    need("emotions")
    d = datasets.describe("emotions")
    assert (d["train_size"], d["test_size"], d["n_categories"], d["n_features"]) == (391, 202, 6, 72)
    assert round(d["avg_categories_train"], 3) == 1.813
    assert round(d["avg_categories_per_instance"], 2) == 1.87  # the paper's number: train and test together
    w = (391 * d["avg_categories_train"] + 202 * d["avg_categories_test"]) / 593
    assert d["avg_categories_per_instance"] == pytest.approx(w)


def test_cli_data_fetch(capsys):
    from labelrank.cli import main

    assert main(["data", "fetch", "nope"]) == 2
    assert "unknown data set 'nope'" in capsys.readouterr().err
    need("emotions")
    assert main(["data", "fetch", "emotions", "vowel"]) == 0
    out = capsys.readouterr().out
    assert "emotions: verified in" in out and "vowel: verified in" in out


def test_an_unwritable_cache_still_loads_from_the_mirror(tmp_path, monkeypatch):
    """A read-only or unusable cache folder once made ``load`` fail with joblib's PermissionError traceback, though
    the files come from the mirror; now the data set is parsed without caching, with a warning naming the folder."""
    need("emotions")
    expected = datasets.load("emotions", "train")
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path / "a-file" / "cache"))  # no folder can be made there
    with pytest.warns(RuntimeWarning, match=r"a-file/cache/parsed cannot be written .*parsed without caching"):
        X, Y, names = datasets.load("emotions", "train")
    np.testing.assert_array_equal(X, expected[0])
    np.testing.assert_array_equal(Y, expected[1])
    assert names == expected[2]
