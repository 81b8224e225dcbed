"""The README's examples run, and say what they print: each Python block is executed and
the results its comments (or the text block after it) claim are asserted; each `ddz`
command line of the shell blocks parses (stale options fail here), and the cheap ones run
and answer as their comments say; the "Layout" names every module once."""

import re
import shlex

import pytest

import ddz
from conftest import NO_EXTENSIONS, README, readme_code

#: the README headings whose first Python block a test runs (the Ray block runs in
#: tests/test_distributed.py::test_readme_block, which has the module's Ray cluster)
RUN_HERE = ["Python API", "Playing", "The game as text", "Matches", "Four players", "Reinforcement learning",
            "RL environments (`ddz.envs`)", "Coming from DouZero / RLCard / OpenSpiel", "Endgame solver", "Evaluating a bot"]
RUN_ELSEWHERE = ["Scale out with Ray", "DouZero's networks, without torch"]   # the latter: tests/neural


def _python_block_headings():
    """The heading (## or ###) above each ```python block of the README, in order."""
    heading, found = None, []
    for line in README.read_text(encoding="utf-8").splitlines():
        m = re.match(r"#{2,3} (.*)", line)
        if m:
            heading = m.group(1).strip()
        elif line.strip() == "```python":
            found.append(heading)
    return found


def test_every_python_block_is_run_by_a_test():
    assert sorted(_python_block_headings()) == sorted(RUN_HERE + RUN_ELSEWHERE)


def _run(heading, capsys):
    """Execute the README block under ``heading``; returns (its globals, stdout lines)."""
    scope = {}
    exec(compile(readme_code(heading), "README.md", "exec"), scope)
    return scope, capsys.readouterr().out.splitlines()


def test_python_api_block_matches_its_comments():
    lines = [ln for ln in readme_code("Python API").splitlines() if ln.startswith("ddz.")]
    assert len(lines) >= 4
    scope = {"ddz": ddz}
    results = [eval(ln.split("#", 1)[0], scope) for ln in lines]
    assert repr(results[0]) == "Play.parse('333444+56')" and results[0].type is ddz.PlayType.AIRPLANE_SINGLES
    assert results[1] is True
    assert results[2] == [ddz.PASS, ddz.Play.parse("BR")]
    assert results[3] == 19
    codes = results[4]
    assert [ddz.Play.from_code(c) for c in codes] == ddz.legal_moves("33344455")


def test_playing_block(capsys):
    scope, out = _run("Playing", capsys)
    game = scope["game"]
    assert game.result is not None and sum(game.result.scores) == 0
    assert out == [f"{game.result.scores} {game.result.breakdown}"]
    assert ddz.Game.from_record(scope["record"]).result == game.result


def test_the_game_as_text_block_prints_the_text_shown(capsys):
    _, out = _run("The game as text", capsys)
    shown = readme_code("The game as text", "text").splitlines()
    assert out == shown
    assert out[0] == "Dou Dizhu, seed 8: playing, seat 1 to play" and "(seen by seat 1)" in out[7]


def test_matches_block(capsys):
    scope, out = _run("Matches", capsys)
    m = scope["match"]
    assert m.finished and m.hands_played == m.hands == 6
    assert out == [f"{m.totals} {m.winners}"]
    assert ddz.Match.from_record(m.to_record()).totals == m.totals


def test_four_players_block_prints_what_its_comment_says(capsys):
    scope, out = _run("Four players", capsys)
    code = readme_code("Four players")
    claimed = re.search(r"print\(ddz\.legal_moves.*#\s*(.*)", code).group(1).strip()
    assert out[0] == claimed == "[Play.parse('pass'), Play(PlayType.BOMB, 0, 1, width=5)]"
    assert eval(claimed, vars(ddz)) == ddz.legal_moves("33333", "2222", scope["rules"])   # the repr is code
    r = scope["game"].result
    assert r is not None and len(r.scores) == 4 and sum(r.scores) == 0
    assert out[1] == f"{r.scores} {r.open_play}"
    assert scope["rules"] == ddz.Rules.four_player()


def test_reinforcement_learning_block(capsys):
    scope, out = _run("Reinforcement learning", capsys)
    result = scope["game"].result
    assert result is not None and sum(result.scores) == 0
    assert out == [str(result)]


def test_rl_environments_block(capsys):
    pytest.importorskip("pettingzoo")
    scope, out = _run("RL environments", capsys)
    scores = scope["e"].unwrapped.game.result.scores
    assert out == [str(scores)] and len(scores) == 3 and sum(scores) == 0


