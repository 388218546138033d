"""The experiment tests' stand-in estimators, fixtures and small protocol (``tests/engine/test_experiments.py`` and
``tests/studies/test_yang2012_experiments.py``).

The stand-ins' cross-validated quality is a known function of their hyper-parameters, so that the selection rule,
the boundary widening and the staged search can be checked against a known answer; each test gets its own cache
folder, and runs in-process (``LABELRANK_N_JOBS=1``).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from labelrank.studies.yang2012 import experiments as ex

# ---- stand-in estimators ------------------------------------------------------------------------------------------

FITS = {"n": 0}


class StandIn:
    """Scores = the true labels (read off the synthetic X) plus noise whose size grows with the distance of the
    hyper-parameters from a chosen optimum, so that MAP is best at ``C = C_RANK``, ``k = K_BEST`` and Micro-F1 at
    ``C = C_DECIDE``.

    The synthetic X of the tests carries the labels in its first columns (see ``proto``), so a noiseless score is
    perfect. Noise is seeded by the hyper-parameters and the data: refits give identical outputs.
    """

    C_RANK, C_DECIDE, K_BEST = 10.0, 0.1, 20

    def __init__(self, threshold="default", C=1.0, k=20):
        self.threshold, self.C, self.k = threshold, C, k

    def fit(self, X, Y):
        FITS["n"] += 1
        self.m_ = Y.shape[1]
        return self

    def _noise(self, X, scale, salt):
        seed = int(abs(np.round(X[:, : self.m_], 6)).sum() * 1e3) % (2**32) + salt
        return scale * np.random.default_rng(seed).normal(size=(X.shape[0], self.m_))

    def decision_function(self, X):
        a = abs(np.log10(self.C) - np.log10(self.C_RANK)) + abs(self.k - self.K_BEST) / 10
        return X[:, : self.m_] + self._noise(X, 0.4 * a, 1)

    def predict(self, X):
        b = abs(np.log10(self.C) - np.log10(self.C_DECIDE))
        return (X[:, : self.m_] + self._noise(X, 0.4 * b, 2) >= 0.5).astype(int)


def standin(**kwargs):
    return StandIn(**kwargs)


#: Yang & Gopal's methods plus two stand-ins (the tests' protocols carry them all).
METHODS = {
    **ex.METHODS,
    "StandIn-C": ex.MethodSpec("StandIn-C", "baseline", standin, (("C", "C"),)),
    "StandIn-kC": ex.MethodSpec("StandIn-kC", "baseline", standin, (("k", "k"), ("C", "C"))),
}


def proto(**changes) -> ex.Protocol:
    base = ex.Protocol(
        profile="quick",
        datasets=(ex.SYNTHETIC,),
        n_folds=3,
        seed=0,
        grids={"k": (10, 20, 30), "C": tuple(float(c) for c in np.logspace(-2, 2, 5)), "lr": (0.01,),
               "lgbm_lr": (0.1,)},
        patience=1,
        widen_points=1,
        max_widen=2,
        meta_k=3,
        methods=METHODS,
        meta_methods={ex.SYNTHETIC: ex.FIG2_METHODS},
        reference="MLC-ListNet",
    )
    return dataclasses.replace(base, **changes)
