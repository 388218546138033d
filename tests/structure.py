"""The import structure of the project, read from its source with :mod:`ast` (nothing is imported or run).

Every ``import`` statement of the library, the benchmarks, the scripts and the chapters' code cells is an edge
from the module that holds it to the module it names, at any depth of the code (an import inside a function is
an edge too). On that graph:

* a *private import across packages* names a module or a name that starts with ``_`` (``__future__``-style
  dunders excepted) and belongs to another package than the importer's (``labelrank.rankers`` importing
  ``labelrank._entries`` would cross; ``labelrank.rankers.svm`` importing ``labelrank.rankers._base`` does not);
* an *upward arrow* runs from a lower floor to a higher one (the library is the lowest floor, then the engine
  ``labelrank.protocol``, then the studies ``labelrank.studies``);
* a *circle* is a set of library modules that import one another round (a strongly connected component of more
  than one module), not counting a module's implicit import of the packages above it.

``python tests/structure.py`` prints the counts and every offending edge.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "lib"
PACKAGE = "labelrank"
FLOORS = {"library": 0, "engine": 1, "studies": 2, "outside": 3}
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Import:
    """One import: the importing module (a dotted name, or a file path outside the library), where, and what."""

    importer: str
    path: str
    line: int
    module: str           # the module named (absolute)
    names: tuple[str, ...]  # the names taken from it by ``from module import ...`` (empty for ``import module``)
    star: bool


def module_name(path: Path) -> str:
    """``lib/labelrank/rankers/svm.py`` -> ``labelrank.rankers.svm``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(LIB).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(importer: str, path: str) -> str:
    """The package a module belongs to: itself for a package's ``__init__``, else its parent."""
    if not importer.startswith(PACKAGE):
        return "<outside>"
    return importer if path.endswith("__init__.py") else importer.rpartition(".")[0]


def floor(module: str) -> str:
    """The floor of a module: library, engine (``labelrank.protocol``), studies, or outside the library."""
    if module == f"{PACKAGE}.protocol" or module.startswith(f"{PACKAGE}.protocol."):
        return "engine"
    if module == f"{PACKAGE}.studies" or module.startswith(f"{PACKAGE}.studies."):
        return "studies"
    if module == PACKAGE or module.startswith(f"{PACKAGE}."):
        return "library"
    return "outside"


def _imports_of(tree: ast.AST, importer: str, path: str) -> list[Import]:
    package = package_of(importer, path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(importer, path, node.lineno, alias.name, (), False))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([module] if module else []))
            names = tuple(a.name for a in node.names if a.name != "*")
            found.append(Import(importer, path, node.lineno, module, names, any(a.name == "*" for a in node.names)))
    return found


def sources() -> list[tuple[str, str, str]]:
    """(importer, path relative to the root, source) of every library module, benchmark, script and chapter's
    code cells (the cells of one chapter joined, each line where it is in the file)."""
    found = [(module_name(p), str(p.relative_to(ROOT)), p.read_text()) for p in sorted((LIB / PACKAGE).rglob("*.py"))]
    for folder in ("benchmarks", "scripts"):
        found += [(str(p.relative_to(ROOT)), str(p.relative_to(ROOT)), p.read_text())
                  for p in sorted((ROOT / folder).glob("*.py"))]
    for page in sorted((ROOT / "book").glob("*.md")):
        text = page.read_text()
        lines = [""] * text.count("\n")
        for cell in CELL.finditer(text):
            first = text.count("\n", 0, cell.start(1))
            body = cell.group(1).split("\n")
            head = 0  # the cell's options: ":key: value" lines, or a block between "---" lines
            if body and body[0].strip() == "---":
                head = body.index("---", 1) + 1 if "---" in body[1:] else 0
            while head < len(body) and body[head].startswith(":"):
                head += 1
            for i, line in enumerate(body[head:], head):
                if first + i < len(lines):
                    lines[first + i] = "" if line.lstrip().startswith(("%", "!")) else line
        rel = str(page.relative_to(ROOT))
        found.append((rel, rel, "\n".join(lines)))
    return found


def all_imports() -> list[Import]:
    found = []
    for importer, path, text in sources():
        found += _imports_of(ast.parse(text, filename=path), importer, path)
    return found


def _private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def _is_package(module: str) -> bool:
    return (LIB / module.replace(".", "/") / "__init__.py").exists()


