"""Shared fixtures.

``impl`` runs a test against each implementation of the rules by module name, so a
broken compiled core cannot pass by quietly testing Python. The compiled one is
``ddz.fast``; when it is missing the test fails (it is skipped only when
``DDZ_NO_EXTENSIONS=1`` asks for the pure-Python package).
"""

import importlib
import os

import pytest

IMPLS = ["reference", "fast"]


def _load(name):
    try:
        return importlib.import_module(f"ddz.{name}")
    except ImportError:
        if name != "reference" and os.environ.get("DDZ_NO_EXTENSIONS"):
            pytest.skip("DDZ_NO_EXTENSIONS=1: the compiled core is not tested")
        raise


@pytest.fixture(params=IMPLS, ids=IMPLS)
def impl(request):
    """The module ``ddz.reference`` or ``ddz.fast`` (same functions, same semantics)."""
    return _load(request.param)
