"""The layers of DESIGN.md as packages: one direction of imports between them, no cycle
among modules, no read of another package's underscore name, short import chains, small
modules, a reason beside every import made inside a function, and a reference that never
reaches the compiled core or the chooser (not even inside a function)."""

import ast
import collections
import functools
import pathlib
import re

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "ddz"

#: DESIGN.md's layers, lowest first: a module may import only modules of its own layer or
#: of layers listed before it. A package is a layer; so is each module of ``ddz`` itself
#: (``ddz`` is ``src/ddz/__init__.py``, the public API).
LAYERS = ["errors", "old_paths", "core", "game", "search", "version", "interop", "envs", "neural", "train", "distributed",
          "terminal", "ddz", "arena", "web", "cli", "__main__"]
#: the one import against the direction, inside a function: ``Game._repr_html_`` (a
#: notebook's view) draws with ``ddz.web.cards``, the SVG card component of ``ddz serve``,
#: which stays in ``ddz.web`` because that package reads the rest of ddz only through the
#: public names of ``import ddz`` (tests/test_web.py)
UPWARD_ALLOWED = {("game.state", "web.cards")}
#: what the reference path may import: the modules below it, never an engine or a table
REFERENCE_PATH = {"errors", "core.cards", "core.rules", "core.play", "core.arguments", "core.reference",
                  "search.reference_solver"}


