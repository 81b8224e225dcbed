"""Which implementation runs: the one reading of ``DDZ_NO_EXTENSIONS`` and the strict
import of the compiled modules (a failed import is an error, never a silent fall-back)."""

from __future__ import annotations

import importlib
import os

__all__ = ["NO_EXTENSIONS", "compiled"]

NO_EXTENSIONS = bool(os.environ.get("DDZ_NO_EXTENSIONS"))
"""``DDZ_NO_EXTENSIONS=1`` was set (read once, here, for every module)."""


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
