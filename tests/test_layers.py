"""The layers of DESIGN.md: one direction of imports, no cycles, and a reference that never
reaches the core or the chooser (not even inside a function)."""

import ast
import pathlib
import re

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "ddz"

#: DESIGN.md's layers, top first: a module may import only modules listed before it
ORDER = ["errors", "cards", "rules", "play", "_args", "reference", "reference_solver", "_compiled", "_core",
        "tables", "_game", "_vector", "playstate", "fast", "moves", "_actions", "actions", "_info", "position",
        "_solver", "solver", "auction", "deal", "render", "game", "interop", "match", "bots", "expert", "movetree",
        "distributed", "terminal", "cli", "__init__",
         "envs.core", "envs.vector", "envs.pettingzoo", "envs.gymnasium", "envs._douzero", "envs.douzero",
         "envs.__init__"]
#: what the reference path may import: the layers above it, never an engine or a table
REFERENCE_PATH = {"errors", "cards", "rules", "play", "_args", "reference", "reference_solver"}


def _imports(path: pathlib.Path):
    """Every ``ddz`` module that a source file imports, at any depth (functions included).
    Modules of the subpackage ``ddz.envs`` are named ``envs.X`` (``envs.__init__``)."""
    text = path.read_text(encoding="utf-8")
    sub = path.parent.name if path.parent != SRC else None
    found = set()
    if path.suffix == ".pyx":
        for m in re.finditer(r"^\s*(?:from|cimport)\s+ddz\.(\w+)|^\s*from\s+ddz\s+import\s+([\w, ]+)", text, re.M):
            found.update(x.strip() for x in (m.group(1) or m.group(2)).split(","))
        for m in re.finditer(r"^\s*from\s+ddz\.(\w+)\s+(?:c?import)", text, re.M):
            found.add(m.group(1))
        return found
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            if sub and node.level == 1:         # a sibling in the subpackage
                if node.module:
                    found.add(f"{sub}.{node.module.split('.')[0]}")
                else:
                    found.update(f"{sub}.{a.name}" for a in node.names)
            elif node.level == 1 or (sub and node.level == 2):
                if node.module:
                    found.add(node.module.split(".")[0])
                else:
                    found.update(a.name for a in node.names)
            elif node.module and node.module.startswith("ddz"):
                parts = node.module.split(".")
                if parts[1:2] == ["envs"]:
                    found.add(".".join(parts[1:3]) if len(parts) > 2 else "envs.__init__")
                else:
                    found.update([parts[1]] if len(parts) > 1 else [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("ddz.envs"):
                    found.add(".".join(a.name.split(".")[1:3]) if a.name.count(".") > 1 else "envs.__init__")
                elif a.name.startswith("ddz."):
                    found.add(a.name.split(".")[1])
    return found


def _graph():
    graph = {}
    for path in sorted(SRC.glob("*.py")) + sorted(SRC.glob("*.pyx")):
        graph[path.stem] = _imports(path) - {path.stem}
    for path in sorted(SRC.glob("envs/*.py")) + sorted(SRC.glob("envs/*.pyx")):
        name = f"envs.{path.stem}"
        graph[name] = _imports(path) - {name}
    return graph


def test_every_module_is_in_the_layer_list():
    assert set(_graph()) == set(ORDER)


@pytest.mark.parametrize("module", ORDER)
def test_imports_only_layers_above(module):
    graph = _graph()
    below = {m for m in graph[module] if m in ORDER and ORDER.index(m) >= ORDER.index(module)}
    assert not below, f"ddz.{module} imports {sorted(below)}, which are not above it in DESIGN.md"


def test_no_import_cycle():
    graph = _graph()
    state = {}

    def visit(m, stack):
        state[m] = "open"
        for n in sorted(graph.get(m, ())):
            if state.get(n) == "open":
                raise AssertionError(f"import cycle: {' -> '.join(stack + [m, n])}")
            if n not in state:
                visit(n, stack + [m])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def test_the_reference_path_reaches_no_engine():
    graph = _graph()
    for m in REFERENCE_PATH:
        assert graph[m] <= REFERENCE_PATH, (m, sorted(graph[m] - REFERENCE_PATH))
