"""``DDZ_NO_EXTENSIONS`` is read when ``ddz`` is imported, before the command's own error
handler exists: a value that is no boolean still ends the ``ddz`` command with ``ddz:
error: ...`` and exit status 2, never a traceback (issue 40, item 7), while a program
importing ``ddz`` gets a :class:`ddz.DdzError`."""

import os
import subprocess
import sys

import pytest


def _run(*argv, value="maybe"):
    env = dict(os.environ, DDZ_NO_EXTENSIONS=value)
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize("module", ["ddz", "ddz.cli"])
def test_a_bad_switch_is_a_command_error(module):
    r = _run("-m", module, "--version")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("ddz: error: DDZ_NO_EXTENSIONS='maybe' is not a boolean: use 1, true or yes for on, "
                        "and 0, false, no or an empty value for off\n")


def test_a_bad_switch_is_a_ddz_error_in_a_program():
    r = _run("-c", "import ddz")
    assert r.returncode == 1 and "ddz.errors.DdzError: DDZ_NO_EXTENSIONS='maybe' is not a boolean" in r.stderr
    r = _run("-c", "try:\n    import ddz\nexcept ValueError as exc:\n    print('caught', type(exc).__name__, exc)\n")
    assert r.returncode == 0 and r.stdout.startswith("caught DdzError DDZ_NO_EXTENSIONS='maybe'")
