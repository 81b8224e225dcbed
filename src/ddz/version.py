"""What is installed and running: the package version, the implementation that answers
(the compiled core or the pure-Python reference) and whether the batch kernels were built
with OpenMP. ``ddz --version`` prints :func:`version_text`."""

from __future__ import annotations

import platform
from typing import NamedTuple, Optional

import numpy as np

from . import core as moves
from .core.implementation import compiled

__all__ = ["VersionInfo", "version_info", "version_text"]

__version__ = "0.1.0"
"""The package version: the one place it is written (``pyproject.toml`` reads it)."""


class VersionInfo(NamedTuple):
    """The facts :func:`version_info` returns."""

    version: str
    """``ddz.__version__``, e.g. ``"0.1.0"``."""
    implementation: str
    """``"core"`` (the compiled Cython core) or ``"reference"`` (pure Python, chosen by
    ``DDZ_NO_EXTENSIONS=1``): ``ddz.IMPLEMENTATION``."""
    openmp: Optional[bool]
    """The batch kernels of ``ddz.game._actions`` run in parallel threads (built with OpenMP);
    ``None`` when the compiled modules are not loaded (the reference)."""
    python: str
    """The running Python's version, e.g. ``"3.11.7"``."""
    numpy: str
    """The numpy version in use."""


def version_info() -> VersionInfo:
    """The version of ``ddz``, the active implementation and the OpenMP build flag.

    :returns: a :class:`VersionInfo`; never raises (under ``DDZ_NO_EXTENSIONS=1`` the
        compiled modules are not imported and ``openmp`` is ``None``).
    """
    kernels = compiled("game._actions", "the compiled action kernels (ddz.game._actions)")
    openmp = None if kernels is None else bool(kernels.OPENMP)
    return VersionInfo(__version__, moves.IMPLEMENTATION, openmp,
                       platform.python_version(), np.__version__)


def version_text() -> str:
    """One line for ``ddz --version``, e.g.
    ``ddz 0.1.0 (core: compiled Cython, OpenMP; Python 3.11.7, numpy 2.4.6)``."""
    v = version_info()
    if v.implementation == "core":
        engine = "core: compiled Cython, " + ("OpenMP" if v.openmp else "no OpenMP")
    else:
        engine = "reference: pure Python, DDZ_NO_EXTENSIONS=1"
    return f"ddz {v.version} ({engine}; Python {v.python}, numpy {v.numpy})"
