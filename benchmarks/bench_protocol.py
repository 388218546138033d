"""Where the time of Yang & Gopal's exact protocol goes: one fold, one configuration, one grid axis, per method.

For every data set and method of the full profile the script times, on cross-validation fold 0 of the exact
protocol (the whole training set; ``--profile-subsample`` for the profile's subsample) and in one thread:

* ``point``: one fit and evaluation (the best of two runs) at the middle of the method's grids (k = 50, C = the
  grid value nearest 1, learning rate 0.01, LightGBM's 0.1), the unit of work of the protocol's cross-validation;
* ``axis``: the same along the method's last tuned axis (the 20 values of C, the learning rates, or the 10 values
  of k), the other parameters at the middle, the fits that reach their iteration limit counted; as one path task
  where the full search fits that axis so (:attr:`MethodSpec.path_axis`).

From these it prints the CPU seconds, each method's cost relative to Binary-SVM's point measured in the same run
(a unit that does not depend on the machine), and what the exact protocol would cost: the axis time times the
number of values of the other axes, times the folds. ``--profile-top N`` adds cProfile's N most expensive functions
of the slowest point. ``--fig2`` times Fig. 2's runs the same way instead: the conventional methods among
``--methods`` on the concatenated meta-level features of eq. 2 (at ``Protocol.meta_k``; the exact protocol's Fig. 2
includes Reuters-21578, which the full profile leaves out). The meta-level features of a fold come from the
experiment cache (computed on first use and not timed: they are shared by every method and grid point).

Faster paths are timed beside the reference in the same run (``--compare``), with their ratio and a check that the
result is the same:

* MLC-RankSVM-IR's default solver, the augmented Lagrangian method (``solver="alm"``) with its working set of
  pairs and its sampled Hessian, against the same method on every pair in every step and (unless ``--no-dcd``)
  dual coordinate descent visiting the pairs in one random order per epoch or instance by instance, at C = 0.001,
  the middle C and C = 1000: time and primal objective;
* MLC-RankSVM-IR's C axis (k = 50) as point tasks and as the full search's warm-started path task (the pairs and
  rows built once, each C starting from the previous solution, :attr:`MethodSpec.warm_axis`), the path task also
  with its rows in float64 as before they were float32: time, MAP, choice;
* MLC-SVM-MAP's C axis (k = 50) as the full search's warm-started path task (each C starts from the previous one's
  working set, :attr:`MethodSpec.warm_axis`) with the working set's QP solved as before (``SMO warm path``:
  sequential minimal optimisation, at most 100,000 steps per QP, and the constraint from two passes over the
  features), as point tasks (``pruned``: each C cold; the staged search and the final fits), as the path task with
  the compiled active-set QP and the two passes (``two-pass warm path``) and with the constraint from one pass
  (``warm path``: per list its scores, its most violated ranking and its rows' weighted sum), the last also as
  refits of one ``warm_start=True`` estimator (``refit warm path``: the input checked, standardised and put in C
  order once per C, as the path did before) and with the QP's Cholesky factor computed from scratch at every
  step and its gradient over every coordinate (``fresh-factor warm path``, as before the factor was updated),
  with the convergence warnings of each (a fit whose certificate does not hold warns);
* Binary-SVM's C axis as point tasks with LIBLINEAR (the reference, ``solver="liblinear"``) and as the full
  search's warm path task with the augmented Lagrangian solver (where it is the default: dense features of at
  most 4,096 columns, sparse ones of at most 1,000): time, MAP, choice, the fits that stop at their iteration
  cap, and the largest relative excess of LIBLINEAR's primal objective over the ALM's certified one (fold 0's
  training part, every label and C); then on Fig. 2's meta-level features the ALM's warm path with its Newton
  systems always d x d (the reference), with the Woodbury form for bands of fewer pairs than columns (its
  default), and LIBLINEAR's point tasks; on more than 1,000 of them (Reuters-21578's, which the exact protocol's
  Fig. 2 uses), four labels at three values of C with LIBLINEAR and with the ALM (its default there), and the
  ALM's warm path over the C grid per label, from which the CPU hours of the exact protocol's Fig. 2 Binary-SVM;
* the C axis of Binary-SVM, RankSVM and MLC-RankSVM-IR where the augmented Lagrangian method solves them, as the
  full search's warm path task, against three references, each the default but for one change: Armijo's
  backtracking line search from step 1 instead of the exact line search along the Newton direction, each
  solve started from the previous weights alone instead of from them and the previous dual point (its pairs at
  the upper bound moved to the new bound), and every Newton system factored anew instead of the large ones
  updated from the last factor (Rank-SVM's everywhere): time, choice, largest MAP difference;
* RankSVM's C axis as point tasks with dual coordinate descent (the reference, ``solver="dcd"``) and as the full
  search's warm path task with the augmented Lagrangian solver (the default on at most 2,048 unknowns): time, MAP,
  choice, capped fits, and the largest relative excess of DCD's primal objective over the ALM's certified one;
  where dual coordinate descent is the default (more unknowns: Reuters-21578, yeast's Fig. 2 features), its path
  task against three references: every pair in one random order per epoch, each instance's pairs together
  (the instance's label scores kept along the visit) but each C from the dual point 0, and each C from the
  previous one's dual point scaled to it; now each C starts from that point or the one moved into the new box,
  whichever has the larger dual objective (``dual_path_starts``): time, MAP, choice, capped fits;
* MLC-LightGBM's ranker (k = 50, learning rate 0.1) with LightGBM's row-wise histograms and with the column-wise
  ones it uses: time and whether the scores are the same;
* IBLR's k axis with its logistic regressions on the dense standardised neighbour label frequencies and on the
  sparse frequencies themselves (``labelrank.logistic.standardised_fit``, the default where at most a quarter of
  them are nonzero): time and the largest difference of the test probabilities;
* MLC-ListNet's, MLC-LambdaRank's and MLC-LightGBM's learning-rate axis (k = 50) as one point task per rate and
  as the full search's batch task (every rate trained in one pass over the lists per epoch; LightGBM's features
  binned once, :attr:`MethodSpec.batch_axis`), whose numbers must be the point tasks', exactly; the gradient
  rankers' batch task also with their training steps as before (each parameter update by numpy expressions,
  ListNet's targets from every batch's labels), LightGBM's with its training scores predicted from its trees
  again (as before they were kept from the fit), the same numbers again.

Usage: python benchmarks/bench_protocol.py [--datasets emotions yeast scene] [--methods ...] [--no-axis]
                                           [--profile-top 15] [--compare [--no-dcd]] [--profile-subsample]
                                           [--fig2]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import dataclasses
import functools
import io
import os
import pstats
import sys
import time
import warnings
from unittest import mock

import numba
import numpy as np
from sklearn.base import clone
from threadpoolctl import threadpool_limits

os.environ.setdefault("LABELRANK_N_JOBS", "1")

import labelrank.baselines as baselines_module  # noqa: E402
import labelrank.baselines.knn as baselines_knn  # noqa: E402
from labelrank.baselines.svm import binary_svm_solver  # noqa: E402
import labelrank.rankers.pair_maps as pair_maps_module  # noqa: E402
import labelrank.rankers.gradient as gradient_module  # noqa: E402
import labelrank.rankers.pairwise_newton as pairwise_newton_module  # noqa: E402
import labelrank.rankers.simplex_qp as simplex_qp_module  # noqa: E402
import labelrank.rankers.svm as svm_module  # noqa: E402
from labelrank.metrics import average_precision  # noqa: E402
from labelrank.protocol import (  # noqa: E402
    concatenated_meta_features,
    cv_path_task,
    cv_point_task,
    fit_outputs,
    fold_data,
    make_estimator,
    meta_features,
    params_key,
    ranker_inputs,
)
from labelrank.rankers.boosting import LightGBMLambdaRank  # noqa: E402
from labelrank.rankers.losses import listnet_target  # noqa: E402
from labelrank.rankers.losses import log_softmax_rows  # noqa: E402
from labelrank.studies.performance import write_record  # noqa: E402
from labelrank.studies.yang2012 import experiments  # noqa: E402

MIDDLE = {"k": 50, "lr": 0.01, "lgbm_lr": 0.1}


def middle_params(spec, proto) -> dict:
    """The configuration of ``point``: k = 50, C nearest 1, the middle learning rates."""
    params = {}
    for name, grid in spec.axes:
        values = np.asarray(proto.grids[grid], dtype=float)
        target = MIDDLE.get(grid, 1.0)
        value = values[np.argmin(np.abs(np.log(values) - np.log(target)))]
        params[name] = int(value) if name == "k" else float(value)
    return params


def timed_fit(dataset, method, params, proto, profiler=None, features="original"):
    """CPU seconds of one fit and evaluation on fold 0, and whether it reached an iteration limit."""
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.process_time()
        if profiler is not None:
            profiler.enable()
        _, _, _, n_warnings = fit_outputs(dataset, method, features, params, ("regression",), 0, proto)
        if profiler is not None:
            profiler.disable()
        return time.process_time() - start, n_warnings > 0


def path_axis(dataset, method, params, axis, values, proto, features="original"):
    """CPU seconds of the full search's path task along ``axis`` on fold 0 (the other parameters at ``params``),
    and the number of its convergence warnings."""
    base = {name: value for name, value in params.items() if name != axis}
    if proto.methods[method].kind != "baseline":
        features = None  # a ranker's key leaves it out
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.process_time()
        out = cv_path_task(dataset, proto.data_key(dataset), method, params_key(base), axis, tuple(values), 0,
                                "bench", proto, 1, features)
        return time.process_time() - start, sum(o["n_warnings"] for o in out)


def best_of(repeat, dataset, method, params, proto, features="original") -> float:
    """The smallest of ``repeat`` timings of a point (the first run also loads compiled kernels and caches)."""
    return min(timed_fit(dataset, method, params, proto, features=features)[0] for _ in range(repeat))


def choice_of_c(proto, maps, ref_maps) -> str:
    """The C whose MAP is best, whether the reference chose the same one, and the largest MAP difference."""
    same = np.argmax(maps) == np.argmax(ref_maps)
    return (f"best C {proto.grids['C'][int(np.argmax(maps))]:.3g} ({'same' if same else 'DIFFERENT'} choice), "
            f"largest |MAP difference| {np.abs(maps - ref_maps).max():.2e}")


def c_axis(dataset, method, proto, path):
    """``method`` along the C grid at k = 50 on fold 0, as the engine's tasks compute it: one point task per C, or
    (``path``) the full search's warm-started path task (:attr:`MethodSpec.warm_axis`): (CPU s, MAP per C,
    convergence warnings)."""
    key, grid = proto.data_key(dataset), tuple(proto.grids["C"])
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.process_time()
        if path:
            out = cv_path_task(dataset, key, method, params_key({"k": 50}), "C", grid, 0, "bench", proto, 1)
        else:
            out = [cv_point_task(dataset, key, method, "original", params_key({"k": 50, "C": C}), 0, "bench",
                                      proto, 1) for C in grid]
        return time.process_time() - start, np.array([o["MAP"] for o in out]), sum(o["n_warnings"] for o in out)


@numba.njit(cache=True, nogil=True)
def _smo_qp(G, b, alpha, tol, max_iter):
    """SVM-MAP's working-set QP as it was solved before the active-set method (the reference): sequential minimal
    optimisation, each step on the maximal violating pair, at most ``max_iter`` steps."""
    T = b.shape[0]
    g = b - G @ alpha
    for _ in range(max_iter):
        i = 0
        for t in range(1, T):
            if g[t] > g[i]:
                i = t
        j = -1
        for t in range(T):
            if alpha[t] > 0.0 and (j < 0 or g[t] < g[j]):
                j = t
        if j < 0 or g[i] - g[j] <= tol:
            return
        eta = G[i, i] + G[j, j] - 2.0 * G[i, j]
        step = alpha[j]
        if eta > 0.0:
            step = min(step, (g[i] - g[j]) / eta)
        alpha[i] += step
        alpha[j] -= step
        for t in range(T):
            g[t] -= step * (G[t, i] - G[t, j])


def _smo_solver(G, b, alpha, total, tol):
    _smo_qp(np.ascontiguousarray(G), np.ascontiguousarray(b), alpha, float(tol), 100_000)
    return 0, True


@numba.njit(cache=True, nogil=True)
def _fresh_factor_qp(G, b, alpha, total, tol, max_iter):
    """The working set's QP as solved before its Cholesky factor was updated: the factor of every step's free block
    computed from scratch, the gradient ``b - G @ alpha`` over every coordinate at every step (the library's
    ``newton_step`` for the step itself)."""
    free = alpha > 0
    at_maximiser = False
    for it in range(max_iter):
        g = b - G @ alpha
        F = np.flatnonzero(free)
        gF = g[F]
        if at_maximiser or gF.max() - gF.min() <= tol:
            best, entering = -np.inf, -1
            for t in range(g.shape[0]):
                if not free[t] and g[t] > best:
                    best, entering = g[t], t
            if entering < 0 or best - gF.mean() <= tol:
                return it
            free[entering] = True
            at_maximiser = False
            continue
        L = np.empty((F.shape[0], F.shape[0]))
        p, newton, _ = simplex_qp_module.newton_step(G, g, F, L, simplex_qp_module.cholesky_factor(L, G, F, F.shape[0]), tol)
        s, block = (1.0 if newton else np.inf), -1
        for a in range(F.shape[0]):
            if p[a] < 0 and alpha[F[a]] / -p[a] < s:
                s, block = alpha[F[a]] / -p[a], a
        if not np.isfinite(s):
            return it
        for a in range(F.shape[0]):
            alpha[F[a]] = max(alpha[F[a]] + s * p[a], 0.0)
        if block >= 0:
            alpha[F[block]] = 0.0
            free[F[block]] = False
        at_maximiser = block < 0
        alpha *= total / alpha.sum()
    return max_iter


def _fresh_factor_solver(G, b, alpha, total, tol):
    n_iter = _fresh_factor_qp(np.ascontiguousarray(G), np.ascontiguousarray(b), alpha, float(total), float(tol),
                              10 * b.shape[0] + 100)
    return n_iter, True


def _two_passes(Z, Y, w):
    """SVM-MAP's constraint as it was computed before its one-pass kernel: the scores (a pass over Z in Z's dtype),
    the inference on all lists, then the weighted sum of the rows (a second pass)."""
    n, m, d = Z.shape
    F = Z.reshape(-1, d)
    _, coef, loss = svm_module.ap_loss_augmented_inference((F @ w.astype(Z.dtype)).reshape(n, m), Y)
    return coef.reshape(-1).astype(Z.dtype) @ F, float(loss.sum())


def _refit_path(self, Z, Y, values):
    """SVM-MAP's path as it was before it prepared its input once: each C a refit with ``warm_start=True``."""
    fitted, previous = [], None
    for C in values:
        est = clone(self).set_params(C=C, warm_start=True)
        if previous is not None:
            est._take_warm_start(previous)
        fitted.append(est.fit(Z, Y))
        previous = est
    return fitted


