"""Drawing a :class:`~labelrank.hierarchy.LabelTree` with matplotlib: a tidy layered layout (leaves evenly spaced, a
parent centred over its children), folding of subtrees, highlights and annotations; no graphviz needed. The tree's
:meth:`~labelrank.hierarchy.LabelTree.layout` and :meth:`~labelrank.hierarchy.LabelTree.draw` call these; ``tree``
is a :class:`~labelrank.hierarchy.LabelTree` (duck-typed here, so that this module does not import the class that
imports it)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from labelrank.optional import require
from labelrank.validation import describe_value


def _folded(tree: Any, fold: Collection[str]) -> set[str]:
    """``fold`` and all descendants of its labels (validated)."""
    if isinstance(fold, str):
        raise TypeError(f"fold must be a collection of labels, got the single string {describe_value(fold)}")
    unknown = sorted(lab for lab in fold if lab not in tree._index)
    if unknown:
        raise ValueError(f"fold names unknown label(s) {unknown[:5]}")
    if tree._root in fold:
        raise ValueError(f"fold cannot contain the root {describe_value(tree._root)}")
    out = set(fold)
    for lab in fold:
        out |= tree.descendants(lab)
    return out


def layout(tree: Any, fold: Collection[str] = ()) -> dict[str, tuple[float, float]]:
    """:meth:`labelrank.hierarchy.LabelTree.layout` (documented there)."""
    folded = _folded(tree, fold)
    first_child: dict[str, list[str]] = {lab: [] for lab in tree._labels}
    for lab in tree._labels:
        ps = tree._parents[lab]
        if ps:
            first_child[ps[0]].append(lab)

    def n_below(lab: str) -> int:
        return 1 + sum(n_below(c) for c in first_child[lab])

    pos: dict[str, tuple[float, float]] = {}
    next_x = [0.0]

    def place(lab: str, depth: int) -> float:
        kids = [c for c in first_child[lab] if c not in folded]
        n_folded = sum(n_below(c) for c in first_child[lab] if c in folded)
        xs = [place(c, depth + 1) for c in kids]
        if n_folded:
            xs.append(next_x[0])
            pos[f"+{n_folded}@{lab}"] = (next_x[0], -(depth + 1))
            next_x[0] += 1.0
        if xs:
            x = (xs[0] + xs[-1]) / 2
        else:
            x = next_x[0]
            next_x[0] += 1.0
        pos[lab] = (x, -depth)
        return x

    place(tree._root, 0)
    return pos


def draw(
    tree: Any,
    ax: Any = None,
    *,
    fold: Collection[str] = (),
    highlight: Iterable[str] = (),
    annotate: Mapping[str, str] | None = None,
    fontsize: float = 9,
    node_color: str = "#dde6f0",
    highlight_color: str = "#f6c667",
    text: Callable[[str], str] | None = None,
) -> Any:
    """:meth:`labelrank.hierarchy.LabelTree.draw` (documented there)."""
    plt = require("matplotlib.pyplot", "LabelTree.draw")

    folded = _folded(tree, fold)
    high = set(highlight)
    unknown = sorted(high - set(tree._labels))
    if unknown:
        raise ValueError(f"highlight names unknown label(s) {unknown[:5]}")
    annotate = dict(annotate or {})
    unknown = sorted(set(annotate) - set(tree._labels))
    if unknown:
        raise ValueError(f"annotate names unknown label(s) {unknown[:5]}")
    pos = layout(tree, fold)
    shown_depth = max(-y for _, y in pos.values())
    if ax is None:
        width = max(4.0, 0.75 * (max(x for x, _ in pos.values()) + 1))
        _, ax = plt.subplots(figsize=(min(width, 16), 1.1 * (shown_depth + 1) + 0.4))
    for lab, ps in tree._parents.items():
        if lab in folded:
            continue
        for k, p in enumerate(ps):
            if p in folded:
                continue
            (x0, y0), (x1, y1) = pos[p], pos[lab]
            ax.plot([x0, x1], [y0, y1], color="0.45", lw=1, ls="-" if k == 0 else "--", zorder=1)
    for key, (x, y) in pos.items():
        if key not in tree._index:  # a folded group "+n@parent"
            count, parent = key.split("@", 1)
            px, py = pos[parent]
            ax.plot([px, x], [py, y], color="0.6", lw=1, ls=":", zorder=1)
            shown, color, ec = count, "white", "0.6"
        else:
            shown = key if text is None else str(text(key))
            color, ec = (highlight_color if key in high else node_color), "0.3"
        ax.text(x, y, shown, ha="center", va="center", fontsize=fontsize, zorder=3,
                bbox=dict(boxstyle="round,pad=0.25", fc=color, ec=ec, lw=0.8))
        if key in annotate:
            ax.text(x, y - 0.3, annotate[key], ha="center", va="top", fontsize=fontsize * 0.8, color="0.15",
                    zorder=4, bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none", alpha=0.85))
    xs = [x for x, _ in pos.values()]
    ax.set_xlim(min(xs) - 0.8, max(xs) + 0.8)
    ax.set_ylim(-shown_depth - 0.9, 0.5)
    ax.set_yticks([-d for d in range(shown_depth + 1)])
    ax.set_yticklabels([str(d) for d in range(shown_depth + 1)])
    ax.set_ylabel("depth (edges from the root)")
    ax.set_xticks([])
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    return ax
