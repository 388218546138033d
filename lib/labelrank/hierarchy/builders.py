"""Label trees from structured label names: F-term codes of one patent theme (viewpoints, elements, sub-elements by
dot level) and separator-structured names such as Enron's ``A.A1``. Each returns a parent map for
:meth:`labelrank.hierarchy.LabelTree.from_parents`; the tree's :meth:`~labelrank.hierarchy.LabelTree.from_fterms` and
:meth:`~labelrank.hierarchy.LabelTree.from_paths` call them."""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from labelrank.validation import describe_value
from labelrank.hierarchy.io import _check_label

_FTERM_ELEMENT = re.compile(r"^([A-Z]{2})(\d{2})$")
_FTERM_VIEWPOINT = re.compile(r"^[A-Z]{2}$")


def fterm_parents(theme: str, codes: Iterable[str | tuple[str, int]]) -> dict[str, str | None]:
    """The parent map of :meth:`labelrank.hierarchy.LabelTree.from_fterms` (see there)."""
    _check_label(theme, "theme")
    if isinstance(codes, (str, bytes)):
        raise TypeError(f"codes must be an iterable of F-term codes, got the single string {describe_value(codes)}")
    parents: dict[str, str | None] = {theme: None}
    listed_viewpoints: set[str] = set()  # viewpoints the caller listed, not those an element created
    last_at_level: dict[str, list[str]] = {}  # viewpoint -> stack of the latest element at each dot level
    for item in codes:
        if isinstance(item, tuple):
            if len(item) != 2:
                raise ValueError(f"an F-term (code, dots) pair must have 2 items, got {describe_value(item)}")
            code, dots = item
            _check_label(code, "an F-term code")
            if isinstance(dots, bool) or not isinstance(dots, (int, np.integer)):
                raise TypeError(f"the dot level of {describe_value(code)} must be an integer, got {describe_value(dots)}")
            if dots < 0:
                raise ValueError(f"the dot level of {describe_value(code)} must be >= 0, got {dots}")
            dots = int(dots)
            raw = code
        else:
            _check_label(item, "an F-term code")
            stripped = item.lstrip(".・")
            dots = len(item) - len(stripped)
            code = stripped
            raw = item
        code = code.strip()
        if code.startswith(theme) and len(code) > len(theme):
            code = code[len(theme):]
        if code.endswith("00") and _FTERM_ELEMENT.match(code):
            code = code[:2]  # "AA00" is the viewpoint's heading in the JPO list
        if _FTERM_VIEWPOINT.match(code):
            if dots:
                raise ValueError(f"viewpoint {describe_value(raw)} cannot have a dot level, got {dots}")
            if code in listed_viewpoints:
                raise ValueError(
                    f"duplicate F-term code {describe_value(raw)} (viewpoint {describe_value(code)} listed twice)"
                )
            if code == theme:
                raise ValueError(f"viewpoint {describe_value(raw)} collides with the theme {describe_value(theme)}")
            listed_viewpoints.add(code)
            parents.setdefault(code, theme)  # an element listed before its viewpoint has created it already
            last_at_level.setdefault(code, [])
            continue
        m = _FTERM_ELEMENT.match(code)
        if not m:
            raise ValueError(
                f"malformed F-term code {describe_value(raw)}: expected two capital letters and two digits "
                "such as 'AA01' "
                f"(optionally prefixed by the theme {describe_value(theme)}), or a viewpoint such as 'AA'"
            )
        viewpoint = m.group(1)
        if code in parents:
            raise ValueError(f"duplicate F-term code {describe_value(raw)}")
        if viewpoint not in parents:
            parents[viewpoint] = theme
        stack = last_at_level.setdefault(viewpoint, [])
        if dots > len(stack):
            raise ValueError(
                f"F-term {describe_value(raw)} has {dots} dot(s) but no preceding element of viewpoint "
                f"{describe_value(viewpoint)} "
                f"has {dots - 1}; list codes in the order of the JPO code list"
            )
        parents[code] = viewpoint if dots == 0 else stack[dots - 1]
        del stack[dots:]
        stack.append(code)
    return parents


def path_parents(labels: Iterable[str], sep: str = ".", root: str = "root") -> dict[str, str | None]:
    """The parent map of :meth:`labelrank.hierarchy.LabelTree.from_paths` (see there)."""
    _check_label(root, "root")
    if not isinstance(sep, str) or not sep:
        raise ValueError(f"sep must be a non-empty string, got {describe_value(sep)}")
    if isinstance(labels, (str, bytes)):
        raise TypeError(f"labels must be an iterable of label names, got the single string {describe_value(labels)}")
    parents: dict[str, str | None] = {root: None}
    listed: set[str] = set()  # labels the caller listed, not the ancestors created for them
    for label in labels:
        _check_label(label, "a label")
        if label == root:
            raise ValueError(f"label {describe_value(label)} collides with the root's name; pass another root=")
        if label in listed:
            raise ValueError(f"duplicate label {describe_value(label)}")
        listed.add(label)
        chain = label.split(sep)
        if any(part == "" for part in chain):
            raise ValueError(f"label {describe_value(label)} has an empty part between separators {describe_value(sep)}")
        prefix = None
        for k in range(1, len(chain) + 1):
            name = sep.join(chain[:k])
            if name not in parents:
                parents[name] = root if prefix is None else prefix
            prefix = name
    return parents