def svmmap_axis(dataset, proto, variant):
    """MLC-SVM-MAP along the C grid at k = 50 on fold 0 as the warm path task with the working set's QP solved by
    sequential minimal optimisation (``"SMO warm path"``, the code before the active-set QP, and before the
    one-pass constraint), with the constraint from two passes over the features (``"two-pass warm path"``, the
    code before the one-pass kernel), with the QP's factor computed afresh at every step
    (``"fresh-factor warm path"``, the code before its updates), as point tasks (``"pruned"``) or as the warm path
    task: (CPU s, MAP per C, convergence warnings)."""
    solver, constraint = svm_module.solve_simplex_qp, svm_module._most_violated_constraint
    path_method = svm_module.SVMMAP._path
    if variant in ("SMO warm path", "two-pass warm path", "refit warm path"):
        svm_module.SVMMAP._path = _refit_path
    if variant == "SMO warm path":
        svm_module.solve_simplex_qp = _smo_solver
    if variant == "fresh-factor warm path":
        svm_module.solve_simplex_qp = _fresh_factor_solver
    if variant in ("SMO warm path", "two-pass warm path"):
        svm_module._most_violated_constraint = _two_passes
    try:
        return c_axis(dataset, "MLC-SVM-MAP", proto, path=variant != "pruned")
    finally:
        svm_module.solve_simplex_qp, svm_module._most_violated_constraint = solver, constraint
        svm_module.SVMMAP._path = path_method


