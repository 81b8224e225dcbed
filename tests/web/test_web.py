"""``ddz serve`` (issue 28): the JSON API over real HTTP against a running server, the
worker pool, the replay frames, the load test, the card component and
``Game._repr_html_``. The browser tests are in test_web_browser.py."""

from __future__ import annotations

import asyncio
import ast
import json
import pathlib
import re
import shlex
import subprocess
import sys
import time

import pytest

import ddz
from conftest import NO_EXTENSIONS, readme_code
from webtools import HARD, PUZZLES, WZ8, Server, alive, cpu_seconds, load_test, rss_kib

from ddz.web import api, cards
from ddz.web import cli as webcli
from ddz.web.pool import Busy, SolverPool

try:
    import httpx
except ImportError:         # the tests that need it skip through the web_stack fixture
    httpx = None

SRC = pathlib.Path(ddz.__file__).resolve().parent / "web"
DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "api.md"
#: the puzzle solved over HTTP: WZ8, or a small one where the pure-Python search answers
PUZZLE = "KK5543/225543" if NO_EXTENSIONS else f"{WZ8['first']}/{WZ8['second']}"


@pytest.fixture(scope="module")
def web_stack():
    """Skip a test that serves or calls over HTTP when the web extra or the tests' HTTP
    client is missing (the card component, the replay frames and the API's checks need
    none of them)."""
    for name in ("httpx", "psutil", "starlette", "uvicorn"):
        pytest.importorskip(name)


needs_web = pytest.mark.usefixtures("web_stack")


@pytest.fixture(scope="module")
def server(web_stack):
    s = Server("--workers", "2", "--time-limit", "20")
    yield s
    assert s.stop() == 0


def post(server, path, body, **kw):
    return httpx.post(server.url.rstrip("/") + path, json=body, timeout=kw.pop("timeout", 30), **kw)


def get(server, path):
    return httpx.get(server.url.rstrip("/") + path, timeout=10)


# -- the page --------------------------------------------------------------------------

def test_serves_on_loopback_by_default(server):
    assert server.url.startswith("http://127.0.0.1:")
    from ddz.web.cli import is_loopback
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")


