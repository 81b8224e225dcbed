"""Support of the kernel-safety tests (``test_kernel_safety.py``, ``test_kernel_regressions.py``):
the compiled modules' public callables found by ``dir``/``inspect``, running code in a child
process (a segfault or abort must not kill pytest), and the garbage objects of the campaign
(``kernelcampaign.py``)."""

import importlib
import inspect
import os
import re
import subprocess
import sys

import ddz

MODULES = ("ddz.core._core", "ddz.game._actions", "ddz.game._game", "ddz.envs._vector", "ddz.search._solver")
REQUIRED = {"legal_codes", "moves", "readings", "beats", "legal_codes_batch", "count_legal_batch",
            "legal_ids_one", "legal_masks", "legal_ids_csr", "Searcher", "Table"}
SOLVER_REQUIRED = {"reset", "solve", "value", "ordered_moves", "cheap_tests", "help", "set_poll",
                   "set_features", "share", "stop", "clear_stop"}


def solver_methods():
    """``{name: unbound}`` of the public methods of ``ddz.search._solver.Searcher``."""
    solver = importlib.import_module("ddz.search._solver")
    return {name: getattr(solver.Searcher, name) for name in dir(solver.Searcher)
            if not name.startswith("_") and inspect.isroutine(getattr(solver.Searcher, name))}
SEED = 20240611
MIN_CALLS = 1000
# a 1-card STRAIGHT: a well-formed code of no play
STRAIGHT_OF_ONE = (6 << 57) | (1 << 53) | (1 << 49)
TIMEOUT = 240


def discover():
    """``(functions, methods)``: ``{qualified name: callable}`` of the public module-level
    functions and classes defined in the compiled modules, and ``{name: unbound}`` of the
    public methods of ``RuleTable`` (properties are not callables and are left out)."""
    functions = {}
    for modname in MODULES:
        mod = importlib.import_module(modname)
        for name in dir(mod):
            if name.startswith("_"):
                continue
            obj = getattr(mod, name)
            if getattr(obj, "__module__", None) != modname:
                continue   # re-exports (np, errors, Play, ...)
            if inspect.isroutine(obj) or inspect.isclass(obj):
                functions[f"{modname}.{name}"] = obj
    core = importlib.import_module("ddz.core._core")
    methods = {}
    for name in dir(core.RuleTable):
        if name.startswith("_"):
            continue
        attr = getattr(core.RuleTable, name)
        if inspect.isroutine(attr):
            methods[name] = attr
    return functions, methods


# -- the subprocess side ----------------------------------------------------------------

def _child_env():
    """The environment with PYTHONPATH kept, and the directory ``ddz`` was imported from
    in front, so the child tests the same package."""
    env = dict(os.environ)
    src = os.path.dirname(os.path.dirname(os.path.abspath(ddz.__file__)))
    parts = [src] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != src]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    env.pop("DDZ_NO_EXTENSIONS", None)
    return env


def _family(name):
    """A call's name without the tag of its table."""
    return re.sub(r"\[(distinct|repeat|banned)\]", "", name)


def _run(script, timeout=TIMEOUT):
    return subprocess.run([sys.executable, "-c", script], env=_child_env(), capture_output=True,
                          text=True, timeout=timeout)


def _crash_message(proc, log_path=None):
    last = ""
    if log_path and os.path.exists(log_path):
        with open(log_path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        last = lines[-1] if lines else ""
    return (f"exit status {proc.returncode} (negative: killed by a signal; 139/-11: segfault)\n"
            f"last call started: {last}\nstdout tail:\n{proc.stdout[-2000:]}\n"
            f"stderr tail:\n{proc.stderr[-4000:]}")


class _GarbageError(Exception):
    """Raised by the garbage objects below: the callables may let it through."""


class _Weird:
    """Sequence-like garbage: ``len`` says 15 but indexing fails."""

    def __len__(self):
        return 15

    def __getitem__(self, i):
        raise _GarbageError("no counts here")


class _HugeLen:
    def __len__(self):
        return sys.maxsize


class _BadIndex:
    """An integer-like object whose conversion raises."""

    def __index__(self):
        raise _GarbageError("no index")

    def __int__(self):
        raise _GarbageError("no int")


class _SeqOf15:
    """A sequence protocol object (no ``__iter__``) of 15 counts."""

    def __init__(self, values):
        self.values = list(values)

    def __len__(self):
        return 15

    def __getitem__(self, i):
        return self.values[i]
