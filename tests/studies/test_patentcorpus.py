"""The PATENTCORPUS5000 loader and class-definition retrieval, on small corpora written in that layout."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
from labelrank.metrics import retrieval_scores
from labelrank.studies.semanticsearchart.patentcorpus import (
    class_query_retrieval,
    load_patent_corpus,
    query_similarities,
)

# Three "classes" with their own technical vocabulary, as in a patent corpus.
VOCAB = {
    "131": ["tobacco", "cigarette", "smoking", "filter", "leaf", "nicotine", "cigar", "pipe"],
    "424": ["drug", "tablet", "dosage", "pharmaceutical", "compound", "oral", "capsule", "therapy"],
    "701": ["vehicle", "engine", "navigation", "brake", "steering", "sensor", "speed", "wheel"],
}
COMMON = ["method", "apparatus", "system", "device", "invention", "embodiment", "present", "comprising"]
DEFINITIONS = {
    "131": "Products containing tobacco or tobacco substitutes intended for personal use for smoking, cigarette "
    "and cigar making, filter and pipe.",
    "424": "Drug, bio-affecting and body treating compositions: pharmaceutical tablet or capsule dosage forms for "
    "oral therapy.",
    "701": "Data processing for vehicles, navigation and relative location: engine, brake and steering control "
    "from a speed sensor.",
}


def _documents(per_class: int = 6, seed: int = 0) -> dict[str, str]:
    """``{relative path: text}`` in the PATENTCORPUS5000 layout (class folders, C{class}P{patent}.txt)."""
    rng = np.random.default_rng(seed)
    docs = {}
    for c, words in VOCAB.items():
        for k in range(per_class):
            patent = 7000000 + 37 * k + int(c)
            tokens = rng.choice(words, size=40).tolist() + rng.choice(COMMON, size=40).tolist()
            rng.shuffle(tokens)
            docs[f"{c}/C{c}P{patent}.txt"] = " ".join(tokens) + "\n"
    return docs


def _write_zip(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def _write_folder(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="ascii")
    return root


@pytest.fixture()
def corpus_files() -> dict[str, str]:
    files = {f"PATENTCORPUS5000/{k}": v for k, v in _documents().items()}
    files.update({f"PATENTCORPUS5000/queries/Q{c}.txt": text + "\n" for c, text in DEFINITIONS.items()})
    files["PATENTCORPUS5000/readme.txt"] = "50 classes, 100 patents each\n"
    return files


def test_zip_and_folder_load_the_same_corpus(tmp_path, corpus_files):
    from_zip = load_patent_corpus(_write_zip(tmp_path / "PATENTCORPUS5000.zip", corpus_files))
    from_dir = load_patent_corpus(_write_folder(tmp_path / "extracted", corpus_files))
    assert len(from_zip) == len(from_dir) == 18
    assert from_zip.texts == from_dir.texts and from_zip.paths == from_dir.paths
    assert from_zip.class_names == ["131", "424", "701"]
    assert from_zip.classes.tolist() == ["131"] * 6 + ["424"] * 6 + ["701"] * 6
    assert from_zip.queries == DEFINITIONS  # stripped; readme.txt is neither a document nor a query
    first = from_zip.paths[0]
    assert first.startswith("PATENTCORPUS5000/131/C131P") and from_zip.patents[0] in first
    assert from_zip.texts[0] == corpus_files[first]


def test_numeric_class_order_and_query_name_variants(tmp_path):
    files = {"9/C9P1.txt": "alpha", "10/C10P2.txt": "beta", "100/C100P3.txt": "gamma",
             "definitions/class_9.txt": "a", "10_definition.txt": "b", "100/query100.txt": "c"}
    corpus = load_patent_corpus(_write_folder(tmp_path, files))
    assert corpus.class_names == ["9", "10", "100"] and corpus.classes.tolist() == ["9", "10", "100"]
    assert corpus.queries == {"9": "a", "10": "b", "100": "c"}
    custom = load_patent_corpus(tmp_path, query_pattern=r"class_(?P<cls>\d+)\.txt")
    assert custom.queries == {"9": "a"}


def test_layout_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="source"):
        load_patent_corpus(tmp_path / "missing.zip")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no document"):
        load_patent_corpus(tmp_path / "empty")
    with pytest.raises(ValueError, match=r"class 131 but sits in folder '424'"):
        load_patent_corpus(_write_folder(tmp_path / "wrong", {"424/C131P1.txt": "x"}))
    with pytest.raises(ValueError, match="occurs twice"):
        load_patent_corpus(_write_folder(tmp_path / "dup", {"131/C131P1.txt": "x", "other/C131P1.txt": "y"}))
    with pytest.raises(ValueError, match="two definitions"):
        load_patent_corpus(_write_folder(tmp_path / "q2", {"131/C131P1.txt": "x", "Q131.txt": "a", "131.txt": "b"}))
    not_zip = tmp_path / "corpus.zip"
    not_zip.write_text("not a zip")
    with pytest.raises(ValueError, match="zip archive or a folder"):
        load_patent_corpus(not_zip)
    with pytest.raises(ValueError, match="named group 'cls'"):
        load_patent_corpus(tmp_path / "wrong", query_pattern=r"Q\d+\.txt")


def test_orphan_definitions_are_dropped_with_a_warning(tmp_path):
    root = _write_folder(tmp_path, {"131/C131P1.txt": "x", "Q131.txt": "a", "Q999.txt": "b"})
    with pytest.warns(UserWarning, match="Q999.txt"):
        corpus = load_patent_corpus(root)
    assert corpus.queries == {"131": "a"}


def test_class_definitions_retrieve_their_class(tmp_path, corpus_files):
    corpus = load_patent_corpus(_write_zip(tmp_path / "c.zip", corpus_files))
    table = class_query_retrieval(corpus.texts, corpus.classes, corpus.queries)
    assert table["class"].tolist() == ["131", "424", "701"]
    assert (table["n_retrieved"] == 6).all() and (table["n_relevant"] == 6).all()
    np.testing.assert_allclose(table[["precision", "recall", "f"]].to_numpy(), 1.0)

    wide = class_query_retrieval(corpus.texts, corpus.classes, corpus.queries, n_results=12)
    assert (wide["n_relevant_retrieved"] == 6).all()
    several = class_query_retrieval(corpus.texts, corpus.classes, corpus.queries, n_results=[3, 6, 12])
    assert several["n_retrieved"].tolist() == [3, 6, 12] * 3
    assert several["n_relevant_retrieved"].tolist() == [3, 6, 6] * 3
    row = wide.iloc[0]
    assert (row["precision"], row["recall"], row["f"]) == retrieval_scores(12, 6, 6)
    assert row["precision"] == 0.5 and row["f"] == pytest.approx(2 / 3)


def test_retrieval_counts_match_a_direct_ranking():
    docs = _documents(per_class=10, seed=3)
    texts = list(docs.values())
    classes = np.array([p.split("/")[0] for p in docs])
    queries = {"131": "smoking pipe engine", "701": "engine wheel tablet"}  # deliberately mixed queries
    table = class_query_retrieval(texts, classes, queries, n_results=7)
    S = query_similarities(list(queries.values()), texts)
    assert S.shape == (2, 30) and (S >= 0).all() and (S <= 1 + 1e-9).all()
    for (cls, _), sims, (_, row) in zip(queries.items(), S, table.iterrows()):
        top = np.argsort(-sims, kind="stable")[:7]
        assert row["n_relevant_retrieved"] == int((classes[top] == cls).sum())
        assert row["recall"] == pytest.approx(row["n_relevant_retrieved"] / 10)


def test_retrieval_bad_input():
    texts, classes = ["tobacco leaf", "engine brake"], ["131", "701"]
    with pytest.raises(ValueError, match="queries has classes"):
        class_query_retrieval(texts, classes, {"999": "x"})
    with pytest.raises(ValueError, match="queries must be a non-empty mapping"):
        class_query_retrieval(texts, classes, {})
    with pytest.raises(ValueError, match="classes must be 1-D"):
        class_query_retrieval(texts, ["131"], {"131": "x"})
    with pytest.raises(ValueError, match="n_results"):
        class_query_retrieval(texts, classes, {"131": "x"}, n_results=0)
    with pytest.raises(TypeError, match="n_results"):
        class_query_retrieval(texts, classes, {"131": "x"}, n_results=1.5)
    with pytest.raises(ValueError, match="n_results"):
        class_query_retrieval(texts, classes, {"131": "x"}, n_results=[])
    with pytest.raises(ValueError, match="n_results"):
        class_query_retrieval(texts, classes, {"131": "x"}, n_results=[2, -1])
    with pytest.raises(TypeError, match="queries"):
        query_similarities("tobacco", texts)
    with pytest.raises(ValueError, match="texts"):
        query_similarities(["tobacco"], [])
