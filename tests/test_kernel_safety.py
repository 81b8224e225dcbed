"""No garbage input to a Python-callable of the compiled modules crashes the interpreter.

Every public callable of ``ddz.core._core`` and ``ddz.game._actions`` (module-level functions and
classes, and every public method of ``ddz.core._core.RuleTable`` bound to three tables) is
found with ``dir``/``inspect``, so a newly added one is covered without editing this file.
Each is called with many garbage arguments (wrong types, shapes, dtypes, layouts,
impossible hands, codes of no play, mismatched batches, wrong argument counts, ...): a call
must return or raise an ordinary exception. A segfault or abort would kill pytest itself,
so the campaign runs in a subprocess whose exit status is checked; the subprocess logs
each call before making it, so a crash names the call that caused it.

The campaign also checks, in "one bad argument, the others valid" calls, that a
definitely bad argument is rejected and a valid one accepted (``surprises``). Inputs
that used to crash (exit 139) are explicit tests, each in its own subprocess, and so are
the crashing inputs found while writing this file (an ids array aliasing the mask of
``legal_masks``, an ndarray subclass lying about its shape, a ``RuleTable`` whose
``__init__`` never ran): those are in ``test_kernel_regressions.py``, with the happy path
checked against :mod:`ddz.core.reference` so that these files cannot pass with everything
raising. The campaign itself is ``kernelcampaign.py``; discovery and the child process are
``kernelrun.py``.
"""

import json
import os
import subprocess
import textwrap

import pytest

import ddz.core.implementation  # noqa: E402

if ddz.core.implementation.NO_EXTENSIONS:
    pytest.skip("DDZ_NO_EXTENSIONS=1: the compiled modules are absent", allow_module_level=True)

from kernelrun import MIN_CALLS, REQUIRED, SEED, SOLVER_REQUIRED, _crash_message, _run, discover  # noqa: E402


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    """Run the garbage campaign once in a subprocess; its parsed summary."""
    log_path = str(tmp_path_factory.mktemp("kernel_safety") / "calls.log")
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernelcampaign.py")
    script = textwrap.dedent(f"""
        import importlib.util, os, sys
        sys.path.insert(0, os.path.dirname({here!r}))      # kernelrun beside it
        spec = importlib.util.spec_from_file_location("_ddz_kernel_safety_child", {here!r})
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module._campaign({SEED}, {log_path!r})
    """)
    try:
        proc = _run(script)
    except subprocess.TimeoutExpired as exc:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            last = (f.read().splitlines() or [""])[-1]
        pytest.fail(f"the garbage campaign hung ({exc.timeout} s); last call started: {last}")
    assert proc.returncode == 0, "the garbage campaign crashed: " + _crash_message(proc, log_path)
    marker = [line for line in proc.stdout.splitlines() if line.startswith("KERNEL-SAFETY-DONE ")]
    assert marker, "no final marker line: " + _crash_message(proc, log_path)
    return json.loads(marker[-1].split(" ", 1)[1])


# -- tests --------------------------------------------------------------------------------

def test_discovery_finds_the_callables():
    functions, methods = discover()
    assert functions and methods
    names = {name.rsplit(".", 1)[-1] for name in functions} | set(methods)
    missing = REQUIRED - names
    assert not missing, f"not discovered: {sorted(missing)}"


def test_garbage_never_crashes(campaign):
    assert campaign["calls"] > MIN_CALLS, campaign["calls"]
    # some calls went through: the campaign is not all rejections
    assert campaign["returned"] > 100, campaign["returned"]
    functions, methods = discover()
    assert campaign["functions"] == sorted(functions)
    assert campaign["methods"] == sorted(methods)
    assert SOLVER_REQUIRED <= set(campaign["solver_methods"]), campaign["solver_methods"]


def test_garbage_outcomes_match_validity(campaign):
    """In the one-bad-argument calls a definitely bad argument was rejected and a valid
    one accepted, and no call raised SystemError (a C-API misuse)."""
    assert not campaign["surprises"], "\n".join(campaign["surprises"][:40])


def test_garbage_raises_ordinary_errors(campaign):
    """The errors are DdzErrors, or TypeError / ValueError / MemoryError / OverflowError (a
    C int argument out of range), or the garbage objects' own errors let through."""
    allowed = {"HandError", "ImpossibleHandError", "InvalidPlayError", "ActionIdError", "TypeError",
               "ValueError", "MemoryError", "OverflowError", "_GarbageError"}
    extra = {
    }
    odd = {}
    for key, count in campaign["exceptions"].items():
        family, kind = key.rsplit(": ", 1)
        if kind in allowed or kind in extra.get(family, ()):
            continue
        odd[key] = count
    assert not odd, odd
