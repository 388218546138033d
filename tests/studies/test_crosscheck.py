"""The appendix's comparisons that no other test makes: ML-kNN and IBLR-ML against scikit-multilearn-ng, and the
summary table (labelrank.studies.crosscheck)."""

import numpy as np
import pytest
from labelrank.datasets import DataUnavailableError
from labelrank.studies import crosscheck as cc

pytest.importorskip("skmultilearn", reason="scikit-multilearn-ng is in the crosscheck extra")


def on_emotions(comparison):
    """``comparison(("emotions",))``, or a skip when emotions has no data source."""
    try:
        return comparison(("emotions",))
    except (DataUnavailableError, FileNotFoundError) as exc:
        pytest.skip(f"emotions needs a data source (LABELRANK_DATA): {exc}")


@pytest.fixture(scope="module")
def mlknn():
    return on_emotions(cc.mlknn_comparison)


def test_corrected_scikit_multilearn_mlknn_is_ours_and_mulans(mlknn):
    corrected = mlknn[mlknn["variant"] == "corrected"]
    assert len(corrected) == 2 and (corrected["max |confidence difference|"] == 0).all()
    scaled = corrected[corrected["features"] == "min-max scaled"]
    assert float(scaled["max |difference to MULAN|"].iloc[0]) < 1e-12


def test_its_default_and_its_option_differ(mlknn):
    for variant in ("default", "ignore_first_neighbours=1"):
        rows = mlknn[mlknn["variant"] == variant]
        assert (rows["max |confidence difference|"] > 0.1).all() and (rows["decisions differing"] > 0).all()


def test_the_summary_has_a_row_per_comparison(mlknn):
    import pandas as pd

    table = cc.summary(pd.DataFrame(), cc.sklearn_ranking_comparison(n=60), pd.DataFrame(
        {"max |confidence diff|": [0.0, 1e-6]}), mlknn, pd.DataFrame())
    assert len(table) == 5
    assert table.loc["labelrank score vs trec_eval (map, Rprec)", "verdict"].startswith("skipped")
    assert table.loc["MLkNN vs scikit-multilearn-ng's MLkNN", "verdict"].startswith("defect in the peer")
    assert np.isclose(table.loc["MLkNN, IBLRML (distance='weka') vs MULAN's own outputs", "largest difference"], 1e-6)


@pytest.fixture(scope="module")
def iblr():
    return on_emotions(cc.iblr_comparison)


def test_scikit_multilearn_iblr_is_iblr_ml_plus_with_the_self_neighbour(iblr):
    row = iblr.iloc[0]
    assert row["to rebuilt IBLR-ML+"] < 1e-9  # rebuilt from its three choices, it is the peer
    assert row["to it, self excluded"] > 0.1 and row["to it, without the features"] > 0.1
    assert row["max |difference to ours|"] > 0.1 and row["decisions differing from ours"] > 0


def test_the_summary_names_the_iblr_peer_another_method(mlknn, iblr):
    import pandas as pd

    table = cc.summary(pd.DataFrame(), cc.sklearn_ranking_comparison(n=60), pd.DataFrame(
        {"max |confidence diff|": [0.0]}), mlknn, pd.DataFrame(), iblr)
    assert len(table) == 6
    verdict = table.loc["IBLRML vs scikit-multilearn-ng's InstanceBasedLogisticRegression", "verdict"]
    assert verdict.startswith("another method: the peer is IBLR-ML+")
