"""The module paths of ddz before its packages (issue 25), kept working as aliases.

``import ddz.fast`` or ``from ddz.movetree import perft`` still work: :class:`_Finder`
answers each old name with the module of its new home (the same module object, so
``monkeypatch.setattr("ddz.bots.play_hand", ...)`` reaches the code that runs), and
``ddz.<old name>`` as an attribute imports it on first use (``ddz.__getattr__``).
CHANGELOG.md lists the new homes; new code uses them.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Optional

__all__ = ["MOVED", "install"]

MOVED = {
    "_compiled": "core.implementation", "cards": "core.cards", "rules": "core.rules", "play": "core.play",
    "_args": "core.arguments", "reference": "core.reference", "fast": "core.compiled", "tables": "core.tables",
    "moves": "core", "_core": "core._core", "_info": "version",
    "_game": "game._game", "playstate": "game.playstate", "_actions": "game._actions",
    "actions": "game.actions", "auction": "game.auction", "deal": "game.deal", "render": "game.render",
    "match": "game.match", "movetree": "game.perft",
    "position": "game.position", "_solver": "search._solver", "solver": "search.solver",
    "reference_solver": "search.reference_solver", "bots": "search.bots", "expert": "search.expert",
    "_vector": "envs._vector",
}
"""Old module name under ``ddz`` -> its new home under ``ddz`` (``"moves"`` -> ``"core"``)."""


class _Loader(importlib.abc.Loader):
    """Loads an old name as the module of its new home (imported if need be)."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module("ddz." + MOVED[spec.name[len("ddz."):]])
        spec.loader_state = module.__spec__       # the import system sets __spec__: put it back below
        return module

    def exec_module(self, module: ModuleType) -> None:
        if module.__spec__ is not None and module.__spec__.loader_state is not None:
            module.__spec__ = module.__spec__.loader_state


class _Finder(importlib.abc.MetaPathFinder):
    """Finds ``ddz.<old name>`` for every old name of :data:`MOVED`."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> Optional[importlib.machinery.ModuleSpec]:
        if fullname.startswith("ddz.") and fullname[len("ddz."):] in MOVED:
            return importlib.machinery.ModuleSpec(fullname, _LOADER)
        return None


_LOADER = _Loader()


def install() -> None:
    """Put the finder of old names on ``sys.meta_path`` (once; ``import ddz`` does it)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())


def old_module(name: str) -> ModuleType:
    """The module an old name ``ddz.<name>`` stands for (for ``ddz.__getattr__``).

    :raises AttributeError: ``name`` is no old module name.
    """
    if name not in MOVED:
        raise AttributeError(f"module 'ddz' has no attribute {name!r}")
    return importlib.import_module("ddz." + name)
