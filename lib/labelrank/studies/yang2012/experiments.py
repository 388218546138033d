r"""The experimental protocol of Yang & Gopal (2012, section 3.4): their methods, the full and quick profiles, the
comparisons the chapters show, and ``python -m labelrank.studies.yang2012.experiments``.

The engine (:mod:`labelrank.protocol`) runs any estimator on any data set; this module says what Yang & Gopal ran:
:data:`METHODS` (the nine columns of Tables 3-6, LightGBM included as our extra), :func:`protocol` (the
profiles), the staged-versus-full search, splitting-versus-non-splitting and LLSF-input comparisons, and
:data:`CHAPTER_EXTRAS`.
Importing it registers :func:`protocol` with the engine, so that ``results("full")`` and the engine's other
functions resolve a profile name; the engine's public functions are importable from here too, for the chapters.

The protocol (section 3.4), and where we depart from it
-------------------------------------------------------
* **Inputs.** *emotions* rescaled to unit variance per feature (each feature divided by its standard deviation on
  the training split; not centred); Reuters-21578 in "ltc" TF-IDF (:func:`labelrank.datasets.load` does that);
  *scene* and *yeast* as shipped; no feature selection.
* **Tuning.** Five-fold cross-validation on the training set (:class:`sklearn.model_selection.KFold`, shuffled
  with a fixed seed; no multi-label stratification). Tuned: the number of neighbours ``k`` in 10, 20, ..., 100
  (of the meta-level features, of ML-kNN and of IBLR-ML), the regularisation ``C`` over the 20 values
  ``numpy.logspace(-6, 6, 20)`` (of Binary-SVM, Rank-SVM, MLC-RankSVM-IR and MLC-SVM-MAP; the grid is *widened* by
  :attr:`Protocol.widen_points` values at the same spacing whenever the choice sits on its boundary), and the
  learning rate of MLC-ListNet, MLC-LambdaRank and LightGBM. The paper tunes "the regularization parameter in
  Ranking-MLC (if any) ... as well as the learning rate in Ranking-MLC (if any)": we read the "if any" as "the
  SVM rankers have a C, the gradient rankers a learning rate" and keep the gradient rankers' small L2 penalty at
  its default. 50 epochs for the gradient rankers.
* **Selection rule.** The paper tunes "with respect to a variety of metrics" (section 4.4). Every grid point is
  scored on all eight metrics in every fold (:func:`labelrank.metrics.evaluate`); the configuration of the
  *ranking* metrics (MAP, RankLoss, NDCG, One-error, Coverage) is the one with the best cross-validated MAP, and
  that of the *decision* metrics (Micro-F1, Macro-F1, Hamming loss) the one with the best cross-validated
  Micro-F1 (:attr:`Protocol.selection`; ties: the first in grid order, i.e. the smaller ``k``, ``C`` or learning
  rate). The model is refitted on the whole training set once per distinct chosen configuration (one or two per
  method and data set), and each metric is reported from the configuration chosen for it (the results table's
  ``tuned_on`` column).
* **Thresholds.** A method's own rule ("default": 0 for Binary-SVM, 0.5 for ML-kNN and IBLR-ML, Elisseeff &
  Weston's LLSF for Rank-SVM) or the instance-based regression of section 2.3 ("regression", the only rule of
  the meta-level rankers). Table 4's regression columns reuse the hyper-parameters tuned with the default rule, so
  that only the threshold changes.
* **Search.** ``search="full"`` evaluates the whole grid (the product of the axes; MLC-SVM-MAP's and
  MLC-RankSVM-IR's C values of one ``k`` and fold in one task, and Binary-SVM's of one fold, each fit
  warm-started from the previous C,
  :attr:`MethodSpec.warm_axis`, the same optimum up to the solver's tolerance; MLC-ListNet's and
  MLC-LambdaRank's learning rates of one ``k`` and fold trained together, and MLC-LightGBM's from one binning of
  the features, :attr:`MethodSpec.batch_axis`, the same numbers as one fit each;
  ``benchmarks/bench_protocol.py --compare`` measures these savings).
  ``search="staged"`` (the quick profile's choice, for time; :attr:`Protocol.staged_methods` names methods
  searched staged in a profile whose other methods have their full grids)
  tunes one axis at a time in the order of :attr:`MethodSpec.axes`: first ``k`` with the other axes at the middle of
  their grids, then ``C`` (or the learning rate) at the ``k`` chosen for each target metric. Along each axis it
  walks out from the middle of the grid and stops once :attr:`Protocol.patience` consecutive values on each side of
  every target's best are worse (or the grid ends; a ``C`` grid is widened instead). This skips the far ends of the
  grids, where the SVMs' large ``C`` values are the slowest fits. It assumes the cross-validated curves have one
  optimum along each axis; the chapter "Learning to rank categories" runs both searches on every data set and
  compares the choices (:func:`search_comparison`; the staged search walks over the full grid's values, so that
  only the search differs: :func:`staged_and_full`).
* **Meta-level features** are computed once per (data set, fold) for the largest ``k`` in float32
  (:class:`labelrank.features.MetaLevelFeatures`, the training part with self-exclusion), stored on disk and
  memory-mapped, and sliced for smaller ``k`` (:meth:`labelrank.features.NeighborDistances.features`).
  Fig. 2's conventional methods on meta-level features take the flattened vector
  :math:`z_i = (\phi(x_i, c_1), \dots, \phi(x_i, c_m))` (eq. 2) at ``k = Protocol.k_meta``, standardised with the
  training mean and standard deviation of each column.

Profiles
--------
``full``: the protocol above on emotions, scene, yeast and Reuters-21578 (citeseer is not publicly retrievable):
every method's full grid on all four (``search="full"``, MLC-LightGBM's, our extra column's, included), the
paper's protocol exactly on the first three, and two concessions to time on Reuters-21578, whose fits are by far
the slowest: cross-validation on a seeded random 2,000 of its 7,770 training documents
(:attr:`Protocol.tune_subsample`; the final models use all of them), and no Fig. 2 runs of the conventional methods
on its meta-level features (:attr:`Protocol.fig2_exclude`: one-vs-rest SVMs on the 2,880-dimensional dense
concatenation of eq. 2 take minutes per fold and label set).
``quick``: the same code paths on emotions and a subsample of yeast, three folds, tiny grids and the staged search;
it exists so that the notebooks can be tested in a few minutes and its numbers are not comparable with the paper's.

:func:`exact` turns a profile into the paper's protocol without the concessions: every axis on its full grid,
Reuters-21578 cross-validated on all its training documents, Fig. 2 on every data set (``--exact`` on the command
line). It is many CPU hours of work: the book's page "How the experiments run and what they cost" renders what
``benchmarks/bench_protocol.py`` measures.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from labelrank import datasets
from labelrank.metrics import evaluate
from labelrank.paths import cache_dir, unwritable_reason
from labelrank.protocol import (  # the engine's public functions, which the chapters call through this module
    ENGINE_VERSION,
    METRIC_NAMES,
    SYNTHETIC,
    ConvergenceCounter,
    MethodSpec,
    Protocol,
    RecordedRun,
    Representation,
    TuneResult,
    check_representation,
    code_version,
    concatenated_meta_features,
    default_protocol,
    final_fit_task,
    final_outputs,
    fit_ranker,
    fold_data,
    fold_indices,
    jobs,
    load_data,
    make_estimator,
    meta_features,
    n_jobs,
    params_key,
    rank_conflicts,
    rank_methods,
    rank_totals,
    register_protocols,
    results,
    run_calls,
    run_full_grids,
    run_info,
    staged_and_full,
    start_task,
    task_cache,
    threads_per_task,
    tune,
    tuning_rows,
    widen_grid,
)
from labelrank.studies.paper import beside_paper
from labelrank.studies.yang2012.configuration import FIG2_METHODS, METHODS, exact, fig2_datasets, protocol

_PROG = "python -m labelrank.studies.yang2012.experiments"

def search_comparison(dataset: str = "emotions", methods: Sequence[str] | None = None,
                      proto: Protocol | None = None, progress: bool = True) -> pd.DataFrame:
    """The staged search's choices beside the full grid's, method by method (cached like :func:`tune`;
    :func:`~labelrank.protocol.staged_and_full`: the staged search walks over the full grid's cross-validated
    values, so that the two differ only in the points they visit).

    Parameters
    ----------
    dataset : str
        A data set of the profile (the chapter uses all four, :data:`CHAPTER_EXTRAS`).
    methods : sequence of str, optional
        Keys of :data:`METHODS`; by default all of them but the data set's :attr:`Protocol.staged_methods` (whose
        full grid the profile finds too costly there): the four baselines (grids over ``C`` or ``k``), the
        gradient rankers and LightGBM (``k`` x learning rate) and the SVM rankers (``k`` x ``C``, each ``C`` axis
        one warm-started path; ``benchmarks/bench_protocol.py`` puts every method's full grid at about 0.13 CPU
        hours on emotions and 0.15 on scene, 0.53 on yeast).
    proto : Protocol, optional
    progress : bool

    Returns
    -------
    pandas.DataFrame
        One row per (method, target metric): ``dataset``, ``method``, ``target``, ``staged`` and ``full`` (the
        chosen parameters, JSON), ``same``, ``cv_staged`` and ``cv_full`` (the target's cross-validated mean at
        each choice), ``cv_full_at_staged`` (the full search's value at the staged choice: ``cv_staged``, or NaN
        where the staged search widened its grid beyond the full search's), ``points_staged`` and
        ``points_full`` (grid points evaluated).
    """
    proto = protocol() if proto is None else proto
    if methods is None:
        methods = tuple(m for m in proto.methods if m not in proto.staged_methods.get(dataset, ()))
    rows = []
    for method in methods:
        staged, full = staged_and_full(dataset, method, proto=proto, progress=progress)
        for target in proto.targets:
            a, b = staged.chosen[target], full.chosen[target]
            rows.append({
                "dataset": dataset, "method": method, "target": target,
                "staged": json.dumps(a, sort_keys=True), "full": json.dumps(b, sort_keys=True),
                "same": params_key(a) == params_key(b),
                "cv_staged": staged.cv_value(a, target), "cv_full": full.cv_value(b, target),
                "cv_full_at_staged": _cv_value_or_nan(full, a, target),
                "points_staged": len(staged.points), "points_full": len(full.points),
            })
    return pd.DataFrame(rows)


def _cv_value_or_nan(result: TuneResult, params: dict[str, Any], target: str) -> float:
    """``result.cv_value(params, target)``, or NaN where ``params`` is not a point ``result`` evaluated."""
    try:
        return result.cv_value(params, target)
    except KeyError:
        return float("nan")


def held_out_curve(dataset: str, method: str, features: Representation = "original",
                   proto: Protocol | None = None, progress: bool = True) -> pd.DataFrame:
    """The test-set value of every metric at every value of a one-parameter method's grid (cached).

    Not a tuning tool (the test set must not choose hyper-parameters): the chapters use it to find which grid
    value reproduces a number of the paper, e.g. the ``k`` behind each of the paper's ML-kNN cells.

    Returns
    -------
    pandas.DataFrame
        Index: the grid values of the method's only axis; columns: the eight metrics (default threshold rule).
    """
    proto = protocol() if proto is None else proto
    spec = proto.spec(method)
    if len(spec.axes) != 1:
        raise ValueError(f"method must have a single tuned parameter, got {method!r} with axes {spec.axes}")
    features = "meta" if spec.kind == "ranker" else features
    check_representation(method, features, proto)
    name, grid = spec.axes[0]
    values = proto.grids[grid]
    outs = run_calls(_held_out_curve_calls(dataset, method, features, proto),
                     f"{dataset} {method}: test values over the grid", progress)
    _, _, _, Y_test = load_data(dataset, proto)
    rows = {v: evaluate(Y_test, o["scores"], o["pred"]["default"]) for v, o in zip(values, outs)}
    return pd.DataFrame(rows).T.rename_axis(name)


def _held_out_curve_calls(dataset: str, method: str, features: str, proto: Protocol) -> list[tuple[Any, tuple]]:
    """The cached final fits of :func:`held_out_curve` (checked input), one per value of the method's axis."""
    name, grid = proto.spec(method).axes[0]
    cached = task_cache(final_fit_task, "final_fit")
    threads = threads_per_task(n_jobs())
    return [(cached, (dataset, proto.data_key(dataset), method, features, params_key({name: v}),
                      code_version(proto.spec(method)), proto, threads)) for v in proto.grids[grid]]


#: The fraction of a fold's training instances :func:`splitting_comparison` holds out for the threshold map.
_SECONDARY = 0.25


def _splitting_fold(dataset: str, data_key: tuple, method: str, params_key: tuple, fold: int, secondary: float,
                    version: str, proto: Protocol, threads: int) -> dict[str, dict[str, float]]:
    from labelrank.threshold import LLSFThreshold

    start_task(threads)
    X_fit, Y_fit, X_val, Y_val = fold_data(dataset, proto, fold)
    params = dict(params_key)
    out = {}
    # non-splitting: ranker and threshold on the same instances (the estimator's own LLSF)
    with ConvergenceCounter():
        est = make_estimator(method, params, "regression", proto).fit(X_fit, Y_fit)
    out["non-splitting"] = evaluate(Y_val, est.decision_function(X_val), est.predict(X_val))
    # splitting: the ranker on a primary part, the LLSF map on the scores of the secondary part
    rng = np.random.default_rng(proto.seed + 2 + fold)
    order = rng.permutation(Y_fit.shape[0])
    n_sec = int(round(secondary * Y_fit.shape[0]))
    sec, prim = np.sort(order[:n_sec]), np.sort(order[n_sec:])
    with ConvergenceCounter():
        est = make_estimator(method, params, "regression", proto).fit(X_fit[prim], Y_fit[prim])
    threshold = LLSFThreshold(rescale=True).fit(est.decision_function(X_fit[sec]), Y_fit[sec])
    scores = est.decision_function(X_val)
    out["splitting"] = evaluate(Y_val, scores, threshold.predict(scores))
    return out


def splitting_comparison(dataset: str, method: str = "MLC-ListNet", params: dict[str, Any] | None = None,
                         secondary: float = _SECONDARY, proto: Protocol | None = None,
                         progress: bool = True) -> pd.DataFrame:
    """Section 3.4's two ways to train the LLSF threshold, compared by cross-validation on the training set.

    *Non-splitting* (the paper's choice): the ranker and the threshold map are fitted on the same instances.
    *Splitting*: the ranker is fitted on a primary part of each fold's training instances (``1 - secondary``) and
    the threshold map on the ranker's scores of the secondary part. Both are scored on the fold's validation
    instances; the estimator works on the raw data (a :class:`~labelrank.MetaLevelRanker` computes its own
    meta-level features from the instances it is fitted on).

    Parameters
    ----------
    dataset, method : str
    params : dict, optional
        The hyper-parameters; by default those :func:`tune` chose for Micro-F1.
    secondary : float
        The fraction of each fold's training instances held out for the threshold map, in (0, 1).
    proto : Protocol, optional
    progress : bool

    Returns
    -------
    pandas.DataFrame
        Index: "non-splitting", "splitting"; columns: the eight metrics (means over the folds).
    """
    proto = protocol() if proto is None else proto
    return _fold_means(_splitting_calls(dataset, method, params, secondary, proto, progress),
                       f"{dataset} {method}: splitting vs non-splitting", progress)


def _splitting_calls(dataset: str, method: str, params: dict[str, Any] | None, secondary: float, proto: Protocol,
                     progress: bool) -> list[tuple[Any, tuple]]:
    """The cached calls of :func:`splitting_comparison` (its arguments checked, the default ``params`` tuned)."""
    if not 0.0 < float(secondary) < 1.0:
        raise ValueError(f"secondary must be a fraction in (0, 1), got {secondary!r}")
    if params is None:
        params = tune(dataset, method, proto=proto, progress=progress).chosen["Micro-F1"]
    return _fold_calls(_splitting_fold, "splitting_fold", dataset, method, params, (float(secondary),), proto)


def _fold_calls(func: Callable, name: str, dataset: str, method: str, params: dict[str, Any], extra: tuple,
                proto: Protocol) -> list[tuple[Any, tuple]]:
    """The cached calls ``func(dataset, data_key, method, params_key, fold, *extra, version, proto, threads)``,
    one per fold."""
    cached = task_cache(func, name)
    version = code_version(proto.spec(method))
    return [(cached, (dataset, proto.data_key(dataset), method, params_key(params), f, *extra, version, proto,
                      threads_per_task(n_jobs()))) for f in range(proto.n_folds)]


def _fold_means(calls: list[tuple[Any, tuple]], desc: str, progress: bool) -> pd.DataFrame:
    """Run :func:`_fold_calls`' ``calls``, each returning ``{variant: {metric: value}}``: the means over the folds,
    one row per variant."""
    folds = run_calls(calls, desc, progress)
    return pd.DataFrame({v: {m: float(np.nanmean([f[v][m] for f in folds])) for m in METRIC_NAMES}
                         for v in folds[0]}).T


def _llsf_inputs_fold(dataset: str, data_key: tuple, method: str, params_key: tuple, fold: int, version: str,
                      proto: Protocol, threads: int) -> dict[str, dict[str, float]]:
    from labelrank.threshold import LLSFThreshold

    start_task(threads)
    _, Y_fit, _, Y_val = fold_data(dataset, proto, fold)
    with ConvergenceCounter():
        est, Zf, Zv = fit_ranker(dataset, method, dict(params_key), fold, proto)
    train_scores, scores = est.decision_function_features(Zf), est.decision_function_features(Zv)
    out = {}
    for inputs in ("ranked", "labels"):
        for rescale in (True, False):
            threshold = LLSFThreshold(rescale=rescale, inputs=inputs).fit(train_scores, Y_fit)
            out[f"{inputs}, {'rescaled' if rescale else 'raw'}"] = evaluate(Y_val, scores, threshold.predict(scores))
    return out


def llsf_inputs_comparison(dataset: str, method: str = "MLC-ListNet", params: dict[str, Any] | None = None,
                           proto: Protocol | None = None, progress: bool = True) -> pd.DataFrame:
    """What the LLSF threshold map reads, compared by cross-validation on the training set (section 2.3).

    Section 2.3 maps "an arbitrary ranked list of categories" (a vector of system-scored categories) to a threshold,
    Elisseeff & Weston's method with one modification, scores "rescaled to sum to one". Four readings of one
    ranker's scores, each fitted on a fold's training instances (non-splitting) and scored on its validation
    instances: the map reads the score vector in category order (Elisseeff & Weston's input, the literal reading)
    or the scores sorted decreasingly (the library's default, our reading), rescaled or raw
    (:class:`labelrank.threshold.LLSFThreshold`). The test set is not used.

    Parameters
    ----------
    dataset : str
    method : str
        A meta-level ranker of :data:`METHODS`.
    params : dict, optional
        Its hyper-parameters; by default those :func:`tune` chose for MAP. The ranking-tuned configuration does
        not depend on the threshold rule, so it favours none of the four readings (the Micro-F1-tuned one was
        chosen with the library's default reading and would favour it).
    proto : Protocol, optional
    progress : bool

    Returns
    -------
    pandas.DataFrame
        Index: "ranked, rescaled", "ranked, raw", "labels, rescaled", "labels, raw"; columns: the eight metrics
        (means over the folds; the five ranking metrics are the same in every row).
    """
    proto = protocol() if proto is None else proto
    return _fold_means(_llsf_inputs_calls(dataset, method, params, proto, progress),
                       f"{dataset} {method}: LLSF inputs", progress)


def _llsf_inputs_calls(dataset: str, method: str, params: dict[str, Any] | None, proto: Protocol,
                       progress: bool) -> list[tuple[Any, tuple]]:
    """The cached calls of :func:`llsf_inputs_comparison` (``method`` checked, the default ``params`` tuned)."""
    if proto.spec(method).kind != "ranker":
        raise ValueError(f"method must be a meta-level ranker, got {method!r}")
    if params is None:
        params = tune(dataset, method, proto=proto, progress=progress).chosen["MAP"]
    return _fold_calls(_llsf_inputs_fold, "llsf_inputs_fold", dataset, method, params, (), proto)


#: What the chapters compute besides :func:`results`: the staged-versus-full comparison (on these data sets), the test
#: values of ML-kNN over its whole grid (every data set), the splitting-versus-non-splitting comparison (on these
#: (data set, method) pairs) and the LLSF inputs comparison (these rankers, every data set); and the approximate
#: neighbour search (:func:`labelrank.studies.yang2012.timing.approximate_search_plan`).
CHAPTER_EXTRAS: dict[str, Any] = {
    "search": ("emotions", "scene", "yeast", "reuters21578"),
    "curve": "ML-kNN",
    "splitting": (("emotions", "MLC-ListNet"), ("emotions", "RankSVM"), ("yeast", "MLC-ListNet"), ("yeast", "RankSVM")),
    "llsf_inputs": ("MLC-ListNet", "MLC-LambdaRank", "MLC-RankSVM-IR", "MLC-SVM-MAP"),
}


def _chapter_extra_calls(proto: Protocol, names: Sequence[str]) -> list[tuple[Any, tuple]]:
    """The cached calls of :data:`CHAPTER_EXTRAS`' splitting, test-value and LLSF-inputs comparisons on the data
    sets ``names``, with their default configurations (tuned: read from the cache after :func:`results`), the
    later data sets' first (a profile lists its larger data sets last).

    The experiments command runs them in one pool of tasks, from which the chapters' calls of the comparisons read
    their tables (``tests/studies/test_yang2012_experiments.py`` checks that these are the calls they make): run
    one comparison after another, each of the 24 would take a pool of its own, of five tasks or so on two workers,
    and a worker would wait at the end of each for the other's last task.
    """
    calls = []
    for dataset in reversed(tuple(names)):
        for d, method in CHAPTER_EXTRAS["splitting"]:
            if d == dataset:
                calls += _splitting_calls(dataset, method, None, _SECONDARY, proto, False)
        for method in CHAPTER_EXTRAS["llsf_inputs"]:
            calls += _llsf_inputs_calls(dataset, method, None, proto, False)
        calls += _held_out_curve_calls(dataset, CHAPTER_EXTRAS["curve"], "original", proto)
    return calls


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m labelrank.studies.yang2012.experiments [--profile quick|full] [--exact] [--datasets ...]``: run
    the protocol, print wall time and memory."""
    import argparse

    parser = argparse.ArgumentParser(prog=_PROG, description=main.__doc__)
    parser.add_argument("--profile", choices=("quick", "full"), default=None)
    parser.add_argument("--datasets", nargs="*", default=None, help="a subset of the profile's data sets")
    parser.add_argument("--exact", action="store_true",
                        help="the paper's protocol without the profile's concessions to time (exact()): full grids, "
                             "no cross-validation subsample, Fig. 2 on every data set: many CPU hours")
    args = parser.parse_args(argv)
    try:
        return _main(args)
    except (ValueError, datasets.ChecksumError, datasets.DataUnavailableError, FileNotFoundError) as exc:
        # bad input (an unknown data set, a damaged or missing data file, a bad setting): one line, exit code 2
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"{_PROG}: error: {message}", file=sys.stderr)
        return 2
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EROFS):
            raise
        # a full or read-only disk under the cache: every entry is written whole or not at all (the cache writes
        # a temporary file and renames it), so a re-run goes on from the entries already there
        print(f"{_PROG}: error: the experiment cache {cache_dir() / 'experiments'} cannot take more entries "
              f"({exc.strerror or exc}); free space or set LABELRANK_CACHE to a larger folder, then run again: "
              "the entries written so far are kept", file=sys.stderr)
        return 2


def _main(args: Any) -> int:
    # run through the imported module, not ``__main__``: joblib's workers unpickle functions by module name
    from labelrank.studies.yang2012 import experiments, timing

    t0 = time.time()
    proto = experiments.protocol(args.profile)
    if args.exact:
        proto = experiments.exact(proto)
    names = proto.datasets if args.datasets is None else tuple(args.datasets)
    unknown = [name for name in names if name not in proto.datasets]
    if unknown:
        raise ValueError(f"--datasets: {', '.join(map(repr, unknown))} not in the {proto.profile} profile's "
                         f"data sets {', '.join(proto.datasets)}")
    reason = unwritable_reason(cache_dir() / "experiments")
    if reason is not None:
        raise ValueError(f"the experiment cache {cache_dir() / 'experiments'} cannot be written ({reason}); set "
                         "LABELRANK_CACHE to a writable folder")
    with RecordedRun(proto, names, "everything the chapters compute"):
        # the chapter "Meta-level features": exact against approximate neighbour search, data sets side by side;
        # its tasks depend on nothing else and go first into the full grids' pool
        plan = timing.approximate_search_plan(proto.profile)
        searched = [dataset for dataset in plan if dataset in names]
        table = results(proto, datasets=names, also=timing.approximate_search_calls(searched))
        # the comparisons that take the tuned configurations, their tasks in one pool (the chapters read their
        # tables from the cache); then the search comparisons, whose staged searches walk over the full grids'
        # values (they fit points only beyond a widened C grid, each chosen from the last ones)
        run_calls(experiments._chapter_extra_calls(proto, names), "chapter extras", True)
        for dataset in experiments.CHAPTER_EXTRAS["search"]:
            if dataset in names:
                experiments.search_comparison(dataset, proto=proto)
    print(f"{len(table)} result rows in {time.time() - t0:.1f} s")
    runs = run_info(args.profile)["runs"]
    if runs:
        print(json.dumps(runs[-1], indent=1))
    return 0


register_protocols(protocol)  # the engine resolves "quick", "full" and None through the study's profiles

if __name__ == "__main__":  # pragma: no cover
    from labelrank.studies.yang2012.experiments import main as _main

    raise SystemExit(_main())
