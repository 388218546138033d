"""The API reference (book/api): a page per public module, and every public function and class documented there
with its parameters and an example (the examples themselves run as doctests: ``--doctest-modules`` in pytest.ini).
"""

import importlib
import inspect
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]

#: module -> the page that documents it (the issue's list, plus the solver and the tests the pages include)
PAGES = {
    "labelrank.hierarchy": "hierarchy", "labelrank.cost": "cost", "labelrank.metrics": "metrics",
    "labelrank.metrics.significance": "metrics", "labelrank.metrics.hemkit": "metrics",
    "labelrank.features": "features", "labelrank.distance_kernels": "features", "labelrank.rankers": "rankers",
    "labelrank.rankers.pairwise_svm": "rankers", "labelrank.rankers.simplex_qp": "rankers", "labelrank.meta_ranker": "meta_ranker",
    "labelrank.baselines": "baselines", "labelrank.logistic": "baselines", "labelrank.threshold": "threshold", "labelrank.parameters": "parameters", "labelrank.validation": "parameters", "labelrank.protocol": "protocol",
    "labelrank.cache": "protocol", "labelrank.datasets": "datasets",
    "labelrank.paths": "datasets", "labelrank.optional": "datasets",
    "labelrank.cli": "cli", "labelrank.runfiles": "cli", "labelrank.evaluation": "cli",
    "labelrank.comparison": "cli", "labelrank.textcolumns": "cli",
}


def _public(module):
    mod = importlib.import_module(module)
    assert hasattr(mod, "__all__"), f"{module} has no __all__: autodoc would document nothing it re-exports"
    for name in mod.__all__:
        obj = getattr(mod, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            yield name, obj


def _takes_arguments(obj) -> bool:
    if inspect.isclass(obj) and issubclass(obj, Exception):
        return False
    try:
        return any(p != "self" for p in inspect.signature(obj).parameters)
    except (TypeError, ValueError):
        return False


def test_every_public_module_has_a_page_in_the_toc():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    api = next(part for part in toc["parts"] if part["caption"] == "API reference")
    pages = {section["file"] for section in api["chapters"][0]["sections"]}
    for module, page in PAGES.items():
        assert f"book/api/{page}" in pages, page
        text = (ROOT / "book" / "api" / f"{page}.md").read_text(encoding="utf-8")
        assert re.search(rf"^\.\. automodule:: {re.escape(module)}$", text, flags=re.M), (module, page)


#: modules whose page carries one worked example (the module's docstring) rather than one per object: the engine,
#: whose functions take a protocol's data and cache, and whose example builds a protocol from its public names
WORKED_EXAMPLE_ONLY = {"labelrank.protocol"}


def _has_example(doc: str) -> bool:
    return bool(re.search(r"^Examples\n-{8}\n", doc, flags=re.M)) and ">>> " in doc


@pytest.mark.parametrize("module", sorted(PAGES))
def test_public_objects_have_parameters_and_an_example(module):
    missing = []
    if module in WORKED_EXAMPLE_ONLY and not _has_example(inspect.getdoc(importlib.import_module(module)) or ""):
        missing.append("the module: no Examples section with a doctest")
    for name, obj in _public(module):
        doc = inspect.getdoc(obj) or ""
        if module not in WORKED_EXAMPLE_ONLY and not _has_example(doc):
            missing.append(f"{name}: no Examples section with a doctest")
        described = re.search(r"^(Parameters|Attributes)\n-{3,}\n", doc, flags=re.M) or re.search(
            r"Parameters and return value as in", doc)
        if _takes_arguments(obj) and not described:
            missing.append(f"{name}: no Parameters (or Attributes) section")
    assert not missing, f"{module}:\n" + "\n".join(missing)
