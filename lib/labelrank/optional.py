"""Optional dependencies: which extra of ``pip install labelrank[...]`` brings each one.

``pip install labelrank`` installs only what the evaluation API needs (numpy, scipy, pandas, scikit-learn, PyYAML):
:mod:`labelrank.hierarchy`, :mod:`labelrank.cost`, :mod:`labelrank.metrics`, :mod:`labelrank.threshold`, the
baselines other than Rank-SVM, and ``labelrank score``. The rest comes with an extra, and code that needs a missing
one raises an :class:`ImportError` that names the extra to install (:func:`require`).
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require", "PROVIDERS", "ENGINE_MODULES"]

#: What the experiment engine (:mod:`labelrank.protocol`) needs beyond the core: the ``protocol`` extra.
ENGINE_MODULES = ("tqdm", "filelock", "numba", "lightgbm", "pynndescent", "pooch", "arff", "snowballstemmer")

#: module -> (the distribution that provides it, the extra of labelrank that installs it)
PROVIDERS: dict[str, tuple[str, str]] = {
    "numba": ("numba", "rank"),
    "lightgbm": ("lightgbm", "rank"),
    "pynndescent": ("pynndescent", "rank"),
    "pooch": ("pooch", "data"),
    "requests": ("requests", "data"),
    "arff": ("liac-arff", "data"),
    "snowballstemmer": ("snowballstemmer", "data"),
    "tqdm": ("tqdm", "protocol"),
    "filelock": ("filelock", "protocol"),
    "dask": ("dask[distributed]", "dask"),
    "distributed": ("dask[distributed]", "dask"),
    "matplotlib": ("matplotlib", "plot"),
}


def require(module: str, needed_by: str, extra: str | None = None) -> ModuleType:
    """Import ``module``, or raise an ImportError that says which extra of labelrank installs it.

    Parameters
    ----------
    module : str
        The module to import, e.g. ``"numba"`` or ``"dask.distributed"``; its top-level package must be one of
        :data:`PROVIDERS`.
    needed_by : str
        What needs it, for the message (e.g. ``"labelrank.features"``).
    extra : str, optional
        The extra to advise, when the caller needs a larger one than the module's own (the experiment engine asks
        for ``protocol``, which brings ``rank`` and ``data`` too).

    Returns
    -------
    module
        The imported module.

    Raises
    ------
    ImportError
        When the module cannot be imported; the message names the distribution and the extra, e.g.
        ``pip install 'labelrank[rank]'``.
    KeyError
        When the top-level package of ``module`` is not an optional dependency of labelrank.

    Examples
    --------
    >>> require("numba", "labelrank.features").__name__
    'numba'
    """
    top = module.split(".")[0]
    distribution, own_extra = PROVIDERS[top]
    extra = own_extra if extra is None else extra
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{needed_by} needs {distribution}, an optional dependency of labelrank that is not installed: "
            f"pip install 'labelrank[{extra}]' (or pip install {distribution}); missing module: {exc.name or module}"
        ) from exc
