"""The engine serves a study of another paper through public names alone: a made-up estimator on a made-up data set,
tuned, refitted, tested and cached by ``labelrank.protocol`` without a line of Yang & Gopal's study (this module
imports ``labelrank.protocol`` and nothing of ``labelrank.studies``)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from labelrank import protocol
from labelrank.metrics import METRICS, average_precision


class CentroidScorer:
    """A made-up multi-label method: label j scores x by its dot product with the shrunken mean of label j's
    training instances; the labels scoring at least ``cut`` times the row's best are predicted."""

    fits = 0  # fits in this process (the tests run the engine in-process)

    def __init__(self, threshold="default", shrink=1.0, cut=0.5):
        self.threshold, self.shrink, self.cut = threshold, shrink, cut

    def fit(self, X, Y):
        CentroidScorer.fits += 1
        counts = Y.sum(axis=0)[:, None]
        self.centroids_ = (Y.T @ X) / (counts + self.shrink)
        return self

    def decision_function(self, X):
        return X @ self.centroids_.T

    def predict(self, X):
        s = self.decision_function(X)
        return (s >= self.cut * s.max(axis=1, keepdims=True)).astype(np.int64)


def _blobs():
    """Three labels, each shifting its own feature; 120 training and 60 test instances."""
    rng = np.random.default_rng(42)
    Y = rng.integers(0, 2, size=(180, 3))
    Y[Y.sum(axis=1) == 0, 0] = 1
    X = rng.normal(size=(180, 5))
    X[:, :3] += 2.5 * Y
    return X[:120], Y[:120], X[120:], Y[120:]


def made_up_protocol(**changes) -> protocol.Protocol:
    settings = dict(
        profile="made-up",
        datasets=("blobs",),
        n_folds=3,
        seed=0,
        grids={"shrink": (0.1, 1.0, 10.0, 100.0), "cut": (0.3, 0.5, 0.8)},
        search="full",
        methods={"Centroid": protocol.MethodSpec("Centroid", "baseline", CentroidScorer,
                                                 (("shrink", "shrink"), ("cut", "cut")))},
        sources={"blobs": protocol.DataSource(_blobs, version="blobs-1")},
    )
    settings.update(changes)
    return protocol.Protocol(**settings)


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LABELRANK_CACHE", str(tmp_path))
    monkeypatch.setenv("LABELRANK_N_JOBS", "1")
    return tmp_path


def test_a_made_up_method_on_a_made_up_data_set_runs_through_the_engine(own_cache):
    proto = made_up_protocol()
    table = protocol.results(proto, progress=False)
    assert set(table["dataset"]) == {"blobs"} and set(table["method"]) == {"Centroid"}
    assert set(table["threshold"]) == {"default", "regression"}
    default = table[table["threshold"] == "default"].set_index("metric")
    assert list(default.index) == list(METRICS)
    # the test-set value is the made-up method refitted on the whole training set with the chosen configuration
    X_train, Y_train, X_test, Y_test = protocol.load_data("blobs", proto)
    chosen = json.loads(default.loc["MAP", "params"])
    model = CentroidScorer(**chosen).fit(X_train, Y_train)
    assert default.loc["MAP", "value"] == pytest.approx(average_precision(Y_test, model.decision_function(X_test)))
    # the choice is the cross-validated best of the grid (MAP on the three folds)
    cv = {}
    for shrink in proto.grids["shrink"]:
        for cut in proto.grids["cut"]:
            values = []
            for fold in range(proto.n_folds):
                X_fit, Y_fit, X_val, Y_val = protocol.fold_data("blobs", proto, fold)
                est = CentroidScorer(shrink=shrink, cut=cut).fit(X_fit, Y_fit)
                values.append(average_precision(Y_val, est.decision_function(X_val)))
            cv[(shrink, cut)] = float(np.mean(values))
    best = max(cv.values())
    assert cv[(chosen["shrink"], chosen["cut"])] == pytest.approx(best)
    assert default.loc["MAP", "cv_value"] == pytest.approx(best)
    assert table["p_value"].isna().all()  # no reference method: no significance tests


def test_the_second_run_reads_every_result_from_the_cache(own_cache):
    CentroidScorer.fits = 0
    first = protocol.results(made_up_protocol(), progress=False)
    assert CentroidScorer.fits >= 4 * 3 * 3  # every grid point on every fold, then the final fits
    CentroidScorer.fits = 0
    again = protocol.results(made_up_protocol(), progress=False)
    pd.testing.assert_frame_equal(first, again)
    assert CentroidScorer.fits == 0


def test_the_source_version_is_part_of_every_key():
    proto = made_up_protocol()
    other = made_up_protocol(sources={"blobs": protocol.DataSource(_blobs, version="blobs-2")})
    assert proto.data_key("blobs") != other.data_key("blobs")
    assert proto.data_key("blobs")[-2:] == ("source", "blobs-1")
    with pytest.raises(TypeError, match="sources\\['blobs'\\] must be a DataSource"):
        made_up_protocol(sources={"blobs": _blobs})
    with pytest.raises(TypeError, match="version must be a non-empty string"):
        protocol.DataSource(_blobs, version="")
