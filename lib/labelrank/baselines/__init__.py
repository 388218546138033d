"""The four multi-label baselines of Yang & Gopal (2012, section 3.2) on the original features.

Every estimator has the same shape: ``fit(X, Y)`` with ``X`` of shape (n, d) (dense or scipy sparse) and a 0/1 label
matrix ``Y`` of shape (n, m); ``decision_function(X)`` gives label scores of shape (n, m), higher = more relevant;
``predict(X)`` gives 0/1 decisions. A label receives a yes when its score is **at or above** the threshold
(section 2.3: "above or at the threshold").

========================  ==========================================  ================================================
estimator                 scores                                      ``threshold="default"``
========================  ==========================================  ================================================
:class:`BinarySVM`        one-vs-rest linear SVM margins              0
:class:`RankSVM`          Elisseeff & Weston's linear ranking SVM     LLSF on the raw scores (Elisseeff & Weston)
:class:`MLkNN`            ML-kNN posterior probabilities              0.5
:class:`IBLRML`           IBLR-ML logistic probabilities              0.5
========================  ==========================================  ================================================

``threshold="llsf"`` replaces the default by the instance-based regression of section 2.3 (scores rescaled to sum to
one, the threshold a linear map of the ranked list, :class:`labelrank.threshold.LLSFThreshold`), fitted on the training instances' scores of the fitted model (the
non-splitting strategy of section 3.4); this is the "Regression" column of the paper's Table 4. For the kNN methods
the training scores are leave-one-out by construction (a training instance is never its own neighbour).

Labels without positive (or without negative) training instances
-----------------------------------------------------------------
A label column of ``Y`` that is all 0 (or all 1) is not an error: it happens in cross-validation folds of Reuters,
whose rarest categories have one or two training documents. Each method handles it as its model implies:
:class:`BinarySVM` gives the label the constant margin -1 (+1 when all are relevant) instead of training an SVM on
one class; :class:`RankSVM` needs nothing special (the label only takes part in pairs as the irrelevant, or
relevant, one); :class:`MLkNN`'s smoothed estimates are defined for any counts; :class:`IBLRML` gives the label the
constant probability 0 (1). An instance with no or with every label relevant gives Rank-SVM no pair and is
otherwise used normally.

Invalid input -- ``Y`` not 0/1 or not 2-D, ``X`` and ``Y`` with different numbers of rows, fewer than 2
instances, ``k`` not smaller than the number of training instances, NaN or infinite features -- raises
:class:`ValueError` (or :class:`TypeError` for the wrong kind of object) naming the argument.

References
----------
A. Elisseeff, J. Weston (2001). A kernel method for multi-labelled classification. NIPS 14, 681-687.
M.-L. Zhang, Z.-H. Zhou (2007). ML-KNN: a lazy learning approach to multi-label learning. Pattern Recognition 40(7).
W. Cheng, E. Hüllermeier (2009). Combining instance-based learning and logistic regression for multilabel
classification. Machine Learning 76(2-3), 211-225.
Y. Yang, S. Gopal (2012). Multilabel classification with meta-level features in a learning-to-rank framework.
Machine Learning 88, 47-68.
G. Tsoumakas et al. (2011). MULAN: a Java library for multi-label learning. JMLR 12, 2411-2414 (the ML-kNN and
IBLR-ML implementations the paper ran: ``mulan/classifier/lazy/MLkNN.java``, ``IBLR_ML.java``).
"""

from __future__ import annotations

from labelrank.baselines.base import KNNDistance, ThresholdRule
from labelrank.baselines.knn import IBLR_SPARSE_DENSITY, IBLRML, MLkNN
from labelrank.baselines.svm import ALM_MAX_FEATURES, RANK_SVM_ALM_MAX_UNKNOWNS, BinarySVM, RankSVM
from labelrank.logistic import Design, ridge_logistic_newton, standardised_fit  # noqa: F401 (re-exported)

__all__ = ["BinarySVM", "RankSVM", "MLkNN", "IBLRML", "rank_svm_pairs",  # noqa: F822 (rank_svm_pairs: __getattr__)
           "ALM_MAX_FEATURES", "RANK_SVM_ALM_MAX_UNKNOWNS", "IBLR_SPARSE_DENSITY", "ThresholdRule", "KNNDistance"]


def __getattr__(name: str):
    # rank_svm_pairs lives with the pairwise solver, whose compiled kernels need the `rank` extra: re-exported
    # lazily, so that the other baselines import without it
    if name == "rank_svm_pairs":
        from labelrank.rankers.pairwise_svm import rank_svm_pairs

        return rank_svm_pairs
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
