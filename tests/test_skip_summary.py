"""The test command says at its end which tests were skipped and why, without ``-rs``
(tests/conftest.py's ``pytest_terminal_summary``; issue 40, item 7): where Chromium is
missing, the browser tests' skip must not pass unnoticed."""

import os
import pathlib
import subprocess
import sys
import types

from conftest import skip_summary

TESTS = pathlib.Path(__file__).resolve().parent


def _report(nodeid, reason):
    return types.SimpleNamespace(nodeid=nodeid, longrepr=(nodeid.split("::")[0], 1, f"Skipped: {reason}"))


def test_skips_are_grouped_by_file_and_reason():
    reports = [_report(f"tests/web/test_web_browser.py::test_{i}", "no Chromium") for i in range(6)]
    reports += [_report("tests/arena/test_example_bots.py::test_node", "needs Node.js")]
    assert skip_summary(reports) == ["   6 skipped: tests/web/test_web_browser.py: no Chromium",
                                     "   1 skipped: tests/arena/test_example_bots.py: needs Node.js"]
    many = [_report(f"t{i}.py::t", f"reason {i}") for i in range(15)]
    assert len(skip_summary(many)) == 13 and skip_summary(many)[-1].endswith("(pytest -rs lists every one)")


def test_a_run_without_chromium_says_why_the_browser_tests_skipped():
    # no program on the PATH: no Chromium, no chromedriver (CI=true would make them fail)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PATH"] = os.devnull
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        str(TESTS / "web" / "test_web_browser.py")],
                       capture_output=True, text=True, env=env, cwd=TESTS.parent, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:]
    tail = r.stdout[r.stdout.index("skipped tests, by reason"):]
    assert "skipped: tests/web/test_web_browser.py: " in tail and "chromium" in tail.lower()
    n = int(tail.split("skipped: tests/web/test_web_browser.py")[0].split()[-1])
    assert f"{n} skipped" in r.stdout.splitlines()[-1] and n >= 6
