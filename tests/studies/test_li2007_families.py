"""The measure-family study of Li et al. (``labelrank.studies.li2007.families``, ``.newsgroups``) computes its
Kendall taus with the library's."""

from __future__ import annotations

from labelrank import comparison
from labelrank.studies.li2007 import families, newsgroups


def test_the_study_uses_the_librarys_taus():
    assert families.bootstrap_taus is comparison.bootstrap_taus is newsgroups.bootstrap_taus
