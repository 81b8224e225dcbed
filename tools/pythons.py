"""The CPython versions ddz supports, as ``tools/pythons.txt`` lists them.

That file is the one list of Pythons: ``tools/build-wheels`` builds the ones marked
``here``, ``tools/test.py --wheel-leg`` picks the running Python's tests from it, and
``tests/test_packaging.py`` checks that ``pyproject.toml`` (cibuildwheel's ``build``, the
classifiers, ``requires-python``, the numpy floors) and ``.github/workflows/wheels.yml``
(its matrix) name the same versions. Standard library only: it runs under every listed
Python, with no package installed.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
import sys
from typing import List, Optional

FILE = pathlib.Path(__file__).resolve().with_name("pythons.txt")
BUILT = ("here", "workflow")
TESTS = ("full", "subset")
#: the pytest marker expression of a "subset" leg (the marker: tests/conftest.py)
SUBSET_MARKEXPR = "wheel and not slow"
#: ... and of a "kernels" leg: a Linux serial wheel's (the marker: tests/conftest.py)
KERNELS_MARKEXPR = "kernels and not slow"
#: what a "kernels" leg installs beside the wheel (the test extra's lines for these names
#: give the versions): its tests need nothing else, and a skip there fails the leg
KERNELS_NEEDS = ("pytest", "hypothesis", "gymnasium")


@dataclasses.dataclass(frozen=True)
class Python:
    """One line of ``tools/pythons.txt``.

    ``version`` is ``"3.11"``; ``built`` is ``"here"`` (tools/build-wheels builds and tests
    it) or ``"workflow"`` (only cibuildwheel does); ``tests`` is ``"full"`` or ``"subset"``;
    ``numpy`` the lowest numpy release with a wheel for it (the dependency's floor).
    """

    version: str
    built: str
    tests: str
    numpy: str

    @property
    def minor(self) -> int:
        return int(self.version.split(".")[1])

    @property
    def tag(self) -> str:
        """The interpreter tag of its wheels: ``"cp311"``."""
        return "cp3" + str(self.minor)

    def leg(self, *, openmp: bool, platform: str = sys.platform) -> str:
        """The tests a wheel of this Python gets: ``"full"``, ``"subset"`` or ``"kernels"``.

        The line's own ``tests``, except that a Linux wheel without OpenMP gets
        ``"kernels"`` (``-m "kernels and not slow"``, tests/conftest.py KERNEL_TESTS: the
        tests of the two modules built with OpenMP, ``ddz.game._actions`` and
        ``ddz.envs._vector``, and of the kernels' safety): on Linux it is the serial
        companion of an OpenMP wheel of the same Python built from the same unpacked sdist
        in the same venv, whose other four modules are the same objects (tools/build-wheels
        shares them through ccache), and that wheel runs the line's tests. On macOS and
        Windows every wheel is serial and runs the line's tests.
        """
        if platform.startswith("linux") and not openmp:
            return "kernels"
        return self.tests


def pytest_args(leg: str) -> List[str]:
    """The pytest arguments of a test leg (none for the full suite)."""
    return {"full": [], "subset": ["-m", SUBSET_MARKEXPR], "kernels": ["-m", KERNELS_MARKEXPR]}[leg]


def read(path: pathlib.Path = FILE) -> List[Python]:
    """The listed Pythons, oldest first.

    :raises ValueError: a line that is not ``3.N here|workflow full|subset X.Y[.Z]``, a
        version listed twice or out of order (the message names the file and the line).
    """
    out: List[Python] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        ok = (len(fields) == 4 and re.fullmatch(r"3\.\d+", fields[0]) and fields[1] in BUILT
              and fields[2] in TESTS and re.fullmatch(r"\d+\.\d+(\.\d+)?", fields[3]))
        if not ok:
            raise ValueError(f"{path}:{n}: expected 'VERSION {'|'.join(BUILT)} "
                             f"{'|'.join(TESTS)} NUMPY', got {line!r}")
        py = Python(*fields)
        if out and py.minor <= out[-1].minor:
            raise ValueError(f"{path}:{n}: {py.version} after {out[-1].version} (oldest first, once each)")
        out.append(py)
    if not out:
        raise ValueError(f"{path}: no Python listed")
    return out


def built_here(path: pathlib.Path = FILE) -> List[Python]:
    """The Pythons whose wheels tools/build-wheels builds and tests on this machine."""
    return [p for p in read(path) if p.built == "here"]


def find(version: str, path: pathlib.Path = FILE) -> Optional[Python]:
    """The line of ``version`` (``"3.11"``), or None when it is not listed."""
    return next((p for p in read(path) if p.version == version), None)


def running(path: pathlib.Path = FILE) -> Optional[Python]:
    """The line of the Python running this, or None when it is not listed."""
    return find("%d.%d" % sys.version_info[:2], path)


if __name__ == "__main__":                      # the list, for a shell: 3.9 3.10 ...
    print(" ".join(p.version for p in (read() if "--all" in sys.argv else built_here())))