def test_coming_from_other_engines_block_runs():
    exec(compile(readme_code("Coming from DouZero / RLCard / OpenSpiel"), "README.md", "exec"), {})


def test_endgame_solver_block_runs_as_described(capsys):
    code = readme_code("Endgame solver")
    if NO_EXTENSIONS:   # the pure-Python fallback refuses a 25-card puzzle without a limit
        with pytest.raises(ddz.DdzError, match="DDZ_NO_EXTENSIONS"):
            exec(code, {})
        return
    exec(code, {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("True [Play.parse('8')]")
    assert out[1] == "(-8, 4, 4)"


# -- the shell blocks ---------------------------------------------------------------------

def _shell_blocks():
    return re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _ddz_commands():
    """Every ``ddz ...`` command of the README's shell blocks, as argv lists (pipes and
    ``&&`` split, comments dropped)."""
    commands = []
    for block in _shell_blocks():
        for line in block.splitlines():
            line = line.split("#", 1)[0]
            for part in re.split(r"\|\||&&|\|", line):
                words = shlex.split(part)
                if words and words[0] == "ddz":
                    commands.append(words[1:])
    return commands


def test_every_ddz_command_line_in_the_readme_parses():
    from ddz.cli import build_parser
    commands = _ddz_commands()
    assert len(commands) >= 15
    for argv in commands:
        if argv == ["--version"]:
            continue
        args = build_parser().parse_args(argv)       # a stale option exits (SystemExit 2)
        assert callable(args.func), argv


def test_command_line_block_answers_as_its_comments_say(run_cli):
    block = readme_code("Command line", "sh")
    answers = {}
    for line in block.splitlines():
        command, _, comment = line.partition("#")
        code, out, err = run_cli(*shlex.split(command)[1:])
        assert code == 0, (line, err)
        answers[command.strip()] = (out, comment.strip())
    out, _ = answers["ddz moves 33344455 --kickers repeat"]
    assert out.splitlines()[-1] == f"{ddz.count_legal_moves('33344455', rules=ddz.Rules(kickers='repeat'))} legal moves"
    out, comment = answers["ddz moves BR --to-beat 2222"]
    assert comment == "pass, BR" and [ln.split()[-1] for ln in out.splitlines()[:-1]] == ["pass", "BR"]
    out, comment = answers["ddz classify 4444B5"]
    assert out.strip() == comment == "FOUR_TWO_SINGLES 4444+5B"
    for command in ("ddz moves 44445566 --count --profile openspiel",
                    "ddz moves 44445566 --count --profile openspiel --four-with-two"):
        out, comment = answers[command]
        assert out.strip() == comment.split(":")[0]
    rules = ddz.Rules.profile("openspiel")
    assert answers["ddz moves 44445566 --count --profile openspiel"][0].strip() == \
        str(ddz.count_legal_moves("44445566", rules=rules))


# -- the layout ---------------------------------------------------------------------------

def test_layout_names_every_module_once_and_no_other():
    text = README.read_text(encoding="utf-8").split("## Layout", 1)[1]
    paragraph = text.split("`tests/`", 1)[0]
    named = re.findall(r"`([\w.]+)`", paragraph)
    src = README.parent / "src" / "ddz"          # the checkout's (a wheel has no .pyx)
    modules = {p.stem if p.suffix == ".py" else p.name for p in list(src.glob("*.py")) + list(src.glob("*.pyx"))}
    modules.discard("__init__")
    modules |= {p.parent.name for p in src.glob("*/__init__.py")}      # the subpackages
    named = [n for n in named if n != "ddz"]
    assert sorted(set(named)) == sorted(named), "a module named twice"
    assert set(named) == modules


@pytest.mark.parametrize("doc", ["README.md", "docs/api.md"])
def test_no_passage_is_written_twice(doc):
    """No run of 8 words appears twice in the prose (code blocks aside): a paragraph
    pasted twice, or a stale half of an edit left behind, fails here."""
    text = re.sub(r"```.*?```", "", (README.parent / doc).read_text(encoding="utf-8"), flags=re.S)
    words = text.split()
    seen = {}
    for i in range(len(words) - 8):
        run = " ".join(words[i:i + 8])
        assert run not in seen or seen[run] > i - 8, f"{doc} repeats {run!r}"
        seen.setdefault(run, i)


def test_evaluating_a_bot_block_runs(capsys):
    exec(compile(readme_code("Evaluating a bot"), "README", "exec"), {})
    wp = float(capsys.readouterr().out.split()[0])
    assert 0.5 < wp <= 1
