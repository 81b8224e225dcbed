"""Which implementation runs: the one reading of ``DDZ_NO_EXTENSIONS`` and the strict
import of the compiled modules (a failed import is an error, never a silent fall-back)."""

from __future__ import annotations

import importlib
import importlib.abc
import os
import sys

__all__ = ["NO_EXTENSIONS", "COMPILED_MODULES", "compiled"]

NO_EXTENSIONS = bool(os.environ.get("DDZ_NO_EXTENSIONS"))
"""``DDZ_NO_EXTENSIONS=1`` was set (read once, here, for every module)."""

COMPILED_MODULES = ("ddz._core", "ddz._actions", "ddz._solver", "ddz.fast")
"""The modules that exist only with the compiled extensions (``ddz.fast`` wraps ``_core``)."""


class _Blocker(importlib.abc.MetaPathFinder):
    """Under ``DDZ_NO_EXTENSIONS=1`` the compiled modules cannot be imported at all, so the
    pure-Python path cannot use them by accident (and its tests prove it runs without)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in COMPILED_MODULES:
            raise ImportError(f"{fullname} is not available: DDZ_NO_EXTENSIONS=1 is set")
        return None


if NO_EXTENSIONS and not any(isinstance(f, _Blocker) for f in sys.meta_path):
    sys.meta_path.insert(0, _Blocker())


def compiled(name: str, what: str):
    """The module ``ddz.<name>`` built on the compiled extensions, or ``None`` when
    ``DDZ_NO_EXTENSIONS=1`` asks for pure Python.

    :raises ImportError: the extension failed to import (a broken build must not quietly
        run pure Python); the message names ``what``.
    """
    if NO_EXTENSIONS:
        return None
    try:
        return importlib.import_module(f"ddz.{name}")
    except ImportError as exc:
        raise ImportError(
            f"ddz: {what} failed to import: {exc}. Reinstall ddz so that it compiles, or "
            "set DDZ_NO_EXTENSIONS=1 to use the pure-Python path on purpose.") from exc
