"""The book's repository and launch buttons come from LABELRANK_BOOK_REPOSITORY, never from a placeholder."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "book" / "_ext"))
from repository_links import repository_options  # noqa: E402


def test_no_address_no_buttons():
    assert repository_options({}) == {}
    assert repository_options({"LABELRANK_BOOK_REPOSITORY": "  "}) == {}


def test_a_real_address_turns_the_buttons_on():
    options = repository_options({"LABELRANK_BOOK_REPOSITORY": "https://github.com/someone/labelrank-book/",
                                  "LABELRANK_BOOK_BRANCH": "pages"})
    assert options["repository_url"] == "https://github.com/someone/labelrank-book"
    assert options["repository_branch"] == "pages"
    assert options["use_repository_button"] and options["launch_buttons"]["binderhub_url"]
    assert "colab_url" not in options["launch_buttons"]  # Colab cannot open the chapters' .md sources


@pytest.mark.parametrize("bad", ["github.com/a/b", "https://example.org/a/b", "https://github.com/a", "x"])
def test_a_malformed_address_is_named(bad):
    with pytest.raises(ValueError, match="LABELRANK_BOOK_REPOSITORY"):
        repository_options({"LABELRANK_BOOK_REPOSITORY": bad})
