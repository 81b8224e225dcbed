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
    assert project["license-files"] == ["LICENSE", "THIRD_PARTY_NOTICES.md"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
    # the vendored libgomp's licence: GPL-3.0-or-later with the GCC Runtime Library
    # Exception, both texts in full
    notices = (ROOT / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    assert "libgomp" in notices and "GPL-3.0-or-later WITH GCC-exception-3.1" in notices
    assert "GCC RUNTIME LIBRARY EXCEPTION" in notices and "Version 3.1, 31 March 2009" in notices
    assert "GNU GENERAL PUBLIC LICENSE" in notices and "Version 3, 29 June 2007" in notices
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]
    # setuptools reads the SPDX string from version 77 on
    setuptools = next(r for r in meta["build-system"]["requires"] if r.startswith("setuptools"))
    assert re.fullmatch(r"setuptools>=(\d+).*", setuptools) and int(re.findall(r"\d+", setuptools)[0]) >= 77


def test_version_is_written_once():
    meta = _pyproject()
    assert "version" not in meta["project"] and meta["project"]["dynamic"] == ["version"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "ddz.version.__version__"}
    assert ddz.__version__ is ddz.version.__version__


# -- one list of Pythons (issue 44) ---------------------------------------------------

def _tools_module(name):
    """tools/<name>.py, imported from its file (tools/ is not a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"_ddz_tools_{name}", ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module                      # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


WORKFLOW = ROOT / ".github" / "workflows" / "wheels.yml"


def _disagreements(listed, meta, workflow):
    """Where pyproject.toml (``meta``) and the wheels workflow's text name other Pythons
    than tools/pythons.txt (``listed``: ``pythons.read()``): one sentence each."""
    from packaging.requirements import Requirement

    out = []
    tags = [p.tag for p in listed]
    build = meta["tool"]["cibuildwheel"]["build"].split()
    if build != [f"{t}-*" for t in tags]:
        out.append(f"[tool.cibuildwheel] build is {build}, tools/pythons.txt says {tags}")
    matrices = re.findall(r"^\s*python:\s*\[([^\]]*)\]", workflow, re.M)
    if not matrices:
        out.append("the wheels workflow has no python matrix")
    for m in matrices:
        if [t.strip() for t in m.split(",")] != tags:
            out.append(f"a wheels workflow matrix is [{m}], tools/pythons.txt says {tags}")
    here = [p.version for p in listed if p.built == "here"]
    classified = [c.rsplit(" ", 1)[1] for c in meta["project"]["classifiers"]
                  if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    if classified != here:
        out.append(f"the classifiers name {classified}, the Pythons built and tested here are {here}")
    if meta["project"]["requires-python"] != f">={listed[0].version}":
        out.append(f"requires-python is {meta['project']['requires-python']!r}, the oldest listed is {listed[0].version}")
    numpy = [Requirement(r) for r in meta["project"]["dependencies"] if r.startswith("numpy")]
    for p in listed:
        floors = [str(r.specifier) for r in numpy
                  if r.marker is None or r.marker.evaluate({"python_version": p.version})]
        if floors != [f">={p.numpy}"]:
            out.append(f"numpy on {p.version}: {floors}, tools/pythons.txt says >={p.numpy}")
    return out


def test_one_list_of_pythons():
    """tools/pythons.txt, pyproject.toml (cibuildwheel, classifiers, requires-python, numpy
    floors) and the wheels workflow's matrices name the same Pythons; tools/build-wheels and
    tools/test.py read the list itself."""
    pythons = _tools_module("pythons")
    listed = pythons.read()
    assert _disagreements(listed, _pyproject(), WORKFLOW.read_text(encoding="utf-8")) == []
    assert [p.version for p in listed if p.built == "here"][:1] == ["3.9"] and len(listed) >= 5
    for tool in ("build-wheels", "test.py"):
        text = (ROOT / "tools" / tool).read_text(encoding="utf-8")
        assert "import pythons" in text, tool
        assert not re.search(r"cp3\d+-\*|[\"']3\.1[0-9][\"']", text), f"tools/{tool} names a Python itself"


def test_one_list_of_pythons_fails_when_one_is_edited_alone(tmp_path):
    pythons = _tools_module("pythons")
    text = pythons.FILE.read_text(encoding="utf-8")
    meta, workflow = _pyproject(), WORKFLOW.read_text(encoding="utf-8")
    # tools/pythons.txt without 3.12
    edited = tmp_path / "pythons.txt"
    edited.write_text(re.sub(r"(?m)^3\.12 .*\n", "", text), encoding="utf-8")
    assert len(pythons.read(edited)) == len(pythons.read()) - 1
    assert len(_disagreements(pythons.read(edited), meta, workflow)) >= 3
    listed = pythons.read()
    # pyproject.toml's cibuildwheel build without cp312
    alone = dict(meta, tool=dict(meta["tool"], cibuildwheel=dict(
        meta["tool"]["cibuildwheel"], build=meta["tool"]["cibuildwheel"]["build"].replace("cp312-* ", ""))))
    assert len(_disagreements(listed, alone, workflow)) == 1
    # one of the workflow's matrices without cp312
    assert len(_disagreements(listed, meta, workflow.replace("cp311, cp312,", "cp311,", 1))) == 1
    # a classifier, requires-python, a numpy floor
    project = meta["project"]
    for change in (dict(classifiers=[c for c in project["classifiers"] if not c.endswith(":: 3.12")]),
                   {"requires-python": ">=3.8"},
                   dict(dependencies=[d.replace("1.26.0", "1.21") for d in project["dependencies"]])):
        assert len(_disagreements(listed, dict(meta, project=dict(project, **change)), workflow)) == 1, change
    # the file's own format
    bad = tmp_path / "bad.txt"
    for line in ("3.12 here nightly 1.26.0", "3.12 here full", "3.8 here full 1.21\n3.8 here full 1.21"):
        bad.write_text(line + "\n", encoding="utf-8")
        with pytest.raises(ValueError, match="bad.txt"):
            pythons.read(bad)


def test_wheel_legs_run_the_listed_tests(request):
    """A Linux wheel without OpenMP gets the kernels' tests (its OpenMP sibling runs the
    line's tests); elsewhere a wheel runs the line's tests. The subset's paths exist, hold
    the tests of the compiled modules, and this file is in it and in the kernels' tests."""
    import conftest
    pythons = _tools_module("pythons")
    full = next(p for p in pythons.read() if p.tests == "full")
    assert full.leg(openmp=True, platform="linux") == "full"
    assert full.leg(openmp=False, platform="linux") == "kernels"
    assert full.leg(openmp=False, platform="darwin") == full.leg(openmp=False, platform="win32") == "full"
    assert pythons.pytest_args("full") == [] and pythons.pytest_args("subset") == ["-m", "wheel and not slow"]
    assert pythons.pytest_args("kernels") == ["-m", "kernels and not slow"]
    tests = ROOT / "tests"
    for path in conftest.WHEEL_SUBSET:
        assert (tests / path).exists(), path
    assert conftest.in_wheel_subset(tests / "test_kernel_safety.py")
    assert conftest.in_wheel_subset(tests / "core" / "test_core_crosscheck.py")
    assert not conftest.in_wheel_subset(tests / "web" / "test_web.py")
    assert request.node.get_closest_marker("wheel") is not None
    # a serial wheel's tests: the two OpenMP modules' own, every file under the subset too
    for path in conftest.KERNEL_TESTS:
        assert (tests / path).is_file() and conftest.in_wheel_subset(tests / path), path
    assert conftest.in_wheel_subset(tests / "envs" / "test_vector.py", conftest.KERNEL_TESTS)
    assert not conftest.in_wheel_subset(tests / "search" / "test_solver.py", conftest.KERNEL_TESTS)
    assert request.node.get_closest_marker("kernels") is None


def test_wheel_contents_rule():
    """tools/wheel_contents.py on the file lists of real wheels (recorded by
    ``tools/build-wheels --record-files``): both pass, and each kind of mistake is named."""
    rule = _tools_module("wheel_contents")
    import json
    data = json.loads((ROOT / "tests" / "data" / "wheel_files.json").read_text(encoding="utf-8"))
    # the lists as recorded (with the shipped model since it ships), and without the
    # model's files, from which the model cases below add them back
    assert rule.problems(data["sdist_names"], data["openmp"]["names"], openmp=True) == []
    assert rule.problems(data["sdist_names"], data["serial"]["names"], openmp=False) == []
    sdist, omp, serial = ([n for n in names if rule.MODEL_DIR not in n]
                          for names in (data["sdist_names"], data["openmp"]["names"], data["serial"]["names"]))
    assert rule.problems(sdist, omp, openmp=True) == []
    assert rule.problems(sdist, serial, openmp=False) == []
    need = rule.package_files(sdist)
    assert {"ddz/py.typed", "ddz/core/_core.pyi", "ddz/web/static/app.js", "ddz/core/_core.pxd"} <= set(need)
    assert len(rule.extension_modules(sdist)) == 6

    def named(names, word, openmp=True):
        found = rule.problems(sdist, names, openmp=openmp)
        assert len(found) == 1 and word in found[0], found
    named(omp + ["ddz/core/_core.pyx"], "_core.pyx")
    named(omp + ["ddz/game/_game_hand.pxi"], "_game_hand.pxi")
    named(omp + ["ddz/game/_game.c"], "leftovers")
    named(omp + ["ddz/core/__pycache__/cards.cpython-311.pyc"], "leftovers")
    named(omp + ["tests/test_cards.py"], "does not explain")
    named([n for n in omp if n != "ddz/py.typed"], "py.typed")
    named([n for n in omp if not n.endswith("_vector.pyi")], "_vector.pyi")
    named([n for n in omp if not n.endswith("static/index.html.in")], "index.html.in")
    named([n for n in omp if not n.endswith("THIRD_PARTY_NOTICES.md")], "THIRD_PARTY_NOTICES.md")
    named([n for n in omp if "_solver.cpython" not in n], "_solver")
    named([n for n in omp if "libgomp" not in n], "libgomp")
    named(omp, "vendors", openmp=False)
    named(serial, "libgomp", openmp=True)
    # the shipped model (issue 43): in the wheel when in the sdist, and whole
    root = sdist[0].split("/")[0]
    model = [rule.MODEL_DIR + f for f in rule.MODEL_FILES]
    with_model = sdist + [f"{root}/src/{n}" for n in model]
    assert rule.problems(with_model, omp + model, openmp=True) == []
    found = rule.problems(with_model, omp + model[:-1], openmp=True)
    assert len(found) == 1 and "missing" in found[0] and "MODEL.json" in found[0], found
    found = rule.problems(with_model[:-1], omp + model[:-1], openmp=True)
    assert len(found) == 1 and "shipped model" in found[0], found


def test_the_shipped_model_is_package_data():
    """pyproject's package-data and MANIFEST.in carry the folder tools/ship_model.py writes
    (the files the wheel rule above then requires)."""
    rule = _tools_module("wheel_contents")
    data = _pyproject()["tool"]["setuptools"]["package-data"]["ddz"]
    folder = rule.MODEL_DIR[len("ddz/"):]
    assert folder + "*.ckpt" in data and folder + "MODEL.json" in data
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    assert "recursive-include src/ddz/neural/models *.ckpt MODEL.json" in manifest
    ship = (ROOT / "tools" / "ship_model.py").read_text(encoding="utf-8")
    assert '"src" / "ddz" / "neural" / "models" / "neural"' in ship
    import ddz.neural
    assert ddz.neural.SHIPPED_MODEL.as_posix().endswith("/" + rule.MODEL_DIR.rstrip("/"))


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
    assert meta["test-command"] == "python {project}/tools/test.py --no-install --wheel-leg"
    assert meta["test-extras"] == ["test"]
    script = (ROOT / "tools" / "build-wheels").read_text(encoding="utf-8")
    assert '"test.py", "--no-install", "--wheel-leg"' in script


def test_the_tests_workflow_has_a_cpu_torch_leg():
    """.github/workflows/tests.yml (issue 43): on the Linux CPython 3.11 job only, torch's CPU
    build at tools/test.py's pin from PyTorch's index, before the test command, then the
    neural tests on their own."""
    yaml = pytest.importorskip("yaml")
    jobs = yaml.safe_load((ROOT / ".github" / "workflows" / "tests.yml").read_text(encoding="utf-8"))["jobs"]
    steps = jobs["test"]["steps"]
    runs = [s.get("run", "") for s in steps]
    torch_steps = [k for k, s in enumerate(steps) if "torch" in s.get("run", "")]
    pin = _tools_module("test").TORCH
    assert runs.index("python tools/test.py") > torch_steps[0]
    assert runs[torch_steps[0]].split() == ["python", "-m", "pip", "install", pin, "--index-url",
                                            "https://download.pytorch.org/whl/cpu"]
    assert "tests/neural" in runs[torch_steps[1]]
    for k in torch_steps:
        assert steps[k]["if"] == "matrix.os == 'ubuntu-latest' && matrix.python == '3.11'"
    matrix = jobs["test"]["strategy"]["matrix"]
    assert "ubuntu-latest" in matrix["os"] and "3.11" in matrix["python"]