def ranksvm_ir_fit(dataset, proto, C, solver, order="auto"):
    """One MLC-RankSVM-IR fit at k = 50 on fold 0 with ``solver`` ("alm", "alm all pairs" or "dcd"); for "dcd"
    the pairs visited in one random order per epoch ("random"), instance by instance ("grouped") or as RankSVMIR
    chooses by the size of the data ("auto"); "alm all pairs" is the augmented Lagrangian method as it was before
    its working set and sampled Hessian (every Newton step on every pair): (CPU seconds, the fitted ranker)."""
    Y_fit, _, Zf, _ = ranker_inputs(dataset, 50, 0, proto)
    threshold, alm = svm_module._GROUP_PAIRS_ABOVE, svm_module.fit_pairwise_hinge_alm
    sample = pair_maps_module.GRAM_SAMPLE
    if order != "auto":
        svm_module._GROUP_PAIRS_ABOVE = np.inf if order == "random" else -1
    if solver == "alm all pairs":
        solver = "alm"
        svm_module.fit_pairwise_hinge_alm = functools.partial(alm, shrinking=False)
        pair_maps_module.GRAM_SAMPLE = np.iinfo(np.int64).max
    try:
        with threadpool_limits(1), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            start = time.process_time()
            est = make_estimator("MLC-RankSVM-IR", {"k": 50, "C": C}, "regression", proto)
            est.set_params(ranker_params={"solver": solver})
            est.fit_features(Zf, Y_fit)
            return time.process_time() - start, est.ranker_
    finally:
        svm_module._GROUP_PAIRS_ABOVE, svm_module.fit_pairwise_hinge_alm = threshold, alm
        pair_maps_module.GRAM_SAMPLE = sample


def compare(dataset, proto, methods, dcd=True) -> None:
    """The faster paths beside the reference, with ratios and the choice of C they lead to."""
    if "Binary-SVM" in methods:
        compare_binary_svm(dataset, proto)
    if "RankSVM" in methods:
        compare_rank_svm(dataset, proto)
    if "MLC-RankSVM-IR" in methods:
        compare_ranksvm_ir(dataset, proto, dcd)
        compare_ranksvm_ir_path(dataset, proto)
    if "MLC-SVM-MAP" in methods:
        compare_svmmap(dataset, proto)
    compare_alm_paths(dataset, proto, methods)
    for method in ("MLC-ListNet", "MLC-LambdaRank", "MLC-LightGBM"):
        if method in methods:
            compare_learning_rates(dataset, method, proto)
    if "MLC-LightGBM" in methods:
        compare_lightgbm(dataset, proto)
    if "IBLR" in methods:
        compare_iblr(dataset, proto)


def learning_rate_grid(method, proto) -> tuple:
    """The method's learning-rate grid ("lr" for the gradient rankers, "lgbm_lr" for LightGBM)."""
    return tuple(proto.grids[dict(proto.methods[method].axes)["learning_rate"]])


def learning_rate_axis(dataset, method, proto, batched):
    """The learning-rate axis at k = 50 on fold 0 as point tasks or as the batch task: (CPU s, results)."""
    key, grid = proto.data_key(dataset), learning_rate_grid(method, proto)
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.process_time()
        if batched:
            out = cv_path_task(dataset, key, method, params_key({"k": 50}), "learning_rate", grid, 0, "bench",
                                    proto, 1)
        else:
            out = [cv_point_task(dataset, key, method, "original", params_key({"k": 50, "learning_rate": lr}),
                                      0, "bench", proto, 1) for lr in grid]
        return time.process_time() - start, out


def _numpy_update(p, g, m1, m2, lr, decay, adam, bias1, bias2):
    """The gradient rankers' step as it was before its compiled kernel: numpy expressions on whole arrays."""
    if decay:
        g = g + decay * p
    if adam:
        m1[:] = 0.9 * m1 + (1 - 0.9) * g
        m2[:] = 0.999 * m2 + (1 - 0.999) * g * g
        step = lr * (m1 / bias1) / (np.sqrt(m2 / bias2) + 1e-8)
    else:
        step = lr * g
    p -= step


def _listnet_gradient_from_labels(self, S, Y):
    """ListNet's gradient as it was before its targets were computed once per fit: from the batch's labels."""
    P = listnet_target(Y, self.target)[0]
    logp = log_softmax_rows(S)
    return np.exp(logp) - P, -(P * logp).sum(axis=1)


@contextlib.contextmanager
def steps_as_before():
    """The gradient rankers' training steps as before (the reference): each step's parameter update by numpy
    expressions, and the targets taken from the labels of every batch, for every learning rate (ListNet's top-one
    distributions computed there, LambdaRank's labels turned into booleans there)."""
    with mock.patch.object(gradient_module, "_update", _numpy_update), \
            mock.patch.object(gradient_module.ListNet, "_targets", lambda self, Y: Y), \
            mock.patch.object(gradient_module.LambdaRank, "_targets", lambda self, Y: Y), \
            mock.patch.object(gradient_module.ListNet, "_list_gradient", _listnet_gradient_from_labels):
        yield


