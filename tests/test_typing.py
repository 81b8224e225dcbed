"""The public API's types, as a user's type checker sees them (issue 15).

``tests/typing/check_api.py`` pins the type of each public function's result with
``assert_type`` (an ``Any`` is a mismatch) and ``tests/typing/check_errors.py`` holds
misuses that must be errors; mypy ``--strict`` checks both against the ``ddz`` that the
tests import (the installed wheel or the checkout's ``src``), errors inside ``ddz`` itself
not reported (``--follow-imports=silent``, as for any installed package).
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import sysconfig

import pytest

import ddz

HERE = pathlib.Path(__file__).resolve().parent / "typing"
ERROR = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): error: (?P<msg>.*?)\s+\[(?P<code>[\w-]+)\]$")


def _expected(path: pathlib.Path):
    """``{(file name, line): error code}`` of the lines marked ``# E: code``."""
    out = {}
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = re.search(r"#\s*E:\s*([\w-]+)\s*$", line)
        if m:
            out[(path.name, i)] = m.group(1)
    return out


def _mypy_env(tmp_path):
    """Where mypy finds ``ddz``: an installed package through the interpreter's
    site-packages (mypy refuses those in MYPYPATH), a checkout through MYPYPATH."""
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    parent = pathlib.Path(ddz.__file__).resolve().parents[1]
    installed = {pathlib.Path(p).resolve() for p in
                 (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])}
    if parent not in installed:
        env["MYPYPATH"] = str(parent)
    env["MYPY_CACHE_DIR"] = str(tmp_path / "cache")
    return env


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory):
    """mypy --strict on both check files: ``{(file name, line): (code, message)}``."""
    pytest.importorskip("mypy", reason="mypy comes with the test extra (pip install '.[test]')")
    tmp = tmp_path_factory.mktemp("mypy")
    files = [HERE / "check_api.py", HERE / "check_errors.py"]
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
         "--python-executable", sys.executable, "--no-error-summary", "--show-error-codes",
         "--hide-error-context", "--no-pretty", "--no-color-output",
         *map(str, files)],
        cwd=tmp, env=_mypy_env(tmp), capture_output=True, text=True, timeout=600)
    assert res.returncode in (0, 1), res.stdout + res.stderr   # 2: mypy itself failed
    errors = {}
    for line in res.stdout.splitlines():
        m = ERROR.match(line)
        if m:
            errors[(pathlib.Path(m["file"]).name, int(m["line"]))] = (m["code"], m["msg"])
        else:
            assert ": note: " in line, line                     # nothing unparsed
    return errors


def test_mypy_finds_the_package_under_test(mypy_errors):
    # a ddz that mypy cannot find would make every name Any: import-not-found, not silence
    assert not any(code in ("import-not-found", "import-untyped", "import")
                   for code, _ in mypy_errors.values()), mypy_errors


def test_public_api_has_real_types(mypy_errors):
    found = {k: v for k, v in mypy_errors.items() if k[0] == "check_api.py"}
    assert found == {}, "\n".join(f"check_api.py:{k[1]}: {m} [{c}]" for k, (c, m) in sorted(found.items()))


def test_misuse_is_a_type_error(mypy_errors):
    want = _expected(HERE / "check_errors.py")
    assert len(want) >= 8
    got = {k: code for k, (code, _) in mypy_errors.items() if k[0] == "check_errors.py"}
    assert got == want
    # the issue's own example names both types
    line = next(k for k in want if "ddz.classify(\"33\")" in
                (HERE / "check_errors.py").read_text().splitlines()[k[1] - 1])
    assert '"Play"' in mypy_errors[line][1] and '"int"' in mypy_errors[line][1]
