#!/usr/bin/env python3
"""The test command: install ddz with its test dependencies and run the test suite
against the installed package (never the checkout's ``src/``).

    python3 tools/test.py [--no-install] [--wheel-leg] [PYTEST ARGS...]

1. ``pip install "<repo>[test]"``: builds and installs the package with the test extra
   (pytest, hypothesis, mypy, rlcard, pettingzoo, gymnasium; open_spiel and ray where
   they publish wheels). Skipped with ``--no-install``, which tests the ddz already
   installed, e.g. a wheel (``tools/build-wheels`` and cibuildwheel do that).
2. Under CPython 3.11 on Linux x86_64 only, ``pip install torch==2.13.0`` (these machines
   hold its CPU build as a local file; elsewhere the default build would download
   gigabytes): the tests of ``ddz.neural`` against torch and DouZero's ``DeepAgent`` run
   with it, and skip per test without it. Then ``pip install --no-deps douzero==1.1.0``:
   DouZero's requirements would pull in another PyTorch; its interop tests use only its
   pure-Python move generator.
3. Prints ``ddz --version`` and where ``ddz`` was imported from; a ``ddz`` imported from
   this checkout's ``src/`` is refused (that would test the sources, not the install).
   ``--wheel-leg`` (the wheel builds' test command: ``tools/build-wheels`` and
   cibuildwheel) runs the tests that ``tools/pythons.txt`` gives the running Python: the
   full suite, or the subset ``-m "wheel and not slow"`` (``tests/conftest.py``); a Linux
   wheel without OpenMP gets the kernels' tests, ``-m "kernels and not slow"``
   (``tools/pythons.py``, ``Python.leg``).
4. ``python -m pytest <repo>/tests PYTEST_ARGS`` from a temporary directory (test paths
   among the arguments replace ``<repo>/tests``). The typing check
   (``tests/test_typing.py``: mypy ``--strict`` on ``tests/typing``) is part of it.

The exit status is pytest's (or pip's, if an install failed). The README's "Testing" and
``.ci/run`` run exactly ``python3 tools/test.py``; ``DDZ_NO_EXTENSIONS=1 python3
tools/test.py --no-install`` is the pure-Python leg.
"""

from __future__ import annotations

import pathlib
import platform
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOUZERO = "douzero==1.1.0"
TORCH = "torch==2.13.0"


def wants_torch() -> bool:
    """CPython 3.11 on Linux x86_64: where ``torch==2.13.0``'s CPU build is at hand."""
    return (sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11)
            and sys.platform == "linux" and platform.machine() in ("x86_64", "AMD64"))


def run(*args: str, cwd: pathlib.Path = ROOT) -> int:
    print("+ " + " ".join(args), flush=True)
    return subprocess.call(list(args), cwd=cwd)


def pytest_arguments(args: list[str]) -> list[str]:
    """The arguments for pytest run from another directory: test paths given relative to
    the current directory made absolute; ``<repo>/tests`` when no path is given."""
    here = pathlib.Path.cwd()
    out, paths = [], False
    for a in args:
        path = a.split("::")[0]
        if not a.startswith("-") and path and (here / path).exists():
            out.append(str((here / path).resolve()) + a[len(path):])
            paths = True
        else:
            out.append(a)
    return out if paths else [str(ROOT / "tests"), *out]


def main(argv: list[str]) -> int:
    install = "--no-install" not in argv
    wheel_leg = "--wheel-leg" in argv
    pytest_args = pytest_arguments([a for a in argv if a not in ("--no-install", "--wheel-leg")])
    py = sys.executable
    if install:
        code = run(py, "-m", "pip", "install", f"{ROOT}[test]")
        if code:
            return code
    if wants_torch():
        code = run(py, "-m", "pip", "install", TORCH)
        if code:
            return code
    code = run(py, "-m", "pip", "install", "--no-deps", DOUZERO)
    if code:
        return code
    with tempfile.TemporaryDirectory(prefix="ddz-test-") as tmp:
        # from an empty directory: nothing but the installed package is importable as ddz
        where = subprocess.run(
            [py, "-c", "import ddz, ddz.version as i; print(ddz.__file__); print(i.version_text()); "
             "print(i.version_info().openmp)"],
            cwd=tmp, capture_output=True, text=True)
        if where.returncode:
            print(where.stderr, file=sys.stderr)
            return where.returncode
        location, version, openmp = where.stdout.splitlines()[:3]
        print(f"testing {version}\n  imported from {location}", flush=True)
        if pathlib.Path(location).resolve().is_relative_to(ROOT / "src"):
            print("tools/test.py: ddz is imported from the checkout's src/ (PYTHONPATH?), "
                  "not from an installed package", file=sys.stderr)
            return 2
        if wheel_leg:
            sys.path.insert(0, str(ROOT / "tools"))
            import pythons                        # tools/pythons.py: the one list of Pythons
            listed = pythons.running()
            if listed is None:
                print(f"tools/test.py: Python {sys.version_info[0]}.{sys.version_info[1]} is not in "
                      f"{pythons.FILE}", file=sys.stderr)
                return 2
            leg = listed.leg(openmp=openmp == "True")
            print(f"wheel leg: Python {listed.version}, {leg} "
                  f"({'OpenMP' if openmp == 'True' else 'serial'} build; tools/pythons.txt)", flush=True)
            pytest_args += pythons.pytest_args(leg)
        return run(py, "-m", "pytest", *pytest_args, cwd=pathlib.Path(tmp))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