@contextlib.contextmanager
def training_scores_predicted():
    """LightGBM's training scores, on which MetaLevelRanker fits its threshold, predicted from the trees again
    (the reference), as before they were kept from the fit."""
    with mock.patch.object(LightGBMLambdaRank, "_training_scores", lambda self, Z: self.decision_function(Z)):
        yield


def compare_learning_rates(dataset, method, proto) -> None:
    """A gradient ranker's or LightGBM's learning rates fitted one by one (the reference) and together (LightGBM:
    the features binned once); the same numbers. For the gradient rankers, the batch task also with their steps
    as before (``steps_as_before``): the same numbers again."""
    print(f"-- {dataset}: {method}, learning-rate axis x{len(learning_rate_grid(method, proto))} at k = 50, fold 0")
    reference, ref_out = learning_rate_axis(dataset, method, proto, batched=False)
    seconds, out = learning_rate_axis(dataset, method, proto, batched=True)
    metrics = [m for m in ref_out[0] if m not in ("n_warnings", "seconds", "cpu_seconds")]

    def verdict(outputs):
        same = all(a[m] == b[m] for a, b in zip(outputs, ref_out) for m in metrics)
        return "the same numbers" if same else "DIFFERENT numbers"

    print(f"   one fit per rate {reference:8.2f} CPU s   together {seconds:8.2f} CPU s   speed-up "
          f"x{reference / seconds:5.1f}   {verdict(out)}", flush=True)
    if method != "MLC-LightGBM":
        with steps_as_before():
            before, out_before = learning_rate_axis(dataset, method, proto, batched=True)
        print(f"   together, steps as before {before:8.2f} CPU s   compiled step, targets once: x"
              f"{before / seconds:5.2f}   {verdict(out_before)}", flush=True)
    else:
        with training_scores_predicted():
            before, out_before = learning_rate_axis(dataset, method, proto, batched=True)
        print(f"   together, training scores predicted {before:8.2f} CPU s   kept from the fit: x"
              f"{before / seconds:5.2f}   {verdict(out_before)}", flush=True)


def compare_ranksvm_ir(dataset, proto, dcd=True) -> None:
    """RankSVM-IR's solvers: the augmented Lagrangian method with a working set (the default) against the same
    method on every pair in every step and, with ``dcd``, against dual coordinate descent (its faster pair order):
    time and primal objective (lower is better; the ALM's is certified within 1e-6 of the optimum), at a small,
    the middle and a large C."""
    print(f"-- {dataset}: MLC-RankSVM-IR at k = 50, fold 0: the solvers' CPU s and primal objectives")
    for solver, order in (("dcd", "random"), ("dcd", "grouped"), ("alm", "auto")):  # load the compiled kernels
        ranksvm_ir_fit(dataset, proto, 1e-3, solver, order)
    for C in (1e-3, middle_params(proto.methods["MLC-RankSVM-IR"], proto)["C"], 1e3):
        t_alm, alm = ranksvm_ir_fit(dataset, proto, C, "alm")
        t_all, every = ranksvm_ir_fit(dataset, proto, C, "alm all pairs")
        print(f"   C = {C:.3g}: alm {t_alm:7.2f} CPU s ({alm.n_iter_} Newton steps, primal "
              f"{alm.primal_objective_:.8g}, relative gap {alm.primal_objective_ / alm.dual_objective_ - 1:.1e}); "
              f"on all pairs {t_all:7.2f} CPU s ({every.n_iter_} steps, primal {every.primal_objective_:.8g}): "
              f"speed-up x{t_all / t_alm:.1f}", flush=True)
        if not dcd:
            continue
        (t_random, random), (t_grouped, grouped) = (ranksvm_ir_fit(dataset, proto, C, "dcd", o)
                                                    for o in ("random", "grouped"))
        t_dcd, fast = min((t_random, random), (t_grouped, grouped), key=lambda r: r[0])
        print(f"   C = {C:.3g}: dcd random {t_random:7.2f} CPU s ({random.n_iter_} epochs), grouped "
              f"{t_grouped:7.2f} CPU s ({grouped.n_iter_} epochs); the faster one's primal "
              f"{'above' if fast.primal_objective_ > alm.primal_objective_ else 'BELOW'} alm's by "
              f"{abs(fast.primal_objective_ - alm.primal_objective_) / alm.primal_objective_:.1e} (relative): "
              f"alm's speed-up x{t_dcd / t_alm:.1f}", flush=True)


@contextlib.contextmanager
def float64_rows():
    """RankSVM-IR's standardised rows in float64 whatever the features' type, as before its float32 rows (the
    solver's products with them then go to BLAS)."""
    pair_rows = svm_module.RankSVMIR._pair_rows

    def as_float64(self, Z, Y):
        return pair_rows(self, Z.astype(np.float64), Y)

    svm_module.RankSVMIR._pair_rows = as_float64
    try:
        yield
    finally:
        svm_module.RankSVMIR._pair_rows = pair_rows


def compare_ranksvm_ir_path(dataset, proto) -> None:
    """RankSVM-IR's C axis as point tasks (the reference), as the full search's warm path task with float64 rows
    (the code before its float32 rows) and as the warm path task."""
    print(f"-- {dataset}: MLC-RankSVM-IR, C axis x{len(proto.grids['C'])} at k = 50, fold 0")
    reference, ref_maps, _ = c_axis(dataset, "MLC-RankSVM-IR", proto, path=False)
    with float64_rows():
        wide, wide_maps, _ = c_axis(dataset, "MLC-RankSVM-IR", proto, path=True)
    seconds, maps, _ = c_axis(dataset, "MLC-RankSVM-IR", proto, path=True)
    print(f"   point tasks {reference:8.2f} CPU s   warm path {seconds:8.2f} CPU s   speed-up x{reference / seconds:5.1f}"
          f"   {choice_of_c(proto, maps, ref_maps)}", flush=True)
    print(f"   warm path with float64 rows {wide:8.2f} CPU s, with float32 rows {seconds:8.2f} CPU s   speed-up "
          f"x{wide / seconds:5.2f}   {choice_of_c(proto, maps, wide_maps)}", flush=True)


@contextlib.contextmanager
def newton_systems(woodbury: bool):
    """The augmented Lagrangian method's Newton directions as it computes them (``woodbury``: through the
    Woodbury identity's small system where the band has fewer pairs than columns) or, as before that, always
    through the d x d system."""
    limit = pair_maps_module.WOODBURY_UP_TO
    if not woodbury:
        pair_maps_module.WOODBURY_UP_TO = -1.0
    try:
        yield
    finally:
        pair_maps_module.WOODBURY_UP_TO = limit


@contextlib.contextmanager
def backtracking_line_search():
    """The augmented Lagrangian method's Newton steps as before their exact length: Armijo's backtracking from
    step 1."""
    step = pairwise_newton_module._exact_step
    pairwise_newton_module._exact_step = lambda *args: 1.0
    try:
        yield
    finally:
        pairwise_newton_module._exact_step = step


