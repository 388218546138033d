"""Data for the protocol: each data set loaded once (with the protocol's preparation and subsamples), the
cross-validation folds, and the meta-level features of every fold computed once for the largest ``k`` and cached."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from sklearn.model_selection import KFold

from labelrank import datasets
from labelrank.protocol.keys import task_cache, code_version
from labelrank.protocol.settings import PREPARATIONS, DataSource, Protocol, default_protocol, n_jobs

#: A small seeded problem (scikit-learn's ``make_multilabel_classification``) for tests and experiments with the
#: protocol itself: 150 training and 75 test instances, 12 features, 4 labels.
SYNTHETIC = "synthetic"


def _synthetic(seed: int):
    from sklearn.datasets import make_multilabel_classification

    X, Y = make_multilabel_classification(n_samples=225, n_features=12, n_classes=4, n_labels=2,
                                          allow_unlabeled=False, random_state=seed)
    X = X / X.std(axis=0).clip(min=1e-12)
    return X[:150], Y[:150], X[150:], Y[150:]


@lru_cache(maxsize=8)
def _load_data(dataset: str, subsample: tuple[int, int] | None, seed: int, steps: tuple[str, ...] = (),
               source: DataSource | None = None):
    if source is not None:
        X_train, Y_train, X_test, Y_test = source.load()
    elif dataset == SYNTHETIC:
        X_train, Y_train, X_test, Y_test = _synthetic(seed)
    else:
        X_train, Y_train, _ = datasets.load(dataset, "train")
        X_test, Y_test, _ = datasets.load(dataset, "test")
    if subsample is not None:
        rng = np.random.default_rng(seed)
        tr = np.sort(rng.choice(Y_train.shape[0], min(subsample[0], Y_train.shape[0]), replace=False))
        te = np.sort(rng.choice(Y_test.shape[0], min(subsample[1], Y_test.shape[0]), replace=False))
        X_train, Y_train, X_test, Y_test = X_train[tr], Y_train[tr], X_test[te], Y_test[te]
    for step in steps:
        X_train, X_test = PREPARATIONS[step](X_train, X_test)
    for arr in (X_train, Y_train, X_test, Y_test):
        if isinstance(arr, np.ndarray):
            arr.setflags(write=False)
    return X_train, np.asarray(Y_train, dtype=np.int64), X_test, np.asarray(Y_test, dtype=np.int64)


def load_data(dataset: str, proto: Protocol | None = None):
    """The training and test split of ``dataset`` as the protocol uses them.

    Parameters
    ----------
    dataset : str
        A data set of the protocol (:attr:`Protocol.datasets`).
    proto : Protocol, optional
        The protocol; the registered one of ``LABELRANK_PROFILE`` when None (:func:`default_protocol`).

    Returns
    -------
    X_train, Y_train, X_test, Y_test
        ``X`` dense or CSR (Reuters-21578); prepared by the steps of :attr:`Protocol.preparation`; a seeded random subsample where :attr:`Protocol.subsample` says so. ``Y`` int64 0/1. Arrays are read-only.
    """
    proto = default_protocol() if proto is None else proto
    if dataset not in proto.datasets:
        raise ValueError(f"dataset must be one of the {proto.profile} profile's {proto.datasets}, got {dataset!r}")
    return _load_data(dataset, proto.subsample.get(dataset), proto.seed,
                      tuple(proto.preparation.get(dataset, ())), proto.sources.get(dataset))


def fold_indices(n: int, n_folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(fit rows, validation rows) of each fold: :class:`~sklearn.model_selection.KFold`, shuffled with ``seed``.

    Parameters
    ----------
    n : int
        Rows to split.
    n_folds : int
    seed : int
        The shuffle's seed.
    """
    return list(KFold(n_splits=n_folds, shuffle=True, random_state=seed).split(np.zeros((n, 1))))


def fold_data(dataset: str, proto: Protocol, fold: int):
    """(X_fit, Y_fit, X_eval, Y_eval) of a cross-validation fold (0 .. n_folds-1), or of the training and test
    split for ``fold == -1``: the fold's fitting and validation rows of :func:`tuning_rows`, prepared as
    :func:`load_data` prepares them.

    Parameters
    ----------
    dataset : str
        A data set of the protocol (:attr:`Protocol.datasets`).
    proto : Protocol
        The protocol.
    fold : int
        A cross-validation fold, 0 .. ``n_folds - 1``, or -1 for the training and test split.
    """
    X_train, Y_train, X_test, Y_test = load_data(dataset, proto)
    if fold == -1:
        return X_train, Y_train, X_test, Y_test
    rows = tuning_rows(Y_train.shape[0], dataset, proto)
    fit, val = fold_indices(rows.size, proto.n_folds, proto.seed)[fold]
    fit, val = rows[fit], rows[val]
    return X_train[fit], Y_train[fit], X_train[val], Y_train[val]


