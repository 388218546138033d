"""MULAN's ARFF + XML data sets (emotions, scene, yeast, enron) and enron's two-level label tree."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

from labelrank.optional import require
from labelrank.datasets.download import fetch
from labelrank.datasets.registry import _MULAN_NAMES, _Y_DTYPE, _dataset

# --------------------------------------------------------------------------------------------------------------
# MULAN ARFF + XML
# --------------------------------------------------------------------------------------------------------------


def _mulan_label_names(xml_path: Path) -> list[str]:
    """Label names declared in a MULAN ``.xml`` file (in the file's order)."""
    root = ET.parse(xml_path).getroot()
    return [el.attrib["name"] for el in root.iter() if el.tag.rsplit("}", 1)[-1] == "label"]


def mulan_xml_labels(name: str) -> list[str]:
    """The label names a MULAN data set's ``.xml`` file declares, in the file's order.

    This order need not be the order of the label columns in the ARFF files (for yeast it is not); :func:`load`
    selects the label columns by these names and orders them as the ARFF file declares them.

    Parameters
    ----------
    name : {"emotions", "scene", "yeast", "enron"}

    Examples
    --------
    >>> mulan_xml_labels("yeast")[:3]
    ['Class1', 'Class2', 'Class3']
    """
    if name not in _MULAN_NAMES:
        _dataset(name)
        raise ValueError(f"name must be a MULAN data set {_MULAN_NAMES}, got name={name!r}")
    return _mulan_label_names(fetch(name) / f"{name}.xml")


def _parse_mulan(folder: Path, name: str, split: str, *, hashes=(), version=0):
    """Parse ``<name>-<split>.arff`` with liac-arff; labels are the attributes the ``.xml`` names."""
    arff = require("arff", "reading MULAN's ARFF files")

    xml_labels = _mulan_label_names(folder / f"{name}.xml")
    with open(folder / f"{name}-{split}.arff", encoding="utf-8") as fh:
        data = arff.load(fh, return_type=arff.DENSE)
    attributes = [a for a, _ in data["attributes"]]
    missing = sorted(set(xml_labels) - set(attributes))
    if missing:
        raise ValueError(f"{name}.xml names labels absent from {name}-{split}.arff: {missing}")
    is_label = np.array([a in set(xml_labels) for a in attributes])
    values = np.array(data["data"], dtype=object)
    if any(v is None for v in values.ravel()):
        raise ValueError(f"{name}-{split}.arff has missing values")
    values = values.astype(float)  # nominal {0,1} attributes arrive as the strings '0'/'1'
    X = np.ascontiguousarray(values[:, ~is_label])
    Y = values[:, is_label]
    if not np.isin(Y, (0.0, 1.0)).all():
        raise ValueError(f"label columns of {name}-{split}.arff are not 0/1")
    # Label order: as the ARFF declares the attributes (MULAN's own convention), each selected by its name.
    label_names = [a for a, lab in zip(attributes, is_label) if lab]
    return X, Y.astype(_Y_DTYPE), label_names



# --------------------------------------------------------------------------------------------------------------
# enron's label tree
# --------------------------------------------------------------------------------------------------------------

ENRON_ROOT = "enron"
_ENRON_TOPS = ("A", "B", "C", "D")  # the four top categories, numbered 1 ... 4 in categories.txt


def enron_label_parents() -> dict[str, str | None]:
    """Enron's two-level label tree as a parent map ``{label: parent}``.

    The 53 labels ``A.A1`` ... ``D.D19`` hang below their top category ``A``, ``B``, ``C`` or ``D`` (coarse genre,
    included/forwarded information, primary topics, emotional tone; see :func:`enron_categories`), and these four
    below one root ``"enron"`` whose parent is ``None`` (the input of ``LabelTree.from_parents``). It is
    ``LabelTree.from_paths(labels, root="enron").to_parents()`` of the labels ``enron.xml`` declares.

    Raises
    ------
    ValueError
        If a label is not ``<top>.<code>`` with ``top`` one of A, B, C, D.

    Examples
    --------
    >>> parents = enron_label_parents()
    >>> len(parents), parents["A.A1"], parents["A"], parents["enron"]
    (58, 'A', 'enron', None)
    """
    from labelrank.hierarchy import (
        LabelTree,  # here: hierarchy is not needed to load data
    )

    labels = mulan_xml_labels("enron")
    for label in labels:
        top, sep, code = label.partition(".")
        if not sep or top not in _ENRON_TOPS or not code or "." in code:
            raise ValueError(f"enron.xml: label {label!r} is not of the form <A-D>.<code>")
    return LabelTree.from_paths(labels, root=ENRON_ROOT).to_parents()


def enron_categories() -> dict[str, str]:
    """Descriptions of enron's categories from ``categories.txt``: ``{"A": "Coarse genre", "A.A1": "Company
    Business, Strategy, etc. ...", ...}`` (the file numbers them 1 ... 4 and 1.1 ... 4.19).

    Examples
    --------
    >>> categories = enron_categories()
    >>> len(categories), categories["A"]
    (57, 'Coarse genre')
    """
    return _parse_enron_categories((fetch("enron") / "categories.txt").read_text(encoding="utf-8"))


def _parse_enron_categories(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        m = re.match(r"^\s*(\d+)(?:\.(\d+))?\s+(.+?)\s*$", line)
        if not m:
            continue
        number = int(m[1])
        if not 1 <= number <= len(_ENRON_TOPS):
            raise ValueError(
                f"categories.txt line {lineno}: top category {m[1]!r} is not one of 1 ... {len(_ENRON_TOPS)} "
                f"(A-D): {line.strip()!r}"
            )
        top = _ENRON_TOPS[number - 1]
        out[top if m[2] is None else f"{top}.{top}{m[2]}"] = m[3]
    return out
