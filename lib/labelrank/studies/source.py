"""The library's code as a chapter shows it: highlighted Python source without its docstring.

A chapter prints the function it explains with :func:`show_source`. The docstring is left out (the API reference
keeps it in full), so the reader sees the few lines that compute; the source is the library's own, read from the
installed module, so the book can never show code that is not the code that ran.

Examples
--------
>>> from labelrank.cost import path_distance
>>> print(source_text(path_distance).splitlines()[0])
def path_distance(tree: LabelTree, key: str, response: str) -> int:
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

__all__ = ["show_source", "source_text"]


def _unwrapped(obj: Any) -> Any:
    """The Python function behind a compiled (numba) dispatcher, a property's getter, or ``obj`` itself."""
    if hasattr(obj, "py_func"):
        return obj.py_func
    if isinstance(obj, property):
        return obj.fget
    return obj


def source_text(obj: Any, *, docstring: bool = False) -> str:
    """The source of a function, method or class, dedented, its own docstring (and its methods' for a class)
    left out unless ``docstring=True``.

    Parameters
    ----------
    obj : function, method, class, property or numba dispatcher
    docstring : bool
        Keep the docstrings.

    Returns
    -------
    str

    Examples
    --------
    >>> def f(x):
    ...     '''Twice x.'''
    ...     return 2 * x
    >>> print(source_text(f), end="")
    def f(x):
        return 2 * x
    """
    target = _unwrapped(obj)
    name = getattr(target, "__qualname__", getattr(target, "__name__", repr(target)))
    if name.split(".")[-1].startswith("_") and not name.split(".")[-1].startswith("__"):
        raise ValueError(f"{name} is private: a chapter shows the library's public code")
    text = textwrap.dedent(inspect.getsource(target))
    if docstring:
        return text
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                drop.update(range(first.lineno - 1, first.end_lineno))
    return "".join(line for i, line in enumerate(lines) if i not in drop)


def show_source(*objects: Any, docstring: bool = False) -> Any:
    """The source of each object (:func:`source_text`), highlighted as Python in a notebook's output.

    Parameters
    ----------
    *objects : function, method, class, property or numba dispatcher
    docstring : bool
        Keep the docstrings.

    Returns
    -------
    IPython.display.Code
        Rendered with Python highlighting by Jupyter and Jupyter Book; its ``data`` is the plain text.

    Examples
    --------
    >>> from labelrank.cost import path_distance
    >>> show_source(path_distance).data.startswith("def path_distance")
    True
    """
    from IPython.display import Code

    return Code("\n\n".join(source_text(obj, docstring=docstring).rstrip("\n") for obj in objects) + "\n",
                language="python")
