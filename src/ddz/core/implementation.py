"""Which implementation runs: the one reading of ``DDZ_NO_EXTENSIONS`` and the strict
import of the compiled modules (a failed import is an error, never a silent fall-back)."""

from __future__ import annotations

import importlib
import importlib.abc
import os
import sys
from typing import Optional

from ..errors import DdzError

__all__ = ["NO_EXTENSIONS", "COMPILED_MODULES", "compiled", "env_flag", "engine_note"]

_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")


def env_flag(name: str, value: Optional[str]) -> bool:
    """A boolean environment variable: ``1``/``true``/``yes``/``on`` are on,
    ``0``/``false``/``no``/``off``, empty or unset (``None``) are off (case and
    surrounding spaces ignored).

    :raises DdzError: any other value (a typo must not silently pick a path).
    """
    if value is None:
        return False
    word = value.strip().lower()
    if word in _ON:
        return True
    if word in _OFF:
        return False
    raise DdzError(f"{name}={value!r} is not a boolean: use 1, true or yes for on, and 0, false, "
                   f"no or an empty value for off")


def _running_the_command() -> bool:
    """Whether this process is the ``ddz`` command (the console script, ``python -m ddz``
    or ``python -m ddz.cli``), which reports a bad switch as its other errors."""
    script = os.path.basename(sys.argv[0] if sys.argv else "").lower()
    if script.endswith((".exe", ".py")):
        script = script.rsplit(".", 1)[0]
    if script in ("ddz", "ddz-script"):
        return True
    if hasattr(sys, "orig_argv"):                 # Python 3.10+: the interpreter's own arguments
        argv = list(sys.orig_argv)
        return any(a == "-m" and argv[i + 1:i + 2] in (["ddz"], ["ddz.cli"]) for i, a in enumerate(argv))
    # Python 3.9: argv[0] is "-m" while runpy imports the package; its frame names the module
    frame = sys._getframe() if script == "-m" else None
    while frame is not None:
        if frame.f_code.co_name == "_run_module_as_main":
            return frame.f_locals.get("mod_name") in ("ddz", "ddz.cli")
        frame = frame.f_back
    return False


def _read_switch() -> bool:
    """``DDZ_NO_EXTENSIONS`` read once; a value that is no boolean is a :class:`DdzError`,
    or in the ``ddz`` command ``ddz: error: ...`` and exit status 2 (no traceback: the
    command's own handler cannot run, since importing ``ddz`` reads the switch)."""
    try:
        return env_flag("DDZ_NO_EXTENSIONS", os.environ.get("DDZ_NO_EXTENSIONS"))
    except DdzError as exc:
        if _running_the_command():
            sys.stderr.write(f"ddz: error: {exc}\n")
            raise SystemExit(2) from None
        raise


NO_EXTENSIONS = _read_switch()
"""``DDZ_NO_EXTENSIONS`` is on (read once, here, for every module; see :func:`env_flag`)."""


def engine_note() -> str:
    """One line for summaries saying which path runs: the compiled core, or the
    pure-Python reference (much slower) because ``DDZ_NO_EXTENSIONS`` is on."""
    if NO_EXTENSIONS:
        return "pure-Python reference (DDZ_NO_EXTENSIONS is on; the compiled core is far faster)"
    return "compiled core"

COMPILED_MODULES = ("ddz.core._core", "ddz.game._actions", "ddz.game._game", "ddz.envs._vector", "ddz.search._solver", "ddz.core.compiled",
                    "ddz.envs._douzero")
"""The modules that exist only with the compiled extensions (``ddz.core.compiled`` wraps ``_core``)."""


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
        if str(exc).startswith("ddz: ") and "failed to import" in str(exc):
            raise          # a compiled module imported by this one said it already
        raise ImportError(
            f"ddz: {what} failed to import: {exc}. Reinstall ddz so that it compiles, or "
            "set DDZ_NO_EXTENSIONS=1 to use the pure-Python path on purpose.") from exc
