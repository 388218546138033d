"""The four criteria a misclassification cost should meet (section 2.1 of Li et al. 2007), made executable.

Agirre & Rigau (1996) list what a measure of closeness between two concepts of a hierarchy should do; the seed
restates them as criteria for a cost ``c(key, response)``:

1. it depends on the length of the shortest path connecting the two concepts;
2. concepts in a deeper part of the hierarchy are closer;
3. concepts in a denser part of the hierarchy are closer;
4. it is independent of the size of the hierarchy.

Each criterion becomes a list of :class:`Case` objects: two (tree, key, response) configurations that differ in one
respect only, and what the criterion demands of their costs (the first strictly cheaper, or both equal). A cost
meets a criterion when it passes every case. The trees are complete trees, where every other quantity is held
fixed, plus one tree with a dense and a sparse branch of equal depth:

* criterion 1 lengthens the path on the key's side, and on the response's side, below the same common ancestor;
* criterion 2 moves a pair with the same path one level deeper;
* criterion 3 compares the same pair in a branch where nodes have 2 children and one where they have 4;
* criterion 4 compares a pair with its image in a hierarchy scaled up: every length doubled (a complete binary tree
  of depth 3 against one of depth 6), and every branching raised (binary against ternary).

A fifth, literal reading of criterion 4 (``"4 (literal)"``: adding concepts elsewhere in the hierarchy leaves the
cost alone) is kept apart, because the seed's argument for BDM (normalising by the mean chain length) is about
scale, not about this.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd

from labelrank.validation import check_positive_int
from labelrank.cost import bdm, common_ancestor_height, learning_accuracy, path_distance
from labelrank.hierarchy import LabelTree

__all__ = ["COSTS", "CRITERIA", "Case", "complete_tree", "criterion_cases", "check_criteria"]

CostFunction = Callable[[LabelTree, str, str], float]

COSTS: dict[str, CostFunction] = {
    "path distance": path_distance,
    "height of first common ancestor": common_ancestor_height,
    "Learning Accuracy": lambda tree, k, r: 1.0 - learning_accuracy(tree, k, r),
    "BDM": lambda tree, k, r: 1.0 - bdm(tree, k, r),
}
"""The four costs of section 2.1-2.3, each as ``cost(tree, key, response)`` (LA and BDM as 1 - similarity)."""

CRITERIA: dict[str, str] = {
    "1": "depends on the length of the shortest path",
    "2": "deeper is closer",
    "3": "denser is closer",
    "4": "independent of the size of the hierarchy (scale)",
    "4 (literal)": "unchanged by concepts added elsewhere",
}


@dataclass(frozen=True)
class Case:
    """One executable check of a criterion.

    The cost of ``first`` (a key, response pair in ``first_tree``) must be strictly smaller than the cost of
    ``second`` (in ``second_tree``) when ``demand == "closer"``, and equal when ``demand == "equal"``.
    """

    criterion: str
    description: str
    first_tree: LabelTree
    first: tuple[str, str]
    second_tree: LabelTree
    second: tuple[str, str]
    demand: str  # "closer" or "equal"

    def costs(self, cost: CostFunction) -> tuple[float, float]:
        """The cost of the first and of the second pair."""
        return float(cost(self.first_tree, *self.first)), float(cost(self.second_tree, *self.second))

    def passes(self, cost: CostFunction, tol: float = 1e-12) -> bool:
        """Whether ``cost`` does what the criterion demands in this case."""
        a, b = self.costs(cost)
        return a < b - tol if self.demand == "closer" else abs(a - b) <= tol


def complete_tree(branching: int, depth: int, root: str = "r") -> LabelTree:
    """The complete tree with ``branching`` children per inner node and all leaves at ``depth``.

    Labels spell the path from the root: ``"r"``, ``"0"``, ``"01"``, ... (digits ``0 .. branching - 1``).
    """
    branching = check_positive_int(branching, "branching")  # an integer >= 1 (True is not 1)
    if branching > 10:
        raise ValueError(f"branching must be <= 10 (one digit per level in the labels), got {branching}")
    depth = check_positive_int(depth, "depth", minimum=0)
    parents: dict[str, str | None] = {root: None}
    for d in range(1, depth + 1):
        for path in itertools.product(range(branching), repeat=d):
            name = "".join(map(str, path))
            parents[name] = root if d == 1 else name[:-1]
    return LabelTree.from_parents(parents)


def _dense_sparse_tree() -> LabelTree:
    """Root with a sparse branch S (2 children per node) and a dense branch D (4 per node), leaves at depth 3."""
    parents: dict[str, str | None] = {"r": None}
    for top, b in (("S", 2), ("D", 4)):
        parents[top] = "r"
        for i in range(b):
            mid = f"{top}{i}"
            parents[mid] = top
            for j in range(b):
                parents[f"{mid}{j}"] = mid
    return LabelTree.from_parents(parents)


def criterion_cases() -> list[Case]:
    """The executable cases of every criterion (see the module docstring)."""
    b2d4 = complete_tree(2, 4)
    b2d3, b2d6, b3d3 = complete_tree(2, 3), complete_tree(2, 6), complete_tree(3, 3)
    dense = _dense_sparse_tree()
    grown = b2d3.to_parents()
    # a deep, bushy subtree added under "1", away from the pair ("000", "001")
    for path in itertools.product(range(3), repeat=3):
        for k in range(1, 4):
            name = "1x" + "".join(map(str, path[:k]))
            grown[name] = "1" if k == 1 else "1x" + "".join(map(str, path[: k - 1]))
    grown_tree = LabelTree.from_parents(grown)
    return [
        Case("1", "key one level deeper below the same MSCA", b2d4, ("000", "010"), b2d4, ("0000", "010"), "closer"),
        Case("1", "response one level deeper below the same MSCA", b2d4, ("000", "010"), b2d4, ("000", "0100"),
             "closer"),
        Case("2", "siblings one level deeper", b2d4, ("0000", "0001"), b2d4, ("000", "001"), "closer"),
        Case("2", "cousins one level deeper", b2d4, ("0000", "0010"), b2d4, ("000", "010"), "closer"),
        Case("3", "siblings in the dense branch vs the sparse one", dense, ("D0", "D1"), dense, ("S0", "S1"), "closer"),
        Case("3", "leaf siblings, dense vs sparse", dense, ("D00", "D01"), dense, ("S00", "S01"), "closer"),
        Case("4", "all lengths doubled (binary depth 3 vs depth 6)", b2d3, ("00", "01"), b2d6, ("0000", "0010"),
             "equal"),
        Case("4", "branching raised (binary vs ternary, depth 3)", b2d3, ("000", "010"), b3d3, ("000", "010"), "equal"),
        Case("4 (literal)", "a deep bushy subtree added elsewhere", b2d3, ("000", "001"), grown_tree, ("000", "001"),
             "equal"),
    ]


def check_criteria(
    costs: Mapping[str, CostFunction] | None = None, cases: list[Case] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run every case for every cost.

    Returns
    -------
    (verdict, details) : tuple of DataFrame
        ``verdict.loc[cost, criterion]`` is True when the cost passes all the criterion's cases; ``details`` has one
        row per (cost, case) with both costs and whether the case passed.
    """
    costs = COSTS if costs is None else costs
    cases = criterion_cases() if cases is None else cases
    rows = []
    for name, cost in costs.items():
        for case in cases:
            a, b = case.costs(cost)
            rows.append({"cost": name, "criterion": case.criterion, "case": case.description,
                         "first": "-".join(case.first), "cost_first": a,
                         "second": "-".join(case.second), "cost_second": b,
                         "demand": case.demand, "passed": case.passes(cost)})
    details = pd.DataFrame(rows)
    verdict = details.groupby(["cost", "criterion"], sort=False)["passed"].all().unstack("criterion")
    return verdict.loc[list(costs)], details