@contextlib.contextmanager
def start_from_weights_only():
    """The augmented Lagrangian method's C path as before its solves started from the previous dual point as
    well: from the previous weights and a zero multiplier."""
    alm = pairwise_newton_module._alm
    pairwise_newton_module._alm = lambda *args: alm(*args[:6])
    try:
        yield
    finally:
        pairwise_newton_module._alm = alm


@contextlib.contextmanager
def factor_every_system():
    """The augmented Lagrangian method's Newton systems as before their low-rank updates: each factored anew."""
    from_dim = pair_maps_module.UPDATE_FROM_DIM
    pair_maps_module.UPDATE_FROM_DIM = np.iinfo(np.int64).max
    try:
        yield
    finally:
        pair_maps_module.UPDATE_FROM_DIM = from_dim


#: What each change to the augmented Lagrangian method's C path was measured against: (the reference's name, the
#: default's name, the context that puts the reference back); each reference is the default but for that change.
ALM_PATH_CHANGES = {
    "line search": ("backtracking", "exact steps", backtracking_line_search),
    "start": ("weights", "weights + dual point", start_from_weights_only),
    "Newton systems": ("factored", "updated", factor_every_system),
}


def compare_alm_paths(dataset, proto, methods) -> None:
    """The C axis of each method that the augmented Lagrangian method solves, as the full search's warm path task,
    with each of :data:`ALM_PATH_CHANGES` undone (the reference) and as it is: time, choice of C, largest MAP
    change."""
    from labelrank.baselines import RANK_SVM_ALM_MAX_UNKNOWNS

    X, Y, _, _ = fold_data(dataset, proto, 0)
    alm = {"Binary-SVM": binary_svm_solver(X) == "alm",
           "RankSVM": Y.shape[1] * (X.shape[1] + 1) <= RANK_SVM_ALM_MAX_UNKNOWNS, "MLC-RankSVM-IR": True}
    for method in [m for m in alm if m in methods and alm[m]]:
        axis = functools.partial(c_axis, dataset, method, proto, True) if method == "MLC-RankSVM-IR" else \
            functools.partial(svm_axis, dataset, proto, "alm", method=method)
        for change, (reference_name, name, undone) in ALM_PATH_CHANGES.items():
            with undone():
                reference, ref_maps, _ = axis()
            seconds, maps, _ = axis()
            print(f"-- {dataset}: {method}, C axis x{len(proto.grids['C'])}{' at k = 50' * (method[:3] == 'MLC')}, "
                  f"fold 0, warm path, {change}: {reference_name} {reference:8.2f} CPU s   {name} {seconds:8.2f} "
                  f"CPU s   speed-up x{reference / seconds:5.2f}   {choice_of_c(proto, maps, ref_maps)}", flush=True)


def svm_axis(dataset, proto, solver, features="original", woodbury=True, method="Binary-SVM"):
    """Binary-SVM's or RankSVM's C axis on fold 0 as the engine runs it, on the original or (``features="meta"``)
    Fig. 2's meta-level features: the reference solver (LIBLINEAR, dual coordinate descent) as point tasks, the ALM
    as the warm path task (``woodbury=False``: its Newton directions always from d x d systems): (CPU s, MAP per
    C, convergence warnings)."""
    key, grid = proto.data_key(dataset), tuple(proto.grids["C"])
    spec = proto.methods[method]
    if solver != "alm":
        spec = dataclasses.replace(spec, fixed=(("solver", solver),), warm_axis=None)
    p = dataclasses.replace(proto, methods={**proto.methods, method: spec})
    if features == "meta":
        meta_features(dataset, 0, p)  # computed or read from the cache here: not timed
    with threadpool_limits(1), warnings.catch_warnings(), newton_systems(woodbury):
        warnings.simplefilter("ignore")
        start = time.process_time()
        if solver != "alm":
            out = [cv_point_task(dataset, key, method, features, params_key({"C": C}), 0, "bench", p, 1)
                   for C in grid]
        else:
            out = cv_path_task(dataset, key, method, (), "C", grid, 0, "bench", p, 1, features)
        return time.process_time() - start, np.array([o["MAP"] for o in out]), sum(o["n_warnings"] for o in out)


def rank_svm_primal_excess(dataset, proto) -> float:
    """The largest relative excess of dual coordinate descent's Rank-SVM objective over the ALM's along the C grid
    (fold 0's training part)."""
    from labelrank.baselines import RankSVM
    from labelrank.rankers.pairwise_svm import rank_svm_pairs

    X, Y, _, _ = fold_data(dataset, proto, 0)
    X, Y = (X.toarray() if hasattr(X, "toarray") else np.asarray(X)), np.asarray(Y)
    inst, rel, irr = rank_svm_pairs(Y)
    n_rel = Y.sum(axis=1)
    weight = 1.0 / (n_rel[inst] * (Y.shape[1] - n_rel[inst]))
    grid = list(proto.grids["C"])

    def primal(model, C):  # 1/2 ||(W, b)||^2 + C sum_p weight_p hinge_p
        S = X @ model.coef_.T + model.intercept_
        hinge = np.maximum(0.0, 1.0 - (S[inst, rel] - S[inst, irr]))
        return 0.5 * ((model.coef_**2).sum() + (model.intercept_**2).sum()) + C * float(weight @ hinge)

    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        alm = RankSVM(solver="alm").fit_path(X, Y, "C", grid)
        dcd = RankSVM(solver="dcd").fit_path(X, Y, "C", grid)
    return max((primal(b, C) - primal(a, C)) / max(1.0, primal(a, C)) for C, a, b in zip(grid, alm, dcd))


def compare_rank_svm(dataset, proto) -> None:
    """RankSVM's C axis: dual coordinate descent's point tasks (the reference) against the ALM's warm path task
    where the ALM is the default; where dual coordinate descent is (Fig. 2's meta-level features of yeast,
    Reuters-21578), its pairs visited instance by instance with the instance's scores kept along the visit against
    the pairs in one random order per epoch (the reference, before)."""
    from labelrank.baselines import RANK_SVM_ALM_MAX_UNKNOWNS

    X, Y, _, _ = fold_data(dataset, proto, 0)
    if Y.shape[1] * (X.shape[1] + 1) <= RANK_SVM_ALM_MAX_UNKNOWNS:
        compare_c_axis(dataset, proto, "RankSVM", "dcd", "DCD", rank_svm_primal_excess)
    else:
        compare_rank_svm_dcd(dataset, proto, "original")
    if dataset in experiments.fig2_datasets(proto):
        X_meta, _ = concatenated_meta_features(*meta_features(dataset, 0, proto)[:2], proto.meta_k, proto.k_max)
        if Y.shape[1] * (X_meta.shape[1] + 1) > RANK_SVM_ALM_MAX_UNKNOWNS:
            compare_rank_svm_dcd(dataset, proto, "meta")


@contextlib.contextmanager
def dcd_without(argument):
    """Dual coordinate descent as RankSVM called it before it passed ``argument``: the argument dropped."""
    import labelrank.rankers.pairwise_svm as pairwise_svm_module

    fit = pairwise_svm_module.fit_pairwise_hinge

    def call(*args, **kwargs):
        kwargs.pop(argument, None)
        return fit(*args, **kwargs)

    pairwise_svm_module.fit_pairwise_hinge = call
    try:
        yield
    finally:
        pairwise_svm_module.fit_pairwise_hinge = fit


