"""Yang & Gopal's (2012) protocol as the engine's settings: the methods of Tables 3-6, the full and quick
profiles, Fig. 2's runs on meta-level features, the preparation of emotions, the reference of the significance
tests, and :func:`exact` (the paper's protocol without the profiles' concessions to time).

:mod:`labelrank.studies.yang2012.experiments` explains the protocol and runs it; this module only states it, as a
:class:`labelrank.protocol.Protocol`, so that the study's other modules (the timing of Table 2) can read the
profiles without the experiments command.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from labelrank.protocol import MethodSpec, Protocol
from labelrank.protocol.profile import get_profile

#: The methods of Tables 3-6, by the paper's names; "MLC-LightGBM" is our extra column of Table 6. A method's
#: ``version`` is part of its results' cache key: it is raised whenever a change of the method's code moves its
#: numbers, even in the last bits (tests/engine/test_protocol_golden.py fails until it is); git's history says what each
#: version changed.
METHODS: dict[str, MethodSpec] = {
    spec.name: spec
    for spec in (
        MethodSpec("MLC-ListNet", "ranker", "listnet", (("k", "k"), ("learning_rate", "lr")),
                   batch_axis="learning_rate"),
        MethodSpec("Binary-SVM", "baseline", "BinarySVM", (("C", "C"),), version=7, warm_axis="C"),
        MethodSpec("RankSVM", "baseline", "RankSVM", (("C", "C"),), version=9, warm_axis="C"),
        # distances on the features as given (after section 3.4's rescaling of emotions), not MULAN's default
        # min-max normalised ones: chapter "Learning to rank categories", section "Checked against MULAN"
        MethodSpec("IBLR", "baseline", "IBLRML", (("k", "k"),), version=4),
        MethodSpec("ML-kNN", "baseline", "MLkNN", (("k", "k"),)),
        MethodSpec("MLC-SVM-MAP", "ranker", "svmmap", (("k", "k"), ("C", "C")), version=6, warm_axis="C"),
        MethodSpec("MLC-RankSVM-IR", "ranker", "ranksvm", (("k", "k"), ("C", "C")), version=11, warm_axis="C"),
        MethodSpec("MLC-LambdaRank", "ranker", "lambdarank", (("k", "k"), ("learning_rate", "lr")), version=2,
                   batch_axis="learning_rate"),
        MethodSpec("MLC-LightGBM", "ranker", "lightgbm", (("k", "k"), ("learning_rate", "lgbm_lr")),
                   batch_axis="learning_rate"),
    )
}


#: The conventional methods that Fig. 2 also runs on meta-level features.
FIG2_METHODS: tuple[str, ...] = ("Binary-SVM", "RankSVM", "IBLR", "ML-kNN")

#: The data sets the full profile leaves out of Fig. 2's runs (one-vs-rest SVMs on Reuters-21578's
#: 2,880-dimensional dense concatenation of eq. 2 take minutes per fold and label set); :func:`exact` runs them.
FIG2_EXCLUDE: tuple[str, ...] = ("reuters21578",)

#: ``k`` of the meta-level features that Fig. 2's conventional methods read, concatenated over the labels (eq. 2;
#: the paper does not say which ``k``).
K_META = 10

#: Section 3.4: "each feature was rescaled to a unit variance representation" on emotions.
PREPARATION: dict[str, tuple[str, ...]] = {"emotions": ("unit_variance",)}

#: The method every other is tested against in Tables 3-6 (the paper's significance marks).
REFERENCE = "MLC-ListNet"


def _fig2(datasets: Sequence[str], proto: Protocol | None = None) -> dict[str, tuple[str, ...]]:
    """Fig. 2's runs on ``datasets``: the conventional methods on meta-level features (those among the methods of
    ``proto``, if given)."""
    methods = FIG2_METHODS if proto is None else tuple(m for m in FIG2_METHODS if m in proto.methods)
    return {dataset: methods for dataset in datasets} if methods else {}


def fig2_datasets(proto: Protocol) -> tuple[str, ...]:
    """The data sets of ``proto`` on which Fig. 2's conventional methods also run on meta-level features.

    Examples
    --------
    >>> fig2_datasets(protocol("full")), fig2_datasets(exact("full"))[-1]
    (('emotions', 'scene', 'yeast'), 'reuters21578')
    """
    return tuple(d for d in proto.datasets if proto.meta_methods.get(d))


def protocol(profile: str | None = None) -> Protocol:
    """Yang & Gopal's protocol under a profile (``LABELRANK_PROFILE`` when None; see :mod:`labelrank.protocol.profile`).

    Examples
    --------
    >>> p = protocol("full")
    >>> p.datasets, p.n_folds, len(p.grids["C"]), p.grids["k"][:3]
    (('emotions', 'scene', 'yeast', 'reuters21578'), 5, 20, (10, 20, 30))
    """
    profile = get_profile() if profile is None else profile
    if profile == "full":
        return Protocol(
            profile="full",
            datasets=("emotions", "scene", "yeast", "reuters21578"),
            n_folds=5,
            seed=0,
            search="full",
            patience=1,
            tune_subsample={"reuters21578": 2000},
            methods=METHODS,
            meta_k=K_META,
            meta_methods=_fig2(("emotions", "scene", "yeast")),  # Reuters-21578 left out: FIG2_EXCLUDE
            preparation=PREPARATION,
            reference=REFERENCE,
            grids={
                "k": tuple(range(10, 101, 10)),
                "C": tuple(float(c) for c in np.logspace(-6, 6, 20)),
                "lr": (1e-3, 3e-3, 1e-2, 3e-2, 1e-1),
                "lgbm_lr": (0.03, 0.1, 0.3),
            },
        )
    if profile == "quick":
        return Protocol(
            profile="quick",
            datasets=("emotions", "yeast"),
            n_folds=3,
            seed=0,
            grids={
                "k": (10, 20),
                "C": tuple(float(c) for c in np.logspace(-3, 0, 4)),
                "lr": (1e-2, 3e-2),
                "lgbm_lr": (0.1,),
            },
            subsample={"emotions": (300, 202), "yeast": (400, 300)},
            patience=1,
            widen_points=1,
            max_widen=1,
            methods=METHODS,
            meta_k=K_META,
            meta_methods=_fig2(("emotions", "yeast")),
            preparation=PREPARATION,
            reference=REFERENCE,
        )
    raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")


def exact(proto: Protocol | str | None = None) -> Protocol:
    """The paper's protocol exactly, under a profile's data sets, folds and grids: ``search="full"`` on every data
    set (the product of every method's grids), no cross-validation subsample (Reuters-21578 on all 7,770 training
    documents) and Fig. 2 on every data set. Its fits share the cache with the profile's wherever they are the same
    fits (the data key holds the subsample, so Reuters-21578's cross-validation fits are its own).

    Parameters
    ----------
    proto : Protocol or str, optional
        A protocol or a profile name (``LABELRANK_PROFILE`` when None).

    Returns
    -------
    Protocol

    Examples
    --------
    >>> p = exact("full")
    >>> p.search_for("reuters21578", "RankSVM"), p.tune_subsample, fig2_datasets(p) == p.datasets
    ('full', {}, True)
    """
    proto = protocol(proto) if proto is None or isinstance(proto, str) else proto
    return dataclasses.replace(proto, search="full", search_by_dataset={}, staged_methods={}, tune_subsample={},
                               meta_methods=_fig2(proto.datasets, proto))
