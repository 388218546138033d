r"""Learning-to-rank over meta-level features: ListNet, LambdaRank, RankSVM-IR, SVM-MAP and LightGBM's lambdarank.

Yang & Gopal (2012, section 2.2) treat multi-label classification as ad-hoc retrieval: an instance :math:`x_i` is a
*query*, its "documents" are the :math:`m` categories, and the pair :math:`(x_i, c)` is described by the meta-level
vector :math:`\phi(x_i, c) \in \mathbb{R}^d` (:mod:`labelrank.features`, :math:`d = 3k + 2`). Every ranker here
learns **one** scoring function :math:`f(\phi)` shared by all categories and scores category :math:`c` for instance
:math:`x_i` by :math:`f(\phi(x_i, c))`. The rankers take the meta-level array ``Z`` of shape (n, m, d),
``Z[i, c] = phi(x_i, c)``, and a 0/1 label matrix ``Y`` of shape (n, m); a list is one row of ``Y``.

============================  ==================================  ===============================================
class                         scoring function                    training
============================  ==================================  ===============================================
:class:`ListNet`              linear, or one tanh hidden layer    top-one cross-entropy (Cao et al. 2007),
                                                                  mini-batch Adam/SGD, 50 epochs
:class:`LambdaRank`           linear, or one tanh hidden layer    RankNet gradients times :math:`|\Delta NDCG|`
                                                                  or :math:`|\Delta AP|` (Burges et al. 2007),
                                                                  mini-batch Adam/SGD, 50 epochs
:class:`RankSVMIR`            linear :math:`w \cdot \phi`         pairwise hinge SVM (Joachims 2002),
                                                                  augmented Lagrangian with Newton steps
                                                                  to a duality-gap certificate
:class:`SVMMAP`               linear :math:`w \cdot \phi`         structural SVM with the loss 1 - AP (Yue et
                                                                  al. 2007), 1-slack cutting planes
:class:`LightGBMLambdaRank`   gradient-boosted trees              LightGBM ``objective="lambdarank"``
============================  ==================================  ===============================================

Standardisation. Unless ``standardize=False``, every ranker maps :math:`\phi` to
:math:`(\phi - \mu) / \sigma` first, with :math:`\mu` and :math:`\sigma` the per-feature mean and standard
deviation over all :math:`n m` training pairs (a constant feature gets :math:`\sigma = 1`); the statistics are part
of the fitted model (``mean_``, ``scale_``) and are applied to new data. The raw distances have very different
scales (cosine distances lie in [0, 2], L1 distances grow with the number of input features), which the
regularisation and the gradient methods' learning rates would otherwise see. The standardised array is never
materialised except for :class:`RankSVMIR`, whose solver needs the (n m, d) float64 matrix (1.7 GB for
Reuters-21578's 7,770 training documents at k = 100): batches are standardised as they are used, and a linear
model is evaluated as :math:`w \cdot (\phi - \mu)/\sigma = (w / \sigma) \cdot \phi - \text{const}`.
Tree ensembles are invariant to it, so :class:`LightGBMLambdaRank` skips it.

Lists that cannot teach a ranker anything are skipped where the loss is undefined or constant: an instance with
no relevant category, or with every category relevant, gives no pair to RankSVM-IR, LambdaRank and SVM-MAP (its AP
loss is 0 for every ranking), and no target to ListNet with its default ``target="normalized"``. With
``target="softmax"`` such a list has the uniform target distribution (a pull towards equal scores) and is used.

Randomness (the order of the lists in each epoch, the initial weights of a hidden layer, the visiting order of
RankSVM-IR's dual coordinate descent with ``solver="dcd"``, LightGBM's seed) comes from ``random_state`` only: the same seed gives the same scores.

Modules: ``losses`` (the list losses), ``gradient`` (ListNet, LambdaRank), ``svm`` (RankSVM-IR,
SVM-MAP), ``boosting`` (LightGBM), :mod:`~labelrank.rankers.pairwise_svm` (the dual coordinate-descent solver shared with the
Rank-SVM baseline), :mod:`~labelrank.rankers.pairwise_newton` (RankSVM-IR's augmented Lagrangian solver) and ``_base`` (input checks, standardisation, base classes); every public name is
importable from :mod:`labelrank.rankers` itself.

References
----------
Y. Yang, S. Gopal (2012). Multilabel classification with meta-level features in a learning-to-rank framework.
Machine Learning 88, 47-68 (sections 2.2 and 3.4).
Z. Cao, T. Qin, T.-Y. Liu, M.-F. Tsai, H. Li (2007). Learning to rank: from pairwise approach to listwise approach.
ICML, 129-136.
C. J. C. Burges, R. Ragno, Q. V. Le (2007). Learning to rank with nonsmooth cost functions. NIPS 19, 193-200.
C. J. C. Burges (2010). From RankNet to LambdaRank to LambdaMART: an overview. Microsoft Research MSR-TR-2010-82.
T. Joachims (2002). Optimizing search engines using clickthrough data. KDD, 133-142.
Y. Yue, T. Finley, F. Radlinski, T. Joachims (2007). A support vector method for optimizing average precision.
SIGIR, 271-278.
T. Joachims, T. Finley, C.-N. J. Yu (2009). Cutting-plane training of structural SVMs. Machine Learning 77, 27-59.
G. Ke et al. (2017). LightGBM: a highly efficient gradient boosting decision tree. NIPS 30.
"""

from __future__ import annotations

from typing import Any

from labelrank.validation import check_choice
from labelrank.rankers._base import _Ranker, check_meta_features
from labelrank.rankers.boosting import LightGBMLambdaRank
from labelrank.rankers.gradient import LambdaRank, ListNet
from labelrank.rankers.losses import (
    delta_metric,
    lambda_gradients,
    listnet_gradient,
    listnet_loss,
    ranknet_cost,
)
from labelrank.rankers.svm import SVMMAP, RankSVMIR, ap_loss_augmented_inference

__all__ = [
    "RANKERS",
    "ListNet",
    "LambdaRank",
    "RankSVMIR",
    "SVMMAP",
    "LightGBMLambdaRank",
    "make_ranker",
    "check_meta_features",
    "listnet_loss",
    "listnet_gradient",
    "ranknet_cost",
    "delta_metric",
    "lambda_gradients",
    "ap_loss_augmented_inference",
]


RANKERS: dict[str, type[_Ranker]] = {
    "listnet": ListNet,
    "lambdarank": LambdaRank,
    "ranksvm": RankSVMIR,
    "svmmap": SVMMAP,
    "lightgbm": LightGBMLambdaRank,
}


def make_ranker(name: str, **params: Any) -> _Ranker:
    """A ranker by name (a key of ``RANKERS``) with the given parameters.

    Parameters
    ----------
    name : {"listnet", "lambdarank", "ranksvm", "svmmap", "lightgbm"}
    **params
        Keyword arguments of the ranker's class.

    Raises
    ------
    ValueError
        For an unknown ``name``.

    Examples
    --------
    >>> make_ranker("svmmap", C=10.0)
    SVMMAP(C=10.0)
    """
    check_choice(name, "ranker", tuple(RANKERS))
    return RANKERS[name](**params)