def one_random_order():
    """Every pair in one random order per epoch (no groups, so the pair-by-pair epochs of _cd_epoch)."""
    return dcd_without("groups")


def cold_dcd_starts():
    """Along RankSVM's C path, every C from the dual point 0 (no alpha_init)."""
    return dcd_without("alpha_init")


@contextlib.contextmanager
def scaled_dcd_starts():
    """Along RankSVM's C path, every C from the previous dual point scaled to it alone (the start before
    dual_path_starts also offered the point moved into the new box)."""
    import labelrank.rankers.pairwise_svm as pairwise_svm_module

    starts = pairwise_svm_module.dual_path_starts
    pairwise_svm_module.dual_path_starts = lambda *args: starts(*args)[1]
    try:
        yield
    finally:
        pairwise_svm_module.dual_path_starts = starts


def compare_rank_svm_dcd(dataset, proto, features) -> None:
    """RankSVM's C path task with dual coordinate descent: one random order, then each instance's pairs together
    (_cd_epoch_rows) but every C from 0, then each C from the previous dual point scaled to it, against each
    instance's pairs together, each C from the previous dual point moved or scaled into its box, whichever has the
    larger dual objective (dual_path_starts): CPU s, capped fits, choice of C."""
    for before, name in ((one_random_order, "one random order"), (cold_dcd_starts, "each C from 0"),
                         (scaled_dcd_starts, "each C from the scaled point")):
        _compare_rank_svm_dcd(dataset, proto, features, before, name)


def _compare_rank_svm_dcd(dataset, proto, features, before, name) -> None:
    key, grid = proto.data_key(dataset), tuple(proto.grids["C"])
    runs = []
    for context in (before, contextlib.nullcontext):
        with threadpool_limits(1), warnings.catch_warnings(), context():
            warnings.simplefilter("ignore")
            start = time.process_time()
            out = cv_path_task(dataset, key, "RankSVM", (), "C", grid, 0, "bench", proto, 1, features)
            runs.append((time.process_time() - start, np.array([o["MAP"] for o in out]),
                         sum(o["n_warnings"] for o in out)))
    (reference, ref_maps, ref_capped), (seconds, maps, capped) = runs
    print(f"-- {dataset}: RankSVM on the {features} features, C axis x{len(grid)}, fold 0, dual coordinate "
          f"descent: {name} {reference:8.2f} CPU s   now {seconds:8.2f} CPU s   speed-up x{reference / seconds:5.2f}"
          f"   {choice_of_c(proto, maps, ref_maps)}; "
          f"at the epoch cap: {ref_capped} warning(s) before, {capped} now", flush=True)


def compare_c_axis(dataset, proto, method, solver, name, primal_excess) -> None:
    """A method's C axis: the reference ``solver``'s point tasks against the ALM's warm path task, with the largest
    relative excess of the reference's primal objective over the ALM's certified one (``primal_excess``)."""
    print(f"-- {dataset}: {method}, C axis x{len(proto.grids['C'])}, fold 0")
    reference, ref_maps, ref_warnings = svm_axis(dataset, proto, solver, method=method)
    seconds, maps, n_warnings = svm_axis(dataset, proto, "alm", method=method)
    print(f"   {name} points {reference:8.2f} CPU s ({ref_warnings} capped)   ALM warm path {seconds:8.2f} CPU s "
          f"({n_warnings} capped)   speed-up x{reference / seconds:5.1f}   {choice_of_c(proto, maps, ref_maps)}; "
          f"{name}'s primal objective above the optimum by up to {primal_excess(dataset, proto):.3g} (relative)",
          flush=True)


def binary_svm_primal_excess(dataset, proto) -> float:
    """The largest relative excess of LIBLINEAR's primal objective over the ALM's along the C grid (fold 0's
    fitting part, every label with both classes)."""
    from labelrank.baselines import BinarySVM

    X, Y, _, _ = fold_data(dataset, proto, 0)
    X, Y = (X.toarray() if hasattr(X, "toarray") else np.asarray(X)), np.asarray(Y)
    trained, sign, grid = Y.min(axis=0) != Y.max(axis=0), 2 * Y - 1, list(proto.grids["C"])

    def primal(model, C):  # LIBLINEAR's objective of each label: 1/2 (||w||^2 + b^2) + C sum hinge
        hinge = np.maximum(0, 1 - sign * (X @ model.coef_.T + model.intercept_)).sum(axis=0)
        return 0.5 * ((model.coef_**2).sum(axis=1) + model.intercept_**2) + C * hinge

    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        alm = BinarySVM(solver="alm").fit_path(X, Y, "C", grid)
        lib = BinarySVM(solver="liblinear").fit_path(X, Y, "C", grid)
    excess = [(primal(b, C) - primal(a, C)) / np.maximum(1.0, primal(a, C)) for C, a, b in zip(grid, alm, lib)]
    return float(np.max([e[trained] for e in excess]))


def compare_binary_svm(dataset, proto) -> None:
    """Binary-SVM's C axis: LIBLINEAR point tasks (the reference) against the ALM's warm path task, where the ALM is
    the default; then on Fig. 2's meta-level features (the exact protocol's, so Reuters-21578's too)."""
    X, Y, _, _ = fold_data(dataset, proto, 0)
    if binary_svm_solver(X) == "alm":
        compare_c_axis(dataset, proto, "Binary-SVM", "liblinear", "LIBLINEAR", binary_svm_primal_excess)
    n_columns = Y.shape[1] * (3 * proto.meta_k + 2)
    if n_columns > baselines_module._ALM_MAX_SPARSE_FEATURES:
        compare_binary_svm_wide(dataset, proto)
        return
    print(f"-- {dataset}: Binary-SVM on Fig. 2's meta-level features, C axis x{len(proto.grids['C'])}, fold 0")
    axes = {name: svm_axis(dataset, proto, solver, "meta", woodbury)
            for name, solver, woodbury in (("d x d systems", "alm", False), ("Woodbury", "alm", True),
                                           ("LIBLINEAR", "liblinear", True))}
    reference, ref_maps, _ = axes["d x d systems"]
    print("   ALM warm path " + "   ".join(
        f"{name} {seconds:8.2f} CPU s ({n_warnings} capped, x{reference / seconds:5.1f}, largest |MAP difference| "
        f"{np.abs(maps - ref_maps).max():.1e})" for name, (seconds, maps, n_warnings) in axes.items()), flush=True)


