"""The project's tree file format (a YAML parent map) and label checks: reading with a strict loader (duplicate
labels and aliases refused), writing with scalars that read back as the same strings."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from labelrank.validation import describe_value, shorten

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when PyYAML was built with it


class _TreeLoader(_SafeLoader):  # type: ignore[misc, valid-type]
    """The YAML loader of tree files: safe, and stricter than plain YAML where a tree file could mislead.

    A mapping with the same key twice is an error (plain PyYAML keeps the last silently), and so is an alias
    (``*name``): a parent map never needs one, and nested aliases ("billion laughs") make a small file describe
    an exponentially large object.
    """

    def construct_document(self, node: yaml.Node) -> Any:
        seen: set[int] = set()
        stack = [node]
        while stack:
            x = stack.pop()
            if id(x) in seen:
                raise ValueError(f"YAML aliases (*name) are not allowed in a tree file: the node defined on line "
                                 f"{x.start_mark.line + 1} is used again through an alias; write every parent out")
            seen.add(id(x))
            if isinstance(x, yaml.MappingNode):
                stack.extend(n for pair in x.value for n in pair)
            elif isinstance(x, yaml.SequenceNode):
                stack.extend(x.value)
        return super().construct_document(node)


def _construct_unique_mapping(loader: _TreeLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise ValueError(
                f"duplicate label {describe_value(key)} in the tree file (lines {seen[key] + 1} and "
                f"{key_node.start_mark.line + 1})"
            )
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_TreeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_unique_mapping)


def _check_label(label: Any, what: str) -> str:
    if not isinstance(label, str):
        hint = " (quote it in YAML: '0101')" if isinstance(label, (int, float)) else ""
        raise TypeError(f"{what} must be a string, got {describe_value(label)}{hint}")
    if not label:
        raise ValueError(f"{what} must be a non-empty string, got {describe_value(label)}")
    try:
        label.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: no file can hold it
        raise ValueError(f"{what} must be Unicode text, got {label!r} (a lone surrogate "
                         f"U+{ord(label[exc.start]):04X} at {exc.start})") from None
    return label


def read_parent_map(path: str | os.PathLike) -> Mapping[str, Any]:
    """The parent map of a tree file (see :meth:`labelrank.hierarchy.LabelTree.from_file`)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"tree file {str(path)!r} {_why_not_a_file(path)}")
    with path.open("rb") as fh:  # bytes: YAML reads the encoding from a byte-order mark
        try:
            data = yaml.load(fh, Loader=_TreeLoader)  # noqa: S506 (a SafeLoader subclass)
        except yaml.YAMLError as exc:
            problem = " ".join(str(exc).split())
            raise ValueError(f"tree file {str(path)!r} is not valid YAML: {shorten(problem, 300)}") from None
    if isinstance(data, Mapping) and isinstance(data.get("parents"), Mapping):
        data = data["parents"]
    if not isinstance(data, Mapping):
        raise ValueError(f"tree file {str(path)!r} must hold a YAML mapping label -> parent, got {describe_value(data)}")
    return data


#: Labels that PyYAML may write in its own style; any other is written double-quoted (:func:`_yaml_scalar`).
_PLAIN_SAFE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-/]*")
#: YAML's bound on an implicit key's length; a longer key is written as an explicit key (``? key``).
MAX_IMPLICIT_KEY = 1024


def _yaml_scalar(label: str) -> str:
    """``label`` as a YAML scalar on one line that reads back as the same string.

    Never folded (PyYAML folds long scalars over lines at 80 characters by default). A label of ASCII letters,
    digits and ``_ . - /`` is left to PyYAML, which quotes the ones that would read as another type (``null``,
    ``0101``); any other is double-quoted with escapes: PyYAML's emitter would write some of them plain where its own
    reader then reads them otherwise (a line break as a space, ``=`` as a tag, a leading no-break space before
    ``>`` as a block scalar).
    """
    style = None if _PLAIN_SAFE.fullmatch(label) else '"'
    dumped = yaml.safe_dump(label, default_flow_style=True, default_style=style, width=float("inf"),
                            allow_unicode=True).strip()
    if dumped.endswith("..."):
        dumped = dumped[: -3].strip()
    return dumped


def _mapping_line(key: str, value: str) -> str:
    """One entry of a YAML mapping: ``key: value``, or for a key longer than YAML's implicit-key bound the explicit
    form ``? key`` then ``: value``.

    Examples
    --------
    >>> _mapping_line("'a'", "'r'")
    "'a': 'r'"
    """
    return f"? {key}\n: {value}" if len(key.encode("utf-8")) > MAX_IMPLICIT_KEY - 4 else f"{key}: {value}"


def _yaml_value(p: str | list[str] | None) -> str:
    if p is None:
        return "null"
    if isinstance(p, str):
        return _yaml_scalar(p)
    return "[" + ", ".join(_yaml_scalar(x) for x in p) + "]"


def _why_not_a_file(path: Path) -> str:
    """What stands at ``path`` instead of a regular file, for a message."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "is a symbolic link to nothing" if path.is_symlink() else "does not exist"
    except OSError as exc:  # a symbolic link loop, a path through a file, no permission
        return f"cannot be opened ({exc.strerror or exc})"
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    kind = "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or \
        stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file"
    return f"is {kind}, not a regular file"
