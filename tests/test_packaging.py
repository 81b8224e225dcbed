"""What the package says about itself (issue 15): ``ddz --version`` and
``ddz.version_info()``, the metadata in ``pyproject.toml``, and one test command shared
by the README, CI and the wheel builds."""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

import ddz
from conftest import readme_code

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _pyproject():
    try:
        import tomllib
    except ImportError:                                   # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


# -- version ---------------------------------------------------------------------------

def test_version_info_names_the_running_implementation():
    info = ddz.version_info()
    assert info == ddz.version.version_info() and isinstance(info, ddz.VersionInfo)
    assert info.version == ddz.__version__ and re.fullmatch(r"\d+\.\d+\.\d+\S*", info.version)
    assert info.implementation == ddz.IMPLEMENTATION
    if info.implementation == "core":
        from ddz.game import _actions
        assert info.openmp is _actions.OPENMP
    else:
        assert info.openmp is None and os.environ.get("DDZ_NO_EXTENSIONS")
    import numpy
    assert info.numpy == numpy.__version__
    assert info.python == ".".join(map(str, sys.version_info[:3]))


def test_version_flag(run_cli, capsys):
    with pytest.raises(SystemExit) as exc:
        run_cli("--version")
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out == ddz.version.version_text() + "\n"
    assert out.startswith(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}")
    if ddz.IMPLEMENTATION == "core":
        assert ("no OpenMP" in out) is (not ddz.version_info().openmp)
    else:
        assert "DDZ_NO_EXTENSIONS=1" in out and "OpenMP" not in out


def test_version_flag_in_a_process():
    """The console entry point's module, run as a user would (one line, exit 0)."""
    env = dict(os.environ, COLUMNS="40")                  # no wrapping, whatever the width
    res = subprocess.run([sys.executable, "-c", "import sys; from ddz.cli import main; "
                          "sys.exit(main(['--version']))"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("\n") == 1 and res.stdout.startswith(f"ddz {ddz.__version__} (")


# -- metadata ----------------------------------------------------------------------------

def test_license_is_an_spdx_string_with_its_file():
    meta = _pyproject()
    project = meta["project"]
    assert project["license"] == "MIT"               # PEP 639, not the deprecated table
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]
    # setuptools reads the SPDX string from version 77 on
    setuptools = next(r for r in meta["build-system"]["requires"] if r.startswith("setuptools"))
    assert re.fullmatch(r"setuptools>=(\d+).*", setuptools) and int(re.findall(r"\d+", setuptools)[0]) >= 77


def test_version_is_written_once():
    meta = _pyproject()
    assert "version" not in meta["project"] and meta["project"]["dynamic"] == ["version"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "ddz.version.__version__"}
    assert ddz.__version__ is ddz.version.__version__


def test_python_classifiers_match_the_built_wheels():
    meta = _pyproject()
    classified = {c.rsplit(" ", 1)[1] for c in meta["project"]["classifiers"]
                  if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}
    built = {f"3.{m}" for m in re.findall(r"cp3(\d+)-\*", meta["tool"]["cibuildwheel"]["build"])}
    assert classified == built and len(built) >= 5
    assert min(built, key=lambda v: int(v.split(".")[1])) == meta["project"]["requires-python"][2:]


def test_platform_limited_engines_carry_markers():
    extras = _pyproject()["project"]["optional-dependencies"]
    by_name = {re.split(r"[<>=;\[ ]", r, 1)[0].lower(): r for r in extras["test"] + extras["ray"]}
    for name in ("open_spiel", "ray"):
        assert ";" in by_name[name] and "sys_platform" in by_name[name], by_name[name]
    assert "mypy" in by_name and "douzero" not in by_name   # DouZero: --no-deps, by tools/test.py
    # the tests of ddz.distributed need Ray where it installs: the ray extra's requirement
    assert extras["ray"][0] in extras["test"]
    assert "mypy" not in " ".join(_pyproject()["project"]["dependencies"])


# -- one test command ------------------------------------------------------------------

def _commands(text):
    return [shlex.split(line) for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_ci_runs_exactly_the_readme_test_command():
    readme = _commands(readme_code("Testing", "sh"))
    assert readme[-1] == ["python3", "tools/test.py"]
    ci = _commands((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert ci[-1] == readme[-1]
    meta = _pyproject()["tool"]["cibuildwheel"]
    assert meta["test-command"] == "python {project}/tools/test.py --no-install"
    assert meta["test-extras"] == ["test"]
    script = (ROOT / "tools" / "build-wheels").read_text(encoding="utf-8")
    assert '"$ROOT/tools/test.py" --no-install' in script