def compare_binary_svm_wide(dataset, proto, n_labels=4) -> None:
    """Fig. 2's meta-level features of a data set with many labels (Reuters-21578: thousands of dense columns, where
    the whole C axis takes LIBLINEAR hours): ``n_labels`` labels with both classes in fold 0, LIBLINEAR (the
    reference) and the ALM at C = 1e-2, 1 and 1e2 (the grid values nearest), each C from scratch: time, capped
    fits, the validation MAP of those labels; and the ALM's warm path over the whole C grid, per label."""
    from labelrank.baselines import BinarySVM

    X, Y, X_val, Y_val = fold_data(dataset, proto, 0)
    X, X_val = concatenated_meta_features(*meta_features(dataset, 0, proto)[:2], proto.meta_k, proto.k_max)
    trained = np.flatnonzero(np.asarray(Y).min(axis=0) != np.asarray(Y).max(axis=0))  # the others: a constant
    labels = trained[:n_labels]
    Y, Y_val = np.asarray(Y)[:, labels], np.asarray(Y_val)[:, labels]
    grid = np.asarray(proto.grids["C"])
    Cs = [float(grid[np.argmin(np.abs(np.log10(grid) - target))]) for target in (-2, 0, 2)]
    print(f"-- {dataset}: Binary-SVM on Fig. 2's {X.shape[1]:,} dense meta-level columns, {X.shape[0]:,} rows, "
          f"fold 0, labels {', '.join(map(str, labels))}")
    seconds = {}
    for solver in ("liblinear", "alm"):
        with threadpool_limits(1), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            start = time.process_time()
            models = [BinarySVM(C=C, solver=solver).fit(X, Y) for C in Cs]
            seconds[solver] = time.process_time() - start
        maps = ", ".join(f"{average_precision(Y_val, m.decision_function(X_val)):.5f}" for m in models)
        print(f"   {solver:9} at C = {', '.join(f'{C:.3g}' for C in Cs)}: {seconds[solver]:8.2f} CPU s, "
              f"{len(caught)} warning(s), validation MAP {maps}", flush=True)
    with threadpool_limits(1), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.process_time()
        BinarySVM(solver="alm").fit_path(X, Y, "C", list(grid))
        path = time.process_time() - start
    hours = path / labels.size * trained.size * proto.n_folds / 3600
    print(f"   speed-up x{seconds['liblinear'] / seconds['alm']:5.1f}; the ALM's warm path over the {grid.size} "
          f"values of C: {path / labels.size:.1f} CPU s per label ({len(caught)} warning(s)); times the "
          f"{trained.size} labels with both classes and {proto.n_folds} folds: about {hours:.2f} CPU hours for the "
          "exact protocol's Fig. 2 Binary-SVM", flush=True)


def compare_lightgbm(dataset, proto) -> None:
    """MLC-LightGBM's ranker at k = 50 and learning rate 0.1 on fold 0 with row-wise histograms (the reference)
    and column-wise ones (the ranker's setting): CPU s and whether the scores are the same."""
    import lightgbm

    from labelrank.rankers import LightGBMLambdaRank

    Y_fit, _, Zf, Ze = ranker_inputs(dataset, 50, 0, proto)
    kept = np.asarray(Y_fit).any(axis=0)
    Z, Y = np.asarray(Zf, dtype=np.float64), np.asarray(Y_fit)[:, kept]
    n, m, d = Z.shape
    print(f"-- {dataset}: MLC-LightGBM at k = 50, learning rate 0.1, fold 0: row-wise vs column-wise histograms")
    with threadpool_limits(1):
        start = time.process_time()
        ours = LightGBMLambdaRank(learning_rate=0.1).fit(Z, Y)
        t_col = time.process_time() - start
        params = {**ours.params_, "n_estimators": ours.n_estimators, "force_col_wise": False, "force_row_wise": True}
        start = time.process_time()
        rows = lightgbm.LGBMRanker(**params).fit(Z.reshape(n * m, d), Y.reshape(-1), group=np.full(n, m))
        t_row = time.process_time() - start
    Zt = np.asarray(Ze, dtype=np.float64)
    same = np.array_equal(ours.decision_function(Zt).ravel(), rows.predict(Zt.reshape(-1, d)))
    print(f"   row-wise {t_row:8.2f} CPU s   column-wise {t_col:8.2f} CPU s   speed-up x{t_row / t_col:5.2f}   "
          f"{'the same scores' if same else 'DIFFERENT scores'}", flush=True)


def compare_iblr(dataset, proto) -> None:
    """IBLR's k axis on fold 0 with its logistic regressions on the dense standardised label frequencies (the
    reference) and on the sparse frequencies (its default where at most a quarter are nonzero): CPU s, the share of
    nonzero frequencies and the largest difference of the test probabilities."""
    X, Y, Xt, _ = fold_data(dataset, proto, 0)
    print(f"-- {dataset}: IBLR, k axis x{len(proto.grids['k'])}, fold 0: regressions on dense vs sparse frequencies")
    for k in proto.grids["k"]:
        seconds, scores = {}, {}
        for name, density in (("dense", 0.0), ("sparse", 1.0)):
            with mock.patch.object(baselines_knn, "IBLR_SPARSE_DENSITY", density), threadpool_limits(1):
                start = time.process_time()
                model = baselines_module.IBLRML(k=k).fit(X, Y)
                seconds[name] = time.process_time() - start
            scores[name] = model.decision_function(Xt)
        counts = model._label_counts(None)
        dense, sparse = seconds["dense"], seconds["sparse"]
        print(f"   k = {k:3d}   {np.count_nonzero(counts) / counts.size:6.1%} nonzero   dense {dense:7.2f} CPU s   "
              f"sparse {sparse:7.2f} CPU s   speed-up x{dense / sparse:5.2f}   largest |probability difference| "
              f"{np.abs(scores['dense'] - scores['sparse']).max():.1e}", flush=True)


def compare_svmmap(dataset, proto) -> None:
    """SVM-MAP's C axis as the warm path task with the SMO QP (the reference), as point tasks (each C cold, pruned
    working sets) and as the warm path task with the compiled active-set QP; a fit that misses its certificate
    warns."""
    print(f"-- {dataset}: MLC-SVM-MAP, C axis x{len(proto.grids['C'])} at k = 50, fold 0")
    _fresh_factor_solver(np.eye(2), np.ones(2), np.array([1.0, 0.0]), 1.0, 1e-9)  # compiled before the timing
    reference, ref_maps, ref_warnings = svmmap_axis(dataset, proto, "SMO warm path")
    seconds, maps = {}, {}
    for variant in ("SMO warm path", "pruned", "two-pass warm path", "refit warm path", "fresh-factor warm path",
                    "warm path"):
        seconds[variant], maps[variant], n_warnings = ((reference, ref_maps, ref_warnings)
                                                       if variant == "SMO warm path"
                                                       else svmmap_axis(dataset, proto, variant))
        print(f"   {variant:22} {seconds[variant]:8.2f} CPU s   speed-up x{reference / seconds[variant]:5.1f}   "
              f"{choice_of_c(proto, maps[variant], ref_maps)}, {n_warnings} warnings", flush=True)
    ratio = seconds["two-pass warm path"] / seconds["refit warm path"]
    print(f"   the one-pass constraint: x{ratio:5.2f} on the refit warm path")
    ratio = seconds["refit warm path"] / seconds["warm path"]
    print(f"   the input prepared once per path: x{ratio:5.2f}")
    ratio = seconds["fresh-factor warm path"] / seconds["warm path"]
    difference = np.abs(np.subtract(maps["fresh-factor warm path"], maps["warm path"])).max()
    print(f"   the QP's factor updated, not computed afresh per step: x{ratio:5.2f}, largest |MAP difference| "
          f"{difference:.1e}")