def tuning_rows(n_train: int, dataset: str, proto: Protocol) -> np.ndarray:
    """The training rows the cross-validation uses: all, or a seeded random subset (``proto.tune_subsample``).

    Parameters
    ----------
    n_train : int
        Rows of the training split.
    dataset, proto
        As in :func:`fold_data`.
    """
    size = proto.tune_subsample.get(dataset)
    if size is None or size >= n_train:
        return np.arange(n_train)
    return np.sort(np.random.default_rng(proto.seed + 1).choice(n_train, size, replace=False))


def _meta_features_uncached(dataset: str, data_key: tuple, fold: int, proto: Protocol, version: str):
    from labelrank.features import MetaLevelFeatures

    X_fit, Y_fit, X_eval, _ = fold_data(dataset, proto, fold)
    kept = Y_fit.any(axis=0)
    mlf = MetaLevelFeatures(k=proto.k_max, dtype="float32", n_jobs=n_jobs() if n_jobs() > 0 else None)
    mlf.fit(X_fit, Y_fit[:, kept])
    return mlf.neighbor_distances().values, mlf.transform(X_eval), kept


def meta_features(dataset: str, fold: int, proto: Protocol | None = None):
    """Meta-level features of one fold at ``k = proto.k_max`` (float32), cached on disk and memory-mapped.

    Parameters
    ----------
    dataset : str
    fold : int
        A cross-validation fold (0 .. n_folds - 1) or -1 for the training/test split.
    proto : Protocol, optional

    Returns
    -------
    Z_fit : numpy.ndarray of shape (n_fit, n_kept, 3 k_max + 2)
        The fitting instances' features, each instance excluded from its own neighbours.
    Z_eval : numpy.ndarray of shape (n_eval, n_kept, 3 k_max + 2)
    kept : numpy.ndarray of bool, shape (n_labels,)
        The labels with a positive fitting instance (the others have no :math:`\\phi`).

    Slice a smaller ``k`` with ``NeighborDistances(Z, proto.k_max).features(k)``.
    """
    proto = default_protocol() if proto is None else proto
    check_fold(fold, proto)
    cached = task_cache(_meta_features_uncached, "meta_features", ignore=("proto",), mmap=True)
    return cached(dataset, proto.data_key(dataset), fold, proto, code_version())


def check_fold(fold: int, proto: Protocol) -> None:
    """A ValueError unless ``fold`` is an integer in -1 .. ``proto.n_folds - 1`` (-1: the training/test split).

    Parameters
    ----------
    fold, proto
        As in :func:`fold_data`.
    """
    if isinstance(fold, bool) or not isinstance(fold, (int, np.integer)) or not -1 <= fold < proto.n_folds:
        raise ValueError(f"fold must be an integer in -1 .. {proto.n_folds - 1}, got {fold!r}")


def concatenated_meta_features(Z_fit: np.ndarray, Z_eval: np.ndarray, k: int,
                               k_max: int) -> tuple[np.ndarray, np.ndarray]:
    """Fig. 2: eq. (2)'s concatenation of phi over the labels at ``k``, standardised with training statistics.

    ``Z_fit`` and ``Z_eval`` hold the features at ``k_max`` (shape (n, m, 3 k_max + 2)); the result is two
    dense matrices of shape (n, m (3 k + 2)) whose columns have the fitting part's mean 0 and standard deviation 1
    (a constant column is only centred).

    Parameters
    ----------
    Z_fit, Z_eval : numpy.ndarray of shape (n, m, 3 k_max + 2)
        Meta-level features of the fitting and the evaluation part.
    k : int
        The neighbours kept, at most ``k_max``.
    k_max : int
        The neighbours the features were computed for.
    """
    from labelrank.features import NeighborDistances

    A = np.asarray(NeighborDistances(Z_fit, k_max).features(k), dtype=np.float64).reshape(Z_fit.shape[0], -1)
    B = np.asarray(NeighborDistances(Z_eval, k_max).features(k), dtype=np.float64).reshape(Z_eval.shape[0], -1)
    mean, std = A.mean(axis=0), A.std(axis=0)
    std[std == 0] = 1.0
    return (A - mean) / std, (B - mean) / std