def test_page_and_assets_work_offline(server):
    page = get(server, "/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for rank in cards.RANKS:
        assert f'<symbol id="ddz-card-{rank}"' in page.text      # the card component, put in once
    assert "<!--ddz:cards-->" not in page.text and ddz.__version__ in page.text
    static = sorted(p.name for p in (SRC / "static").iterdir())
    assert {"index.html.in", "app.js", "api.js", "cards.js", "solver.js", "replay.js", "app.css"} <= set(static)
    for name in static:
        r = get(server, f"/static/{name}")
        assert r.status_code == 200, name
        # no CDN, no remote font: the only URL is the SVG namespace
        assert "https://" not in r.text and "http://" not in r.text.replace("http://www.w3.org/2000/svg", ""), name
    assert page.headers["content-security-policy"].startswith("default-src 'self'")


def test_info_names_the_presets_and_limits(server):
    info = get(server, "/api/info").json()
    assert info["presets"] == ["standard", "repeat", *ddz.Rules.profiles()]
    assert info["time_limit"] == 20.0 and info["workers"] == 2 and info["version"] == ddz.__version__


# -- solve -----------------------------------------------------------------------------

def test_solve_answers_what_ddz_solve_answers(server):
    r = post(server, "/api/solve", {"position": PUZZLE})
    assert r.status_code == 200
    ans = r.json()
    pos = ddz.Position.parse(PUZZLE)
    want = ddz.solve(pos, all_moves=True)
    assert ans["exact"] is True and ans["stopped"] is None
    assert (ans["win"], ans["landlord_wins"]) == (want.win, want.landlord_wins)
    assert ans["moves"] == [str(m) for m in want.moves] and ans["pv"] == [str(m) for m in want.pv]
    assert ans["position"] == str(pos) and ans["seats"] == 2 and ans["to_move"] == 0
    assert ans["value"] is None and ans["scores"] is None and ans["nodes"] > 0 and ans["rules"] == {}
    # the line move by move: the hands after each move, the trick
    p = pos
    for step, move in zip(ans["line"], want.pv):
        assert step["seat"] == p.to_move and step["move"] == str(move)
        p = p.after(move)
        assert step["hands"] == [ddz.format_cards(h) for h in p.hands]
        assert step["trick"][step["seat"]] == str(move)
    assert p.over and len(ans["line"]) == len(want.pv)


def test_solve_puzzles_published_answers(server):
    names = ("WZ1", "WZ3", "hupu") if NO_EXTENSIONS else [p["name"] for p in PUZZLES]
    for p in PUZZLES:
        if p["name"] in names:
            ans = post(server, "/api/solve", {"position": f"{p['first']}/{p['second']}", "all_moves": False}).json()
            assert ans["win"] is p["first_wins"], p["name"]
            assert len(ans["moves"]) == (1 if p["first_wins"] else 0)


def test_solve_score_mode_three_seats_and_object_form(server):
    position = {"hands": ["KK55", "2254", "36"], "landlord": 1, "to_move": 2, "to_beat": "4",
                "last_player": 1, "base": 3}
    ans = post(server, "/api/solve", {"position": position, "score": True}).json()
    pos = ddz.Position(**position)
    want = ddz.solve(pos, score=True, all_moves=True)
    assert ans["position"] == str(pos) and ans["seats"] == 3
    assert ans["value"] == want.value and ans["scores"] == list(want.scores)
    assert ans["moves"] == [str(m) for m in want.moves]
    assert ans["line"][0]["trick"][1] == "4"        # the play to beat stays shown
    # the same position as text
    assert post(server, "/api/solve", {"position": str(pos), "score": True}).json()["value"] == want.value


def test_solve_under_a_profile(server):
    ans = post(server, "/api/solve", {"position": "KK5543/225543", "rules": "douzero"}).json()
    assert api.rules_arg(ans["rules"]).move_rules == ddz.Rules.profile("douzero").move_rules
    assert ans["rules"] == {"kickers": "repeat", "wings": "any", "airplane_rank": "trios", "beat_reading": "cards"}
    ans = post(server, "/api/solve", {"position": "KK5543/225543", "rules": {"kickers": "repeat"}}).json()
    assert ans["rules"] == {"kickers": "repeat"}
    assert ans["position"] == str(ddz.Position.parse("KK5543/225543 kickers=repeat"))


def test_server_time_limit_caps_every_request():
    job = api.solve_job({"position": "KK5543/225543", "time_limit": 1e9}, 30.0)
    assert job["time_limit"] == 30.0 and job["all_moves"] is True
    assert api.solve_job({"position": "KK5543/225543"}, 7.0)["time_limit"] == 7.0
    assert api.solve_job({"position": "KK5543/225543", "time_limit": 2}, 7.0)["time_limit"] == 2.0


def test_time_limit_stops_a_long_search(server):
    ans = post(server, "/api/solve", {"position": HARD, "time_limit": 0.5}, timeout=15).json()
    assert ans["exact"] is False and ans["stopped"] == "time limit"
    assert ans["moves"] == [] and ans["line"] == [] and ans["win"] is None


def _status(server):
    return get(server, "/api/status").json()


def _wait(predicate, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _workers_idle(server, window=0.6):
    """Every worker is idle and uses (almost) no CPU over ``window`` seconds."""
    assert _wait(lambda: _status(server)["idle"] == 2)
    pids = _status(server)["pids"]
    before = [cpu_seconds(p) for p in pids]
    time.sleep(window)
    return max(cpu_seconds(p) - b for p, b in zip(pids, before)) < window / 3


def test_a_client_that_goes_away_stops_its_search(server):
    """The page's Cancel aborts its request: the server stops that search (the worker's
    CPU falls idle) and the worker serves the next request at once."""
    before = _status(server)
    with pytest.raises(httpx.ReadTimeout):
        post(server, "/api/solve", {"position": HARD, "time_limit": 20}, timeout=1.0)
    assert _wait(lambda: _status(server)["cancelled"] == before["cancelled"] + 1)
    assert _workers_idle(server)
    after = _status(server)
    # stopped by ddz.solve's cancel event, in the same worker (no worker was killed)
    assert after["cancel"] == "event" and after["replaced"] == before["replaced"] and after["pids"] == before["pids"]
    ans = post(server, "/api/solve", {"position": "KK5543/225543"}, timeout=10).json()
    assert ans["exact"] is True


def test_a_worker_that_dies_is_replaced(server):
    import psutil
    before = _status(server)
    psutil.Process(before["pids"][0]).kill()
    answers = [post(server, "/api/solve", {"position": "KK5543/225543"}, timeout=30) for _ in range(3)]
    assert [a.status_code for a in answers] == [200] * 3 and all(a.json()["exact"] for a in answers)
    assert _wait(lambda: _status(server)["idle"] == 2)
    after = _status(server)
    assert before["pids"][0] not in after["pids"] and before["pids"][1] in after["pids"]
    assert after["replaced"] == before["replaced"] + 1 and len(after["pids"]) == 2


# -- legal moves and classify -------------------------------------------------------------

def test_legal_moves_as_the_python_api(server):
    ans = post(server, "/api/legal", {"hand": "33344455", "to_beat": "666+7"}).json()
    want = ddz.legal_moves("33344455", "666+7")
    assert ans == {"moves": [str(m) for m in want], "count": len(want)}
    ans = post(server, "/api/legal", {"hand": "3334445566", "rules": "repeat"}).json()
    assert ans["count"] == ddz.count_legal_moves("3334445566", rules=ddz.REPEAT_KICKERS)
    ans = post(server, "/api/legal", {"position": "KK5543/225543 to_move=1 to_beat=K last=0"}).json()
    pos = ddz.Position.parse("KK5543/225543 to_move=1 to_beat=K last=0")
    assert ans["moves"] == [str(m) for m in pos.legal_moves()]
    counts = [3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert post(server, "/api/legal", {"hand": counts}).json()["count"] == ddz.count_legal_moves(counts)


def test_classify_as_the_python_api(server):
    ans = post(server, "/api/classify", {"cards": "33344456"}).json()
    assert ans == {"play": "333444+56", "type": "AIRPLANE_SINGLES", "readings": ["333444+56"]}
    ans = post(server, "/api/classify", {"cards": "333444555666", "rules": "douzero"})
    with pytest.raises(ddz.DdzError) as exc:
        ddz.classify("333444555666", ddz.Rules.profile("douzero"))
    assert ans.status_code == 422 and ans.json() == {"error": str(exc.value), "type": type(exc.value).__name__}


# -- bad input --------------------------------------------------------------------------

def _ddz_error(fn):
    with pytest.raises(ddz.DdzError) as exc:
        fn()
    return {"error": str(exc.value), "type": type(exc.value).__name__}


BAD = [
    ("/api/solve", {"position": "33X/44"}, lambda: ddz.Position.parse("33X/44")),
    ("/api/solve", {"position": "3333/33"}, lambda: ddz.Position.parse("3333/33")),
    ("/api/solve", {"position": "33/44 to_beat=5"}, lambda: ddz.Position.parse("33/44 to_beat=5")),
    ("/api/solve", {"position": "33/44/55/66"}, lambda: ddz.Position.parse("33/44/55/66")),
    ("/api/solve", {"position": {"hands": ["33", "44"], "landlord": 2}},
     lambda: ddz.Position(["33", "44"], landlord=2)),
    ("/api/solve", {"position": "33/44", "rules": "nope"}, lambda: api.rules_arg("nope")),
    ("/api/solve", {"position": "33/44", "rules": {"kickers": "many"}}, lambda: ddz.Rules(kickers="many")),
    ("/api/solve", {"position": "33/44 kickers=repeat", "rules": "douzero"},
     lambda: api.position_arg("33/44 kickers=repeat", "douzero")),
    ("/api/solve", {"position": "33/44", "time_limit": 0}, lambda: api.solve_job({"position": "33/44", "time_limit": 0}, 9)),
    ("/api/solve", {"position": "33/44", "node_limit": True}, lambda: api.solve_job({"position": "33/44", "node_limit": True}, 9)),
    ("/api/solve", {"position": "33/44", "score": "yes"}, lambda: api.solve_job({"position": "33/44", "score": "yes"}, 9)),
    ("/api/solve", {"hands": "33/44"}, lambda: api.solve_job({"hands": "33/44"}, 9)),
    ("/api/solve", [1, 2], lambda: api.solve_job([1, 2], 9)),
    ("/api/legal", {"hand": "3334", "to_beat": "pass"}, lambda: ddz.legal_moves("3334", "pass")),
    ("/api/legal", {"hand": {"3": 1}}, lambda: api.legal({"hand": {"3": 1}})),
    ("/api/legal", {"hand": [1] * 14}, lambda: ddz.legal_moves([1] * 14)),
    ("/api/legal", {}, lambda: api.legal({})),
    ("/api/classify", {"cards": "3345"}, lambda: ddz.classify("3345")),
    ("/api/classify", {"cards": ""}, lambda: ddz.classify("")),
    ("/api/replay", {"text": ""}, lambda: api.read_records("")),
    ("/api/replay", {"text": "{}\n{oops"}, lambda: api.read_records("{}\n{oops")),
    ("/api/replay", {"records": []}, lambda: api.replay({"records": []})),
]


@pytest.mark.parametrize("path, body, raise_it", BAD, ids=[f"{p}-{i}" for i, (p, *_) in enumerate(BAD)])
def test_bad_input_is_a_422_with_the_ddz_error(server, path, body, raise_it):
    r = post(server, path, body)
    assert r.status_code == 422
    assert r.json() == _ddz_error(raise_it)


def test_a_bad_record_is_refused_with_its_own_message(server):
    g = ddz.Game(seed=3)
    ddz.search.bots.play_hand(g, [ddz.GreedyBot(), ddz.GreedyBot(), ddz.GreedyBot()])
    rec = g.to_record()
    rec["actions"][5]["action"] = "BR" if rec["actions"][5]["action"] != "BR" else "3"
    own = _ddz_error(lambda: ddz.Game.from_record(rec))
    good = json.dumps(g.to_record())
    r = post(server, "/api/replay", {"text": good + "\n\n" + json.dumps(rec) + "\n"})
    assert r.status_code == 422
    assert r.json() == {"error": f"record 2 (line 3): {own['error']}", "type": "RecordError"}


@pytest.mark.parametrize("data, headers, status", [
    (b"{not json", {"Content-Type": "application/json"}, 400),
    (b"\xff\xfe{}", {"Content-Type": "application/json"}, 400),
    (b"[" * 100000 + b"]" * 100000, {"Content-Type": "application/json"}, 413),
    (b"[" * 5000 + b"]" * 5000, {"Content-Type": "application/json"}, 400),
    (b"[" * 65 + b"]" * 65, {"Content-Type": "application/json"}, 400),     # the same on every Python
    (b'{"position": "KK5543/225543"}', {"Content-Type": "text/plain"}, 415),
    (b'{"position": "KK5543/225543"}', {}, 415),
    (b'{"position": "KK5543/225543", "time_limit": 1' + b"0" * 5000 + b"}",
     {"Content-Type": "application/json"}, 400),
])
def test_malformed_bodies_are_4xx(server, data, headers, status):
    r = httpx.post(server.url + "api/solve", content=data, headers=headers, timeout=10)
    assert r.status_code == status and set(r.json()) == {"error", "type"}


@needs_web
def test_a_bug_is_a_json_500_not_a_dead_server(capsys):
    from starlette.applications import Starlette
    from starlette.routing import Route

    from ddz.web import server as web_server

    async def boom(body):
        raise RuntimeError(f"boom {body['n']}")

    async def handle(request):
        return await web_server._answer(request, 100, boom)

    async def main():
        app = Starlette(routes=[Route("/x", handle, methods=["POST"])])
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
            return [await client.post("/x", json={"n": n}) for n in range(2)]

    for n, r in enumerate(asyncio.run(main())):
        assert r.status_code == 500 and r.json() == {"error": f"internal error: RuntimeError: boom {n}", "type": "internal"}
    assert "RuntimeError: boom 1" in capsys.readouterr().err


def test_unknown_routes_and_methods(server):
    assert get(server, "/api/nope").status_code == 404
    assert get(server, "/api/solve").status_code == 405


# -- the documented examples ----------------------------------------------------------------

def _doc_examples():
    """(path, request, status, answer fields) of each ```http example of docs/api.md's web section."""
    section = DOCS.read_text(encoding="utf-8").split("## `ddz.web`", 1)[1].split("\n## ", 1)[0]
    out = []
    for block in re.findall(r"```http\n(.*?)```", section, re.S):
        head, rest = block.split("\n", 1)
        request, answer = rest.split("\n\n", 1)
        status, body = answer.split("\n", 1)
        out.append((head.split()[1], json.loads(request), int(status), json.loads(body)))
    return out


@pytest.mark.parametrize("path, request_body, status, fields", _doc_examples())
def test_docs_api_examples(server, path, request_body, status, fields):
    r = post(server, path, request_body)
    assert r.status_code == status
    got = r.json()
    # the pure-Python search finds another principal variation (the answer is the same)
    skip = {"pv", "line", "nodes"} if NO_EXTENSIONS else set()
    assert {k: v for k, v in fields.items() if k not in skip} == {k: got[k] for k in fields if k not in skip}


def test_readme_example(server):
    block = readme_code("In the browser", "sh")
    assert "ddz serve" in block and 'pip install ".[web]"' in block
    curl = shlex.split(next(line for line in block.splitlines() if line.startswith("curl")))
    assert curl[curl.index("-H") + 1] == "Content-Type: application/json"
    r = post(server, "/api/solve", json.loads(curl[curl.index("-d") + 1]))
    assert r.status_code == 200 and r.json()["win"] is True


# -- the pool ---------------------------------------------------------------------------

@needs_web
def test_pool_runs_at_most_n_solves_and_bounds_the_queue():
    async def main():
        pool = SolverPool(workers=1, max_waiting=1)
        await pool.start()
        try:
            long_job = api.solve_job({"position": HARD, "time_limit": 30}, 30)
            first = asyncio.ensure_future(pool.solve(long_job))
            while pool.idle.qsize():
                await asyncio.sleep(0.01)
            second = asyncio.ensure_future(pool.solve(api.solve_job({"position": "KK5543/225543"}, 5)))
            await asyncio.sleep(0.05)
            assert pool.status()["waiting"] == 1 and not second.done()    # waits: one solve at a time
            with pytest.raises(Busy):
                await pool.solve(api.solve_job({"position": "KK5543/225543"}, 5))
            first.cancel()                     # as when the client goes away
            msg = await asyncio.wait_for(second, 10)
            assert msg["ok"] and msg["answer"]["win"] is True
            assert pool.status()["cancelled"] == 1
        finally:
            await pool.close()
        assert all(w.proc.returncode is not None for w in pool.workers) and not pool.workers
    asyncio.run(main())


# -- load -------------------------------------------------------------------------------

def test_load_100_concurrent_requests_twice(server, capsys):
    """100 requests at once (solves, legal-move queries, bad input), twice: only the
    expected answers, the server still answers, and its memory settles."""
    first = load_test(server.url, small=NO_EXTENSIONS)
    after_first = rss_kib(server.proc.pid)
    second = load_test(server.url, small=NO_EXTENSIONS)
    after_second = rss_kib(server.proc.pid)
    for run in (first, second):
        assert run["unexpected"] == [] and run["requests"] == 100
        assert all(200 <= s < 500 for s in run["statuses"])
    assert get(server, "/api/status").json()["idle"] == 2
    assert post(server, "/api/legal", {"hand": "33"}).json()["count"] == 2
    assert abs(after_second - after_first) <= 10 * 1024, (after_first, after_second)
    with capsys.disabled():
        print(f"\nload test: {json.dumps({'first': first, 'second': second, 'rss_kib': [after_first, after_second]})}")


# -- replay -----------------------------------------------------------------------------

def _played(rules=ddz.STANDARD, seed=0):
    g = ddz.Game(rules, seed=seed)
    ddz.search.bots.play_hand(g, [ddz.GreedyBot() for _ in range(rules.seats)])
    return g


def _check_frames(h, g):
    assert len(h["frames"]) == len(h["actions"]) + 1 == len(g.actions) + 1
    last = h["frames"][-1]
    assert last["hands"] == [ddz.format_cards(g.hand(s)) for s in range(g.seats)]
    assert last["landlord"] == g.landlord
    first = h["frames"][0]
    assert first["hands"] == [ddz.format_cards(x) for x in g.deals[0].hands] and first["landlord"] is None
    assert h["result"] == {**g.result.to_json(), "breakdown": g.result.breakdown}


def test_replay_frames_follow_the_game():
    games = [_played(seed=s) for s in range(3)]
    games.append(_played(ddz.Rules(bidding="rob", doubling=True), 4))
    games.append(_played(ddz.Rules.four_player(), 5))
    redealt = ddz.Game(seed=7)
    for _ in range(6):                     # everybody passes twice: two redeals
        redealt.step(0)
    ddz.search.bots.play_hand(redealt, [ddz.GreedyBot()] * 3)
    games.append(redealt)
    out = api.replay({"text": "\n".join(json.dumps(g.to_record()) for g in games)})
    assert [h["label"] for h in out["hands"]] == [f"record {i}" for i in range(1, 7)]
    for h, g in zip(out["hands"], games):
        _check_frames(h, g)
    # the redeal: frames of the void deal, then the next deal's cards
    h = out["hands"][-1]
    assert len(h["deals"]) == redealt.redeals + 1
    k = redealt.seats * redealt.redeals
    assert redealt.redeals == 2 and h["frames"][k]["deal"] == 2 and h["frames"][k - 1]["deal"] == 1
    # the bottom joins the landlord's hand when the auction ends
    lord = next(f for f in h["frames"] if f["landlord"] is not None)
    assert sum(ddz.parse_cards(lord["hands"][lord["landlord"]])) == 20


def test_replay_of_a_match_and_a_void_hand(server):
    m = ddz.Match(hands=2, seed=9)
    while not m.finished:
        ddz.search.bots.play_hand(m.game, [ddz.GreedyBot()] * 3)
        if not m.finished:
            m.next_hand()
    void = ddz.Game(ddz.Rules(all_pass="void"), seed=1)
    for _ in range(3):
        void.step(0)
    r = post(server, "/api/replay", {"records": [m.to_record(), void.to_record()]})
    assert r.status_code == 200
    hands = r.json()["hands"]
    assert [h["label"] for h in hands[:-1]] == [f"record 1, match hand {k}" for k in range(1, len(m.games) + 1)]
    for h, g in zip(hands, m.games):
        _check_frames(h, g)
    assert hands[-1]["result"]["void"] == void.result.void and hands[-1]["landlord"] is None


# -- the command, the card component, notebooks -----------------------------------------------

@needs_web
def test_serve_command_help_and_errors(run_cli, capsys, monkeypatch):
    with pytest.raises(SystemExit) as exc:
        run_cli("serve", "--help")
    assert exc.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "loopback address only unless --host" in text and "--time-limit SECONDS" in text
    code, out, err = run_cli("serve", "--host", "256.0.0.1", "--port", "0")
    assert code == 2 and err.startswith("ddz: error: cannot listen on 256.0.0.1:0")
    with pytest.raises(SystemExit):
        run_cli("serve", "--workers", "-1")
    # capped before any worker starts (ddz.threads_arg): a process per worker, a table per process
    started = []
    monkeypatch.setattr(webcli, "serve", lambda *a, **kw: started.append(kw["workers"]))
    for asked in ("100000", "0"):
        assert run_cli("serve", "--workers", asked, "--port", "0")[0] == 0
    assert started == [webcli.MAX_WORKERS_PER_CPU * ddz.usable_cpus(), ddz.usable_cpus()]
    monkeypatch.undo()
    with pytest.raises(SystemExit):     # argparse's own: tests/cli/test_cli_game.py reads the message
        run_cli("serve", "--table-mb", "2000000", "--port", "0")
    code, out, err = run_cli("serve", "--workers", "2", "--table-mb", str(1 << 20), "--port", "0")
    assert code == 2 and "do not fit in the" in err and out == ""


@needs_web
def test_serve_stops_on_ctrl_c_and_takes_its_workers_along():
    s = Server("--workers", "1")
    pids = get(s, "/api/status").json()["pids"]
    assert s.stop() == 0
    assert _wait(lambda: not any(alive(p) for p in pids), 10)


def test_card_component():
    assert cards.card_face("T").count("10") == 2 and "#c8102e" in cards.card_face("R")
    with pytest.raises(KeyError):
        cards.card_face("X")
    svg = cards.card_svg("Q", 40)
    assert svg.startswith("<svg ") and 'width="40"' in svg and 'height="56"' in svg and cards.card_face("Q") in svg
    sprite = cards.sprite()
    assert sprite.count("<symbol ") == 16 and all(cards.card_face(r) in sprite for r in cards.RANKS)
    assert cards.hand_html("33BR").count("<svg ") == 4 and cards.hand_html("").endswith("(none)</span>")
    assert cards.hand_html("", face_down=3).count('data-rank="back"') == 3


def test_game_repr_html_draws_the_hands_without_the_web_stack():
    code = ("import sys, ddz\n"
            "g = ddz.Game(seed=1, first_bidder=0)\n"
            "html = g._repr_html_()\n"
            "assert 'starlette' not in sys.modules and 'ddz.web.server' not in sys.modules\n"
            "print(html)\n")
    html = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    g = ddz.Game(seed=1, first_bidder=0)
    assert html.strip() == g._repr_html_()
    assert html.count('<svg ') == 54 and html.count('data-rank="back"') == 3   # the bottom face down
    assert "phase <b>bidding</b>" in html and "◀ to act" in html
    g.step(3)
    html = g._repr_html_()
    assert "landlord seat 0" in html and html.count('data-rank="back"') == 0
    ddz.search.bots.play_hand(g, [ddz.GreedyBot()] * 3)
    html = g._repr_html_()
    assert f"{g.result.winner} win" in html and f"score {g.result.score}" in html


def test_web_package_uses_only_public_ddz_names():
    """ddz.web imports the rest of ddz only through the names ``import ddz`` exports."""
    for path in sorted(SRC.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ddz"):
                assert node.module == "ddz" and node.level == 0, f"{path.name}: from {node.module} import"
                assert all(a.name in ddz.__all__ for a in node.names), path.name
            if isinstance(node, ast.ImportFrom) and node.level == 2:
                raise AssertionError(f"{path.name}: a relative import out of ddz.web")
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ddz":
                assert node.attr in ddz.__all__, f"{path.name}: ddz.{node.attr}"


def test_replay_gives_the_seed_as_text():
    # issue 40, item 7: a page reads JSON numbers as doubles; the API adds seed_text
    seed = 7829437886636254564
    g = ddz.Game(seed=seed)
    ddz.search.bots.play_hand(g, [ddz.GreedyBot()] * 3)
    h = api.replay({"text": json.dumps(g.to_record())})["hands"][0]
    assert h["seed"] == seed and type(h["seed"]) is int and h["seed_text"] == "7829437886636254564"
    assert int(float(h["seed"])) != seed         # what a JavaScript number would hold


# -- where a hand was lost (issue 41) ------------------------------------------------------

#: seat 0 and the bottom hold the top bombs and the rocket: a landlord win that a landlord
#: playing at random soon gives away; every position of its hands is solved in milliseconds
STRONG = ("B2222AAAKKKK34567", "33444555666777888", "39999TTTTJJJJQQQQ", "8AR")


def _lost_record():
    g = ddz.Game(deal=STRONG, first_bidder=0)
    g.step(3)
    ddz.search.bots.play_hand(g, [ddz.RandomBot(seed=0), ddz.GreedyBot(), ddz.GreedyBot()])
    return g


def test_lost_at_job_and_answer():
    g = _lost_record()
    text = json.dumps(_played().to_record()) + "\n" + json.dumps(g.to_record())
    job = api.lost_at_job({"text": text, "hand": 1, "budget": 100}, 20.0)
    assert job["kind"] == "lost_at" and job["label"] == "record 2" and job["time_limit"] == 20.0
    assert job["first_action"] == len(g.actions) - len(g.plays) and job["move_time"] == api.LOST_AT_MOVE_TIME
    answer = api.run_job(json.loads(json.dumps(job)))
    want = ddz.lost_at(g, time_limit=None, budget=None)
    assert answer["summary"] == want.summary() and answer["first_change"] == want.first_change is not None
    assert answer["first_action"] == job["first_action"]
    assert api.stopped(job, "time limit") == {"label": "record 2", "first_action": job["first_action"],
                                              "stopped": "time limit"}


@pytest.mark.parametrize("body, text", [
    ({"records": [], "hand": 0}, "no records"),
    ({"text": "{}", "records": []}, "'text'"),
    ({"records": [None], "hand": 0}, "record 1"),
    ({"hand": 0}, "'text'"),
    ({"records": ["x"], "hand": 0, "nope": 1}, "nope"),
    ({"text": json.dumps(ddz.Game(seed=1).to_record()), "hand": 0}, "no play"),
    ({"text": json.dumps(ddz.Game(seed=1).to_record()), "hand": 1}, "hand must be an index 0..0"),
    ({"text": json.dumps(ddz.Game(seed=1).to_record()), "hand": True}, "hand must be"),
    ({"text": json.dumps(ddz.Game(seed=1).to_record()), "budget": 0}, "budget must be"),
])
def test_lost_at_job_refuses_bad_input(body, text):
    with pytest.raises(ddz.DdzError, match=re.escape(text)):
        api.lost_at_job(body, 20.0)


def test_lost_at_of_a_four_player_hand_is_refused():
    with pytest.raises(ddz.DdzError, match="three-player"):
        api.lost_at_job({"records": [_played(ddz.Rules.four_player(), 5).to_record()]}, 20.0)


def test_lost_at_over_http(server):
    g = _lost_record()
    r = post(server, "/api/lost_at", {"records": [g.to_record()], "hand": 0})
    assert r.status_code == 200, r.text
    got = r.json()
    want = ddz.lost_at(g, time_limit=None, budget=None)
    assert got["summary"] == want.summary() and got["label"] == "record 1"
    assert [m["landlord_wins"] for m in got["moves"]] == [m.landlord_wins for m in want.moves]
    r = post(server, "/api/lost_at", {"records": [g.to_record()], "hand": 3})
    assert r.status_code == 422 and "hand must be" in r.json()["error"]
