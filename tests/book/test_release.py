"""What a user cites: the version (``labelrank --version``, the package metadata), CITATION.cff and CHANGELOG.md."""

from __future__ import annotations

import re
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml

import labelrank
from labelrank import cli

ROOT = Path(__file__).resolve().parents[2]


def test_version_flag_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"labelrank {labelrank.__version__}"
    assert version("labelrank") == labelrank.__version__  # pyproject reads the version from the package


def test_citation_file_names_this_version_and_the_three_source_works():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["version"] == labelrank.__version__
    assert cff["title"] and cff["authors"] and cff["message"]
    refs = cff["references"]
    assert [r["type"] for r in refs] == ["conference-paper", "webpage", "article"]
    bib = (ROOT / "book" / "references.bib").read_text()
    yang = next(r for r in refs if r["type"] == "article")
    assert f"doi     = {{{yang['doi']}}}" in bib  # the same DOI as the book's bibliography
    for ref in refs:  # each title is the bibliography's (braces for capitals removed)
        assert ref["title"] in re.sub(r"[{}]", "", bib), ref["title"]


def test_changelog_has_a_section_for_this_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## \[{re.escape(labelrank.__version__)}\]", text, re.M)


def test_a_missing_extra_is_named(monkeypatch):
    """Code that needs an optional package says which extra of labelrank installs it (here LightGBM's ranker)."""
    import numpy as np

    from labelrank.optional import require
    from labelrank.rankers import LightGBMLambdaRank

    monkeypatch.setitem(sys.modules, "lightgbm", None)  # an import of lightgbm now fails
    with pytest.raises(ImportError, match=r"LightGBMLambdaRank needs lightgbm.*pip install 'labelrank\[rank\]'"):
        LightGBMLambdaRank().fit(np.zeros((4, 3, 2)), np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]]))
    with pytest.raises(ImportError, match=r"pip install 'labelrank\[protocol\]'"):
        require("lightgbm", "the engine", extra="protocol")
    with pytest.raises(KeyError):
        require("json", "nothing")  # not an optional dependency of labelrank
