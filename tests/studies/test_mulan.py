"""The kNN baselines and the metrics against MULAN's own outputs (``data/mulan``, copied from ``../shared/mulan``).

MULAN (Tsoumakas et al.) ran its ``MLkNN`` and ``IBLR_ML`` (smoothing 1, k = 10 and 20) on the train/test splits of
emotions and scene. With ``distance="weka"`` (MULAN's Weka ``EuclideanDistance``), :class:`MLkNN` must give MULAN's
confidences exactly and :class:`IBLRML` within 1e-5, with the same decisions; :mod:`labelrank.metrics` applied to
MULAN's own outputs must give MULAN's measures. The data sets need a source (``LABELRANK_DATA``), else these tests
skip; the committed copies are checked against the shared folder where it is present.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from labelrank.paths import data_dir, project_root
from labelrank.studies.yang2012 import mulan

SHARED = Path(os.environ.get("LABELRANK_MULAN", (project_root() or Path(__file__).resolve().parents[2]).parent
                             / "shared" / "mulan"))


def need_data() -> None:
    if not os.environ.get("LABELRANK_DATA") and not (data_dir() / "raw" / "emotions").is_dir():
        pytest.skip("emotions and scene need a data source (set LABELRANK_DATA to a mirror such as ../shared/datasets)")


def test_the_committed_copies_are_mulans_files():
    if not SHARED.is_dir():
        pytest.skip(f"the shared folder {SHARED} is absent: the committed copies cannot be compared with it")
    names = sorted(p.name for p in SHARED.iterdir() if p.name != "README.md")
    assert names == sorted(p.name for p in (data_dir() / "mulan").iterdir() if p.name != "README.md")
    for name in names:
        digest = [hashlib.sha256((folder / name).read_bytes()).hexdigest() for folder in (SHARED, data_dir() / "mulan")]
        assert digest[0] == digest[1], name


@pytest.mark.parametrize("dataset, method, k", mulan.CASES)
def test_metrics_on_mulans_outputs_give_mulans_measures(dataset, method, k):
    conf, dec, truth = mulan.mulan_outputs(dataset, method, k)
    expected = mulan.mulan_measures().loc[(dataset, method, k)]
    for name, value in mulan.our_measures(truth, conf, dec).items():
        assert value == pytest.approx(expected[name], abs=1e-12), name


def test_knn_baselines_with_wekas_distance_give_mulans_outputs():
    need_data()
    table = mulan.comparison("weka").set_index(["dataset", "method", "k"])
    assert len(table) == len(mulan.CASES) == 8
    assert (table["decisions differing"] == 0).all()
    assert (table.loc[(slice(None), "MLkNN"), "max |confidence diff|"] == 0).all()  # the same arithmetic
    assert (table.loc[(slice(None), "IBLR_ML"), "max |confidence diff|"] <= 1e-5).all()
    assert (table.loc[(slice(None), "MLkNN"), "max |measure diff|"] <= 1e-12).all()
    assert (table.loc[(slice(None), "IBLR_ML"), "max |measure diff|"] <= 1e-4).all()
    assert (table["metrics on MULAN's outputs"] <= 1e-12).all()


def test_without_wekas_distance_emotions_differs():
    """On the features as given, emotions' neighbours change and so do the confidences; scene's features already
    lie in [0, 1]-like ranges, where the two distances agree more closely."""
    need_data()
    table = mulan.comparison("euclidean").set_index(["dataset", "method", "k"])
    assert (table.loc["emotions", "max |confidence diff|"] > 0.1).all()


def test_mulan_outputs_rejects_an_unknown_run():
    with pytest.raises(ValueError, match="MULAN's outputs exist for"):
        mulan.mulan_outputs("yeast", "MLkNN", 10)