def fig2_binary_svm_sampled(dataset, proto, n_labels) -> dict:
    """Fig. 2's Binary-SVM C axis on ``n_labels`` of the labels with both classes in fold 0, as the ALM's warm path
    per label, scaled to every such label and fold: a row of the Fig. 2 table, marked as extrapolated."""
    from labelrank.baselines import BinarySVM

    X, Y, _, _ = fold_data(dataset, proto, 0)
    X, _ = concatenated_meta_features(*meta_features(dataset, 0, proto)[:2], proto.meta_k, proto.k_max)
    trained = np.flatnonzero(np.asarray(Y).min(axis=0) != np.asarray(Y).max(axis=0))
    labels = trained[:n_labels]
    grid = list(proto.grids["C"])
    with threadpool_limits(1), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.process_time()
        BinarySVM(solver="alm").fit_path(X, np.asarray(Y)[:, labels], "C", grid)
        seconds = time.process_time() - start
    axis_seconds = seconds / labels.size * trained.size
    return {"method": "Binary-SVM", "point_seconds": None, "per_unit": None, "axis": "C", "axis_values": len(grid),
            "axis_seconds": axis_seconds, "capped": len(caught), "exact_protocol_cpu_hours":
            axis_seconds * proto.n_folds / 3600, "labels_timed": int(labels.size), "labels": int(trained.size)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    full = experiments.protocol("full")
    parser.add_argument("--datasets", nargs="+", default=["emotions", "yeast", "scene"], choices=full.datasets)
    parser.add_argument("--methods", nargs="+", default=list(full.methods), choices=list(full.methods))
    parser.add_argument("--profile-subsample", action="store_true",
                        help="cross-validate on the full profile's subsample (Reuters-21578: 2,000 documents) "
                             "instead of the exact protocol's whole training set")
    parser.add_argument("--no-axis", action="store_true", help="time one point per method only")
    parser.add_argument("--profile-top", type=int, default=0, help="cProfile's top functions of the slowest point")
    parser.add_argument("--fig2", action="store_true",
                        help="time Fig. 2's runs instead: those of --methods that are Fig. 2's conventional methods, "
                             "on the concatenated meta-level features")
    parser.add_argument("--fig2-labels", type=int, default=0, metavar="N",
                        help="with --fig2, time Binary-SVM's C axis on the first N labels with both classes and "
                             "scale it to all of them (its whole axis takes hours on Reuters-21578)")
    parser.add_argument("--compare", action="store_true", help="time the faster paths against the reference only")
    parser.add_argument("--no-dcd", action="store_true",
                        help="with --compare, leave out RankSVM-IR's dual coordinate descent (minutes per fit on "
                             "Reuters-21578 at large C)")
    parser.add_argument("--no-record", action="store_true", help="print only; write no record")
    args = parser.parse_args()
    proto = full if args.profile_subsample else dataclasses.replace(full, tune_subsample={})

    rows, units, transcript = [], {}, io.StringIO()
    for dataset in args.datasets:
        experiments.meta_features(dataset, 0, proto)  # computed (and cached) outside the timings
        if args.compare:
            with contextlib.redirect_stdout(_Tee(sys.stdout, transcript)):
                compare(dataset, proto, args.methods, dcd=not args.no_dcd)
            continue
        unit = best_of(2, dataset, "Binary-SVM", middle_params(proto.methods["Binary-SVM"], proto), proto)
        units[dataset] = unit
        features = "meta" if args.fig2 else "original"
        methods = [m for m in args.methods if m in experiments.FIG2_METHODS] if args.fig2 else args.methods
        print(f"\n== {dataset}: fold 0 of {proto.n_folds}, one thread; unit = Binary-SVM point = {unit:.3f} CPU s"
              + ("; Fig. 2's runs (meta-level features)" if args.fig2 else ""))
        print(f"{'method':15} {'point s':>9} {'/ unit':>8} {'axis':>9} {'axis s':>9} {'capped':>7} "
              f"{'exact protocol h':>17}")
        slowest = (0.0, None, None)
        for method in methods:
            spec = proto.methods[method]
            params = middle_params(spec, proto)
            if args.fig2 and args.fig2_labels and method == "Binary-SVM":
                row = fig2_binary_svm_sampled(dataset, proto, args.fig2_labels)
                rows.append({"dataset": dataset, "runs": "fig2" if args.fig2 else "cv", **row})
                print(f"{method:15} {'':>9} {'':>8} {'C x' + str(row['axis_values']):>9} {row['axis_seconds']:9.2f} "
                      f"{row['capped']:7d} {row['exact_protocol_cpu_hours']:17.2f}  (scaled from "
                      f"{row['labels_timed']} of {row['labels']} labels)", flush=True)
                continue
            seconds = best_of(2, dataset, method, params, proto, features)
            slowest = max(slowest, (seconds, method, params), key=lambda t: t[0])
            line = f"{method:15} {seconds:9.3f} {seconds / unit:8.1f}"
            row = {"dataset": dataset, "runs": "fig2" if args.fig2 else "cv", "method": method,
                   "point_seconds": seconds, "per_unit": seconds / unit}
            if not args.no_axis:
                name, grid = spec.axes[-1]
                values = proto.grids[grid]
                if spec.path_axis == name:  # as the full search fits it: one path task
                    axis_seconds, capped = path_axis(dataset, method, params, name, values, proto, features)
                else:
                    axis_seconds, capped = 0.0, 0
                    for value in values:
                        s, hit = timed_fit(dataset, method, {**params, name: value}, proto, features=features)
                        axis_seconds += s
                        capped += hit
                others = int(np.prod([len(proto.grids[g]) for _, g in spec.axes[:-1]])) if len(spec.axes) > 1 else 1
                exact = axis_seconds * others * proto.n_folds / 3600
                line += f" {name + ' x' + str(len(values)):>9} {axis_seconds:9.2f} {capped:7d} {exact:17.2f}"
                row.update(axis=name, axis_values=len(values), axis_seconds=axis_seconds, capped=int(capped),
                           exact_protocol_cpu_hours=exact)
            rows.append(row)
            print(line, flush=True)
        if args.profile_top and slowest[1] is not None:
            profiler = cProfile.Profile()
            timed_fit(dataset, slowest[1], slowest[2], proto, profiler, features)
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(args.profile_top)
            print(f"-- profile of {slowest[1]} {slowest[2]}:\n" + "\n".join(out.getvalue().splitlines()[4:]))
    if args.no_record:
        return
    tables = {"comparisons": [{"line": line} for line in transcript.getvalue().splitlines()]} if args.compare \
        else {"methods": rows}
    values = {"folds": proto.n_folds, "unit_seconds": units,
              "cv_documents": {d: proto.tune_subsample.get(d) for d in args.datasets}}
    print(f"record: {write_record('bench_protocol', tables, values=values)}")


class _Tee(io.TextIOBase):
    """A text stream that writes to several streams (the console and the record's transcript)."""

    def __init__(self, *streams):
        self.streams = streams

    def write(self, text):
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self):
        for stream in self.streams:
            stream.flush()


if __name__ == "__main__":
    main()