def private_crossings(imports: list[Import]) -> list[tuple[Import, str]]:
    """Each import of a private module or name that belongs to another package than the importer's, with what
    it names."""
    found = []
    for imp in imports:
        if not imp.module.startswith(PACKAGE):
            continue
        package = package_of(imp.importer, imp.path)
        parts = imp.module.split(".")
        for i, part in enumerate(parts):
            if _private(part) and ".".join(parts[:i]) != package:
                found.append((imp, imp.module))
                break
        else:
            owner = imp.module if _is_package(imp.module) else imp.module.rpartition(".")[0]
            for name in imp.names:
                if _private(name) and owner != package:
                    found.append((imp, f"{imp.module}.{name}"))
    return found


def upward_arrows(imports: list[Import]) -> list[Import]:
    """Imports from a lower floor to a higher one."""
    return [imp for imp in imports
            if imp.importer.startswith(PACKAGE) and imp.module.startswith(PACKAGE)
            and FLOORS[floor(imp.module)] > FLOORS[floor(imp.importer)]]


def _targets(imp: Import, modules: set[str]) -> list[str]:
    """The library modules an import reaches directly: the module, or a submodule taken by name."""
    out = []
    if imp.module in modules:
        for name in imp.names:
            if f"{imp.module}.{name}" in modules:
                out.append(f"{imp.module}.{name}")
        if not imp.names or len(out) < len(imp.names):
            out.append(imp.module)
    return out


def circles(imports: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one library module (Tarjan's algorithm), each sorted."""
    modules = {module_name(p) for p in (LIB / PACKAGE).rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for imp in imports:
        if imp.importer in graph:
            for target in _targets(imp, modules):
                # a module's import of a package above it is how Python reaches it, not a dependency of the module
                if target != imp.importer and not imp.importer.startswith(target + "."):
                    graph[imp.importer].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


#: the floors of the package a test layer may import: library tests the library alone; the engine's seam test
#: (``tests/engine/test_engine_seam.py``) shows the engine serving a made-up study without Yang & Gopal's
TEST_LAYER_FLOORS = {"lib": {"library"}}
SEAM_TEST = "tests/engine/test_engine_seam.py"


def test_layer_arrows() -> list[Import]:
    """Imports of a test that reach above its layer: a library test (``tests/lib``) importing the engine or a study,
    or the engine's seam test importing a study."""
    found = []
    for layer, allowed in TEST_LAYER_FLOORS.items():
        for p in sorted((ROOT / "tests" / layer).glob("*.py")):
            rel = str(p.relative_to(ROOT))
            for imp in _imports_of(ast.parse(p.read_text(), filename=rel), rel, rel):
                if floor(imp.module) not in allowed | {"outside"}:
                    found.append(imp)
    seam = ROOT / SEAM_TEST
    found += [imp for imp in _imports_of(ast.parse(seam.read_text(), filename=SEAM_TEST), SEAM_TEST, SEAM_TEST)
              if floor(imp.module) == "studies"]
    return found


def module_lengths() -> list[tuple[int, str]]:
    """(lines, path) of every library module, longest first."""
    return sorted(((len(p.read_text().splitlines()), str(p.relative_to(ROOT)))
                   for p in (LIB / PACKAGE).rglob("*.py")), reverse=True)


def main() -> int:
    imports = all_imports()
    crossings = private_crossings(imports)
    print(f"private imports across packages: {len(crossings)} ({len({w for _, w in crossings})} distinct names)")
    for imp, what in crossings:
        print(f"  {imp.path}:{imp.line}: {what}")
    stars = [imp for imp in imports if imp.star]
    print(f"star imports: {len(stars)}")
    for imp in stars:
        print(f"  {imp.path}:{imp.line}: from {imp.module} import *")
    arrows = upward_arrows(imports)
    print(f"upward arrows: {len(arrows)}")
    for imp in arrows:
        print(f"  {imp.path}:{imp.line}: {imp.importer} -> {imp.module}")
    found = circles(imports)
    print(f"circles: {len(found)}")
    for component in found:
        print("  " + " <-> ".join(component))
    tests = test_layer_arrows()
    print(f"test imports above their layer: {len(tests)}")
    for imp in tests:
        print(f"  {imp.path}:{imp.line}: {imp.module}")
    lengths = module_lengths()
    print("longest modules: " + ", ".join(f"{path} ({n})" for n, path in lengths[:5]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