def _name(path: pathlib.Path) -> str:
    """``core.cards`` for ``src/ddz/core/cards.py``; ``core`` for ``core/__init__.py``;
    ``ddz`` for ``src/ddz/__init__.py``."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or "ddz"


def _modules():
    # a .pxd of its own (inline C that several extensions cimport) is a module too; where a
    # .pyx of the same name exists, the .pyx stands for both
    return {_name(p): p for p in sorted(SRC.rglob("*.pxd")) + sorted(SRC.rglob("*.py")) + sorted(SRC.rglob("*.pyx"))
            if "static" not in p.parts}


def _target(dotted: str, modules) -> str:
    """The module (a name of :func:`_modules`) that ``ddz.<dotted>`` is."""
    dotted = dotted or "ddz"
    while dotted not in modules and "." in dotted:
        dotted = dotted.rpartition(".")[0]
    return dotted


def _imports(path: pathlib.Path, modules, module_level_only: bool = False):
    """Every ``ddz`` module that a source file imports: at any depth (functions included),
    or at module level only (what runs on import: not in a function, not under
    ``if TYPE_CHECKING``)."""
    text = path.read_text(encoding="utf-8")
    me = _name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    package = "" if package == "ddz" else package
    found = set()

    def add(base: str, names=()):
        base = base[len("ddz."):] if base.startswith("ddz.") else ("" if base == "ddz" else base)
        hit = False
        for n in names:
            full = f"{base}.{n}" if base else n
            if full in modules:
                found.add(full)
                hit = True
        if not hit:
            found.add(_target(base, modules))

    if path.suffix in (".pyx", ".pxd"):
        lines = text.splitlines()
        for m in re.finditer(r"^([ \t]*)(?:from\s+(ddz[\w.]*)\s+c?import\s+([\w, ()]+)|c?import\s+(ddz[\w.]*))", text, re.M):
            if module_level_only and m.group(1):
                continue
            if m.group(2):
                add(m.group(2), [x.strip(" ()") for x in m.group(3).split(",")])
            else:
                add(m.group(4))
        return found - {me}

    def visit(body, top):
        for node in body:
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".") if package else []
                    parts = parts[:len(parts) - (node.level - 1)]
                    base = ".".join(parts + ([node.module] if node.module else []))
                    add("ddz." + base if base else "ddz", [a.name for a in node.names])
                elif node.module and (node.module == "ddz" or node.module.startswith("ddz.")):
                    add(node.module, [a.name for a in node.names])
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "ddz" or a.name.startswith("ddz."):
                        add(a.name)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                if not module_level_only:
                    visit(node.body, False)
                continue
            elif isinstance(node, ast.If) and module_level_only and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            for field in ("body", "orelse", "finalbody", "handlers"):
                visit(getattr(node, field, []) or [], top)

    visit(ast.parse(text).body, True)
    return found - {me}


def _graph(module_level_only: bool = False):
    modules = _modules()
    return {name: _imports(path, modules, module_level_only) for name, path in modules.items()}


def _layer(module: str) -> str:
    return module.split(".")[0]


def test_every_module_is_in_a_layer():
    assert {_layer(m) for m in _graph()} == set(LAYERS)


@pytest.mark.parametrize("layer", LAYERS)
def test_imports_only_layers_below(layer):
    graph = _graph()
    upward = {(m, n) for m, targets in graph.items() if _layer(m) == layer
              for n in targets if LAYERS.index(_layer(n)) > LAYERS.index(layer)} - UPWARD_ALLOWED
    assert not upward, f"ddz.{layer} imports layers above it in DESIGN.md: {sorted(upward)}"


def test_no_import_cycle():
    graph = _graph(module_level_only=True)
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


# -- package privacy -----------------------------------------------------------------------

def _cython_sources():
    """Every ``.pyx`` file and every ``.pxi`` it includes (a ``.pxi`` is part of the module
    that includes it: ``game/_game_play.pxi`` is ``game._game``'s)."""
    return sorted(SRC.rglob("*.pyx")) + sorted(SRC.rglob("*.pxi"))


def _trees():
    return {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in _modules().items()
            if path.suffix == ".py"}


def _underscore(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_package_imports_another_packages_underscore_name():
    modules = _modules()
    bad = []
    for name, tree in _trees().items():
        package = name if modules[name].name == "__init__.py" else name.rpartition(".")[0]
        package = "" if name == "ddz" else package
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                parts = package.split(".") if package else []
                base = ".".join(parts[:len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("ddz"):
                base = node.module[len("ddz."):]
            else:
                continue
            target = _layer(_target(base, modules))
            bad += [f"{name}: from {base or 'ddz'} import {a.name}" for a in node.names
                    if _underscore(a.name) and target != _layer(name)]
    assert not bad, bad


def test_no_package_reads_another_packages_underscore_attribute():
    """``x._name`` where ``_name`` is defined (a function, a class, an attribute or a global
    assigned) only in other packages: a read of their private state (``game._ps``,
    ``moves._readings``). Names a package defines itself, and reads on ``self``, ``cls``
    and ``other``, are its own."""
    trees = _trees()
    defined = collections.defaultdict(set)
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined[_layer(name)].add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                defined[_layer(name)].add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined[_layer(name)].add(node.id)
    for path in _cython_sources():
        defined[_layer(_name(path))].update(re.findall(r"\b(_\w+)\b", path.read_text(encoding="utf-8")))
    bad = []
    for name, tree in trees.items():
        mine = defined[_layer(name)]
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _underscore(node.attr) and node.attr not in mine
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls", "other"))):
                owners = sorted(p for p, names in defined.items() if node.attr in names)
                if owners:
                    bad.append(f"{name}:{node.lineno}: {ast.unparse(node)} (private to {', '.join(owners)})")
    assert not bad, bad


def _game_parts(trees):
    """``Game`` and the mixins it composes (issue 42): ``{class name: its ClassDef}``."""
    classes = {node.name: node for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    game = classes["Game"]
    return {"Game": game, **{b.id: classes[b.id] for b in game.bases if isinstance(b, ast.Name)}}


def _strip_pyx(text: str) -> str:
    """A .pyx file without its strings and comments (docstrings name ``Game._x`` freely)."""
    text = re.sub(r'(?s)""".*?"""|\'\'\'.*?\'\'\'', "", text)
    return re.sub(r"#[^\n]*|'[^'\n]*'|\"[^\"\n]*\"", "", text)


def test_no_module_reads_games_private_state():
    """Issue 42: reads of ``x._name`` of a ``Game`` (``_name`` a private attribute or method
    of ``Game`` or of a mixin it composes) from anywhere but the class and its mixins: 0,
    by the AST in ``.py`` files and by a regular expression in ``.pyx`` files (module paths
    such as ``ddz.game._game`` are not reads). A class may read its own names on other
    instances of itself (a copy's ``c._legal``)."""
    trees = _trees()
    parts = _game_parts(trees)
    assert set(parts) == {"Game", "GameLegal", "GameIds", "GameWords", "GameViews", "GameRecords"}, sorted(parts)
    private = set()
    for cls in parts.values():
        for node in ast.walk(cls):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _underscore(node.name):
                private.add(node.name)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _underscore(node.attr)
                  and isinstance(node.value, ast.Name) and node.value.id == "self"):
                private.add(node.attr)
    assert {"_ps", "_hand", "_phase", "_current", "_table", "_deals"} <= private
    inside = {id(node) for cls in parts.values() for node in ast.walk(cls)}
    bad = []
    def reads(node, own):
        if isinstance(node, ast.ClassDef):
            own = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                   and isinstance(n.value, ast.Name) and n.value.id == "self"}
            own |= {n.name for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        if isinstance(node, ast.Attribute) and node.attr in private and id(node) not in inside and node.attr not in own:
            yield node
        for child in ast.iter_child_nodes(node):
            yield from reads(child, own)

    for name, tree in trees.items():
        bad += [f"{name}:{node.lineno}: {ast.unparse(node)}" for node in reads(tree, set())]
    for path in _cython_sources():
        text = _strip_pyx(path.read_text(encoding="utf-8"))
        bad += [f"{_name(path)}: {m.group(0)}" for m in re.finditer(r"(?<![\w.])(\w+)\.(_\w+)\b", text)
                if m.group(2) in private and m.group(1) not in ("self", "cls")]
    assert not bad, sorted(set(bad))


# -- import chains, module sizes, imports inside functions ------------------------------------

#: the longest chain of module-level imports (modules counted, package ``__init__`` files
#: included) from each of these: issue 25's bound of 8 for everything ``import ddz``
#: loads, the CLI, the arena and the envs (whose package loads the vector on first use);
#: ``ddz.web`` as it stands: it reads ddz only through ``import ddz``, so its chains are
#: the API's plus its own
LONGEST_CHAIN = {"ddz": 8, "core": 8, "game": 8, "search": 8, "interop": 8, "terminal": 8, "distributed": 8,
                 "version": 8, "arena": 8, "cli": 8, "envs": 8, "neural": 8, "train": 8, "web": 10, "__main__": 8}


def _chains():
    graph = _graph(module_level_only=True)

    @functools.lru_cache(maxsize=None)
    def longest(m):
        return max(([m] + longest(n) for n in graph.get(m, ())), key=len, default=[m])
    return graph, longest


@pytest.mark.parametrize("layer", sorted(LONGEST_CHAIN))
def test_import_chains_are_short(layer):
    graph, longest = _chains()
    chain = max((longest(m) for m in graph if _layer(m) == layer), key=len)
    assert len(chain) <= LONGEST_CHAIN[layer], f"{len(chain)} modules: {' -> '.join(chain)}"


def test_every_layer_has_a_chain_bound():
    assert set(LONGEST_CHAIN) >= {_layer(m) for m in _graph()} - {"errors", "old_paths"}


def test_no_module_is_over_600_lines():
    long = {name: n for name, path in _modules().items() if path.suffix == ".py"
            and (n := len(path.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, long


def test_no_python_file_of_the_project_is_over_700_lines():
    """Issue 42: no ``.py`` anywhere (the package, its tests, tools and benches) over 700
    lines; the package's modules are bound tighter just above."""
    root = SRC.parents[1]
    files = [p for d in ("src", "tests", "tools", "bench", "examples") for p in (root / d).rglob("*.py")
             if "build" not in p.relative_to(root).parts]
    long = {str(p.relative_to(root)): n for p in files
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 700}
    assert files and not long, long


def test_no_cython_file_of_the_game_is_over_900_lines():
    """Issue 42: ``_game.pyx`` is written by concept in ``.pxi`` files it includes."""
    long = {p.name: n for p in _cython_sources() if p.parent.name == "game"
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 900}
    assert not long, long


def test_every_import_inside_a_function_says_why():
    """A comment on the import's line, on the line above, or on the first line of its
    block of imports: optional dependency, start-up time, a cycle or an import floor."""
    bad = []
    for name, path in _modules().items():
        if path.suffix != ".py":
            continue
        lines = path.read_text(encoding="utf-8").splitlines()

        def commented(i):
            while True:
                if "#" in lines[i] or (i and lines[i - 1].strip().startswith("#")):
                    return True
                if not (i and lines[i - 1].strip().startswith(("from ", "import "))):
                    return False
                i -= 1

        def visit(body, inside):
            for node in body:
                if isinstance(node, (ast.Import, ast.ImportFrom)) and inside and not commented(node.lineno - 1):
                    bad.append(f"{name}:{node.lineno}: {lines[node.lineno - 1].strip()}")
                deeper = inside or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                for field in ("body", "orelse", "finalbody", "handlers"):
                    visit(getattr(node, field, []) or [], deeper)

        visit(ast.parse("\n".join(lines)).body, False)
    assert not bad, bad
