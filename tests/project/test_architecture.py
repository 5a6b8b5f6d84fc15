"""The layout holds: every module sits in a layer package, imports point downwards, and nothing forms a circle.

The layers and their order are written once, in ``docs/design.md`` (the block after "## Layers");
this file reads them from there, so the document and the check cannot drift apart. Imports are
found with ``ast`` in the whole module, inside functions too (an import deferred for start-up time
is still a dependency); only ``if TYPE_CHECKING:`` blocks are left out, since they never run.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from ..conftest import ROOT as REPOSITORY

PACKAGE = REPOSITORY / "src" / "sudokulab"
DESIGN = REPOSITORY / "docs" / "design.md"

TOP_LEVEL = {"sudokulab", "sudokulab.__main__", "sudokulab.errors"}
"""The modules outside every layer: the public face (lazy), ``python -m``, and the exceptions every layer raises."""


def layers() -> list[str]:
    """The layer packages from the lowest to the highest, as docs/design.md lists them."""
    text = DESIGN.read_text("utf-8")
    block = text.split("## Layers", 1)[1].split("```", 2)[1]
    return re.findall(r"^\s*\d+\.\s+([a-z_]+)/", block, flags=re.M)


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its text (not under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text("utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped = _type_checking_nodes(tree)
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    found = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name and target != "sudokulab":
            found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and module not in TOP_LEVEL else None


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return groups


def test_the_layers_are_listed_in_the_design_document():
    order = layers()
    assert order[:3] == ["core", "formats", "execution"], order
    assert order[-1] == "cli"
    on_disk = {path.parent.name for path in PACKAGE.glob("*/__init__.py")} - {"schemas"}
    assert set(order) == on_disk


def test_every_module_lives_in_a_layer_package():
    loose = [name for name in modules() if layer_of(name) is None and name not in TOP_LEVEL]
    assert loose == []
    stray = [name for name in modules() if layer_of(name) is not None and layer_of(name) not in layers()]
    assert stray == []


@pytest.mark.slow
def test_no_import_circles_between_modules():
    assert cycles(graph()) == []


@pytest.mark.slow
def test_no_import_circles_between_packages():
    edges: dict[str, set[str]] = defaultdict(set)
    for source, targets in graph().items():
        for target in targets:
            a, b = source.rpartition(".")[0] or source, target.rpartition(".")[0] or target
            if a != b and not target.startswith(a + ".") and not source.startswith(b + "."):
                edges[a].add(b)
    assert cycles(edges) == []


@pytest.mark.slow
def test_imports_point_downwards():
    rank = {name: i for i, name in enumerate(layers())}
    upward = []
    for source, targets in graph().items():
        if layer_of(source) is None:
            continue
        for target in targets:
            if layer_of(target) is not None and rank[layer_of(target)] > rank[layer_of(source)]:
                upward.append(f"{source} -> {target}")
    assert upward == []


def test_no_module_is_reached_through_sys_modules_by_name():
    offenders = [name for name, path in modules().items()
                 if re.search(r"sys\.modules(\.get)?\s*[\[(]\s*f?[\"']", path.read_text("utf-8"))]
    assert offenders == []


def test_every_module_is_listed_in_the_design_document():
    """Each module by its path under ``src/sudokulab/`` (``core/grid.py``), so a new one is placed on purpose."""
    text = DESIGN.read_text("utf-8")
    missing = [str(path.relative_to(PACKAGE)) for name, path in modules().items()
               if name not in TOP_LEVEL and path.name != "__init__.py"
               and str(path.relative_to(PACKAGE)) not in text]
    assert missing == []


def test_every_layer_says_what_it_holds_and_what_it_may_import():
    for layer in layers():
        doc = ast.get_docstring(ast.parse((PACKAGE / layer / "__init__.py").read_text("utf-8"))) or ""
        assert len(doc.split()) >= 20, layer
        assert "import" in doc, layer


@pytest.mark.parametrize("edges, expected", [
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
])
def test_the_cycle_finder_finds_circles(edges, expected):
    assert cycles(edges) == expected


# --- inside solvers/: a folder per paradigm ------------------------------------------------------------------

PARADIGM_EXCEPTIONS = {("cpmpy", "cpsat")}
"""(importer, imported) paradigm pairs allowed: cpmpy runs OR-Tools with the parameters cpsat tuned for Sudoku
(``cpsat.solver.TUNED``), one table rather than two copies of it."""


def paradigms() -> list[str]:
    return sorted(path.parent.name for path in (PACKAGE / "solvers").glob("*/__init__.py")
                  if path.parent.name != "propagation")


def paradigm_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[1] == "solvers" and parts[2] in paradigms() else None


def model_modules() -> set[str]:
    """The modules docs/design.md marks ``[model]``: they build a problem and solve nothing."""
    text = DESIGN.read_text("utf-8")
    marked = re.findall(r"^\s*(solvers/[\w/]+)\.py\s+\[model\]", text, flags=re.M)
    return {"sudokulab." + path.replace("/", ".") for path in marked}


def test_every_paradigm_folder_has_a_model_or_says_why_not():
    """Each marked model module exists; every paradigm but the two hand-written searches has one."""
    known = modules()
    models = model_modules()
    assert models and models <= set(known), sorted(models - set(known))
    with_models = {paradigm_of(name) for name in models}
    assert set(paradigms()) - with_models == {"backtrack"}, "a paradigm whose model is not marked [model]"


@pytest.mark.slow
def test_a_model_module_imports_no_solver_module():
    """Inside a paradigm, the model builds the problem and runs nothing: a lesson prints the clauses without an
    engine. A model may import other model modules, the shared modules of solvers/ and the layers below."""
    edges = graph()
    models = model_modules()
    wrong = [f"{model} -> {target}" for model in sorted(models) for target in sorted(edges[model])
             if paradigm_of(target) is not None and target not in models and not target.endswith(".__init__")
             and target != f"sudokulab.solvers.{paradigm_of(target)}"]
    assert wrong == []


@pytest.mark.slow
def test_no_paradigm_imports_another():
    edges = graph()
    crossing = sorted({(paradigm_of(source), paradigm_of(target)) for source, targets in edges.items()
                       for target in targets if paradigm_of(source) and paradigm_of(target)
                       and paradigm_of(source) != paradigm_of(target)})
    assert set(crossing) <= PARADIGM_EXCEPTIONS, crossing


@pytest.mark.slow
def test_the_shared_modules_of_solvers_import_no_paradigm():
    edges = graph()
    shared = [name for name in edges if name.startswith("sudokulab.solvers") and paradigm_of(name) is None]
    wrong = [f"{source} -> {target}" for source in sorted(shared) for target in sorted(edges[source])
             if paradigm_of(target) is not None]
    assert wrong == []
