"""The README's Python API block: each line's trailing comment states its result."""

import ddz
from conftest import readme_code


def api_block():
    return readme_code("Python API")


def test_python_api_block_matches_its_comments():
    lines = [ln for ln in api_block().splitlines() if ln.startswith("ddz.")]
    assert len(lines) >= 4
    scope = {"ddz": ddz}
    results = [eval(ln.split("#", 1)[0], scope) for ln in lines]
    assert repr(results[0]) == "Play.parse('333444+56')" and results[0].type is ddz.PlayType.AIRPLANE_SINGLES
    assert results[1] is True
    assert results[2] == [ddz.PASS, ddz.Play.parse("BR")]
    assert results[3] == 19
    codes = results[4]
    assert [ddz.Play.from_code(c) for c in codes] == ddz.legal_moves("33344455")


def test_endgame_solver_block_runs_as_described(capsys):
    import pytest
    from conftest import NO_EXTENSIONS
    code = readme_code("Endgame solver")
    if NO_EXTENSIONS:   # the pure-Python fallback refuses a 25-card puzzle without a limit
        with pytest.raises(ddz.DdzError, match="DDZ_NO_EXTENSIONS"):
            exec(code, {})
        return
    exec(code, {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("True [Play.parse('8')]")
    assert out[1] == "(-8, 4, 4)"


def test_coming_from_other_engines_block_runs():
    exec(compile(readme_code("Coming from DouZero / RLCard / OpenSpiel"), "README", "exec"), {})


def test_evaluating_a_bot_block_runs(capsys):
    exec(compile(readme_code("Evaluating a bot"), "README", "exec"), {})
    wp = float(capsys.readouterr().out.split()[0])
    assert 0.5 < wp <= 1
