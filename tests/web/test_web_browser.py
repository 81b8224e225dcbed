"""``ddz serve`` in a real browser (issue 28): headless Chromium driven through Selenium,
with the system's chromedriver given as the driver service (nothing is downloaded).

Without Chromium or chromedriver these tests skip, naming what is missing, except under
``CI=true``, where they fail (CI installs ``chromium chromium-driver``: ``.ci/run``).
They save screenshots of both pages in ``DDZ_SCREENSHOTS`` (a directory) when it is set,
and print the WZ8 round trip (Solve pressed to answer drawn) for bench/README.md.
"""

from __future__ import annotations

import json
import os
import pathlib
import time

import pytest

import ddz
from conftest import NO_EXTENSIONS
from webtools import (HARD, WZ8, Server, cpu_seconds, chrome, enter_puzzle, find_browser, open_page,
                      solve_on_page, wait_for)

CI = os.environ.get("CI", "").lower() == "true"


def _missing(what: str):
    if CI:
        pytest.fail(f"{what} (CI=true: the browser tests must run; .ci/run installs chromium chromium-driver)")
    pytest.skip(what)


try:
    from selenium.webdriver.common.by import By
except ImportError:                                  # pragma: no cover - the test extra has it
    By = None

#: the puzzle the browser solves: WZ8, or a small one where the pure-Python search answers
HANDS = ["KK5543", "225543"] if NO_EXTENSIONS else [WZ8["first"], WZ8["second"]]


@pytest.fixture(scope="module")
def server():
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    s = Server("--workers", "2", "--time-limit", "30")
    yield s
    assert s.stop() == 0


@pytest.fixture(scope="module")
def browser():
    if By is None:
        _missing("selenium is not installed (pip install '.[test]')")
    binary, driver = find_browser()
    if binary is None or driver is None:
        _missing("no Chromium and chromedriver to drive (apt-get install chromium chromium-driver)")
    d = chrome()
    yield d
    d.quit()


def screenshot(driver, name: str, tmp_path: pathlib.Path, height: int) -> pathlib.Path:
    """Save the page, ``height`` pixels of it, as ``name`` (README's pictures: docs/img)."""
    folder = pathlib.Path(os.environ.get("DDZ_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    size = driver.get_window_size()
    driver.set_window_size(1000, height)
    try:
        assert driver.save_screenshot(str(path)) and path.stat().st_size > 1000
    finally:
        driver.set_window_size(size["width"], size["height"])
    return path


def text(driver, id_: str) -> str:
    return driver.find_element(By.ID, id_).text


def table_rows(driver, id_: str):
    """(name, role, cards left, ranks of the hand, shown) per seat row of a drawn table."""
    rows = []
    for row in driver.find_elements(By.CSS_SELECTOR, f"#{id_} .seat"):
        who = row.find_element(By.CLASS_NAME, "who").text.splitlines()
        ranks = "".join(c.get_attribute("data-rank") for c in
                        row.find_elements(By.CSS_SELECTOR, ":scope > .hand .ddz-card"))
        rows.append((who, ranks))
    return rows


def status(server):
    import httpx
    return httpx.get(server.url + "api/status", timeout=10).json()


def test_wz8_solve_step_and_round_trip(browser, server, tmp_path, capsys):
    """Enter WZ8, press Solve, read who wins and the first move, step the line."""
    open_page(browser, server.url)
    enter_puzzle(browser, HANDS)
    assert browser.find_element(By.ID, "position-text").get_attribute("value") == "/".join(HANDS)
    pos = ddz.Position(HANDS)
    want = ddz.solve(pos, all_moves=True)
    timings = [solve_on_page(browser) for _ in range(3)]      # the first one, then warm
    answer = text(browser, "answer")
    assert answer.startswith("The landlord (seat 0) wins" if want.landlord_wins else "The farmer (seat 1) wins")
    assert ("to move, wins" in answer) is want.win
    chips = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#moves .chip")]
    assert chips == [str(m) for m in want.moves] and chips
    # the line: step forward, the table follows the position
    assert text(browser, "line-label").startswith("Start: seat 0 to move")
    p = pos
    for k, move in enumerate(want.pv[:4], 1):
        browser.find_element(By.ID, "line-next").click()
        assert text(browser, "line-label").startswith(
            f"Move {k} of {len(want.pv)}: seat {p.to_move} " + ("passes" if not move else f"plays {move}"))
        p = p.after(move)
        assert [r[1] for r in table_rows(browser, "line-table")] == [ddz.format_cards(h) for h in p.hands]
    screenshot(browser, "solver.png", tmp_path, 1230)
    browser.find_element(By.ID, "line-end").click()
    assert "goes out" in text(browser, "line-label")
    browser.find_element(By.ID, "line-start").click()
    assert text(browser, "line-label").startswith("Start")
    with capsys.disabled():
        print(f"\n{'WZ1' if NO_EXTENSIONS else 'WZ8'} round trip in the browser (ms): {json.dumps(timings)}")


def test_cancel_really_stops_the_search(browser, server):
    open_page(browser, server.url)
    enter_puzzle(browser, HARD.split("/"))
    before = status(server)
    browser.find_element(By.ID, "solve").click()
    wait_for(browser, lambda d: "Solving" in text(d, "status"))
    time.sleep(0.5)
    busy = [p for p in before["pids"] if cpu_seconds(p) > 0]
    assert busy
    browser.find_element(By.ID, "cancel").click()
    wait_for(browser, lambda d: text(d, "status").startswith("Cancelled"))
    assert browser.find_element(By.ID, "solve").is_enabled()
    assert not browser.find_element(By.ID, "cancel").is_enabled()
    # the server saw the request go and stopped the search: every worker idle, no CPU
    end = time.monotonic() + 20
    while time.monotonic() < end and (status(server)["cancelled"] <= before["cancelled"] or status(server)["idle"] < 2):
        time.sleep(0.05)
    after = status(server)
    assert after["cancelled"] == before["cancelled"] + 1 and after["idle"] == 2
    cpu = [cpu_seconds(p) for p in after["pids"]]
    time.sleep(0.6)
    assert max(cpu_seconds(p) - c for p, c in zip(after["pids"], cpu)) < 0.2
    # and the page solves the next puzzle
    enter_puzzle(browser, ["KK5543", "225543"])
    solve_on_page(browser)
    assert text(browser, "answer").startswith("The landlord (seat 0) wins")


def test_bad_input_shows_the_servers_message(browser, server):
    open_page(browser, server.url)
    enter_puzzle(browser, ["33X", "44"])
    assert "invalid" in browser.find_element(By.ID, "hand-0").get_attribute("class")
    browser.find_element(By.ID, "solve").click()
    with pytest.raises(ddz.DdzError) as exc:
        ddz.Position.parse("33X/44")
    wait_for(browser, lambda d: text(d, "status") == str(exc.value))
    assert "error" in browser.find_element(By.ID, "status").get_attribute("class")


def test_cards_by_click_and_a_shared_link(browser, server):
    open_page(browser, server.url + "?position=" + "KK5543/225543%20to_move=1%20to_beat=K%20last=0")
    assert browser.find_element(By.ID, "hand-0").get_attribute("value") == "KK5543"
    assert browser.find_element(By.ID, "to-beat").get_attribute("value") == "K"
    assert browser.find_element(By.ID, "to-move-1").is_selected()
    # take a card out by clicking it, put one in from the palette
    browser.find_elements(By.CSS_SELECTOR, '#cards-1 .ddz-card[data-rank="2"]')[-1].click()   # the one on top
    assert browser.find_element(By.ID, "hand-1").get_attribute("value") == "34552"
    browser.find_element(By.CSS_SELECTOR, "tr[data-seat='1']").click()
    browser.find_element(By.CSS_SELECTOR, '#palette .pick[data-rank="R"]').click()
    assert browser.find_element(By.ID, "hand-1").get_attribute("value") == "34552R"
    assert not browser.find_element(By.CSS_SELECTOR, '#palette .pick[data-rank="R"]').is_enabled()
    link = browser.find_element(By.ID, "share").get_attribute("href")
    open_page(browser, link)
    assert browser.find_element(By.ID, "position-text").get_attribute("value") == \
        "KK5543/34552R to_move=1 to_beat=K last=0"
    solve_on_page(browser)
    want = ddz.solve(ddz.Position.parse("KK5543/34552R to_move=1 to_beat=K last=0"), all_moves=True)
    assert [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#moves .chip")] == [str(m) for m in want.moves]


def _records(tmp_path):
    games = []
    for seed in (11, 12):
        g = ddz.Game(seed=seed)
        ddz.search.bots.play_hand(g, [ddz.GreedyBot()] * 3)
        games.append(g)
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(g.to_record()) + "\n" for g in games), encoding="utf-8")
    return games, path


def test_replay_viewer_steps_a_record_file(browser, server, tmp_path):
    games, path = _records(tmp_path)
    open_page(browser, server.url + "?view=replay")
    assert not browser.find_element(By.ID, "replay-view").get_attribute("hidden")
    browser.find_element(By.ID, "record-file").send_keys(str(path))
    wait_for(browser, lambda d: not d.find_element(By.ID, "replay-panel").get_attribute("hidden"))
    options = browser.find_elements(By.CSS_SELECTOR, "#hand-select option")
    assert len(options) == 2 and options[0].text.startswith("record 1: landlord seat")
    g = games[0]
    actions = g.to_record()["actions"]
    rows = table_rows(browser, "replay-table")
    assert [r[1] for r in rows[:3]] == [ddz.format_cards(h) for h in g.deals[0].hands]
    assert rows[3][0][0] == "Bottom" and rows[3][1] == "back" * 3         # face down during the auction
    for k in range(1, 9):
        browser.find_element(By.ID, "replay-next").click()
        a = actions[k - 1]
        assert text(browser, "replay-label").startswith(f"Action {k} of {len(actions)}: seat {a['seat']} ")
    screenshot(browser, "replay.png", tmp_path, 930)
    browser.find_element(By.ID, "replay-end").click()
    assert [r[1] for r in table_rows(browser, "replay-table")[:3]] == [ddz.format_cards(g.hand(s)) for s in range(3)]
    breakdown = text(browser, "breakdown")
    r = g.result
    assert f"score S = bid × multiplier {r.score}" in breakdown and f"bid {r.base}" in breakdown
    assert ", ".join(f"seat {i}: {v:+d}" for i, v in enumerate(r.scores)) in breakdown
    # the second hand, by keyboard
    from selenium.webdriver.support.ui import Select
    Select(browser.find_element(By.ID, "hand-select")).select_by_index(1)
    browser.find_element(By.TAG_NAME, "body").send_keys("\ue014")          # → arrow
    assert text(browser, "replay-label").startswith(f"Action 1 of {len(games[1].to_record()['actions'])}")


def test_replay_viewer_shows_where_a_hand_was_lost(browser, server, tmp_path):
    # issue 41: a landlord with the top bombs and the rocket, playing at random, gives its win away
    g = ddz.Game(deal=("B2222AAAKKKK34567", "33444555666777888", "39999TTTTJJJJQQQQ", "8AR"), first_bidder=0)
    g.step(3)
    ddz.search.bots.play_hand(g, [ddz.RandomBot(seed=0), ddz.GreedyBot(), ddz.GreedyBot()])
    want = ddz.lost_at(g, time_limit=None, budget=None)
    assert want.first_change is not None
    path = tmp_path / "lost.json"
    path.write_text(json.dumps(g.to_record()), encoding="utf-8")
    open_page(browser, server.url + "?view=replay")
    browser.find_element(By.ID, "record-file").send_keys(str(path))
    wait_for(browser, lambda d: not d.find_element(By.ID, "replay-panel").get_attribute("hidden"))
    assert text(browser, "lost-at") == ""
    browser.find_element(By.ID, "lost-at-run").click()
    wait_for(browser, lambda d: "by best play" in d.find_element(By.ID, "lost-at").text)
    assert text(browser, "lost-at") == want.summary()
    lost = browser.find_elements(By.CSS_SELECTOR, "#replay-log li.lost")
    k = len(g.actions) - len(g.plays) + want.first_change       # the action's number in the log (1-based)
    assert len(lost) == 1 and lost[0].find_element(By.CLASS_NAME, "note").text == "the result changed here"
    items = browser.find_elements(By.CSS_SELECTOR, "#replay-log li")
    assert items[k - 1] == lost[0] and items[k - 1].text.startswith(f"seat {want.moves[want.first_change].seat} ")


def test_replay_viewer_shows_a_records_own_error(browser, server):
    g = ddz.Game(seed=5)
    ddz.search.bots.play_hand(g, [ddz.GreedyBot()] * 3)
    rec = g.to_record()
    rec["seed"] += 1                                  # the deal is no longer the seed's
    with pytest.raises(ddz.RecordError) as exc:
        ddz.Game.from_record(rec)
    open_page(browser, server.url + "?view=replay")
    box = browser.find_element(By.ID, "record-text")
    browser.execute_script("arguments[0].value = arguments[1]", box, json.dumps(rec))
    browser.find_element(By.ID, "replay-open").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "replay-error").is_displayed())
    assert text(browser, "replay-error") == f"record 1: {exc.value}"
    assert browser.find_element(By.ID, "replay-panel").get_attribute("hidden")


# -- issue 40, item 7: a phone's screen, and seeds beyond a JavaScript number -------------------

OVERFLOW = """
const w = document.documentElement.clientWidth;
const wide = [];
for (const el of document.querySelectorAll("body *")) {
  const r = el.getBoundingClientRect();
  if (r.width > 0 && r.right > w + 0.5 && !el.closest("svg")) wide.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}`);
}
return [w, document.documentElement.scrollWidth, wide.slice(0, 10)];
"""


def _fits(driver, what):
    width, scroll, wide = driver.execute_script(OVERFLOW)
    assert width == 400 and scroll <= width and not wide, f"{what} at 400 px: {scroll} px wide, {wide}"


def test_every_view_fits_a_400_px_screen(browser, server, tmp_path):
    # a phone: 400 CSS pixels (a desktop window cannot be made that narrow)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 400, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    try:
        open_page(browser, server.url)
        _fits(browser, "the solver")
        browser.find_element(By.CSS_SELECTOR, 'input[name="seats"][value="3"]').click()
        for i, h in enumerate(["2222AAAAKKKKQQQQJJJJ", "33334444555566667777", "88889999TTTTBR"]):
            box = browser.find_element(By.ID, f"hand-{i}")         # the longest hands: 20 cards
            box.clear()
            box.send_keys(h)
        _fits(browser, "the solver with 20-card hands")
        enter_puzzle(browser, HANDS)
        solve_on_page(browser)
        assert not browser.find_element(By.ID, "answer-panel").get_attribute("hidden")
        browser.find_element(By.ID, "line-end").click()
        _fits(browser, "the solver's answer")
        games, path = _records(tmp_path)
        open_page(browser, server.url + "?view=replay")
        _fits(browser, "the replay viewer")
        browser.find_element(By.ID, "record-file").send_keys(str(path))
        wait_for(browser, lambda d: not d.find_element(By.ID, "replay-panel").get_attribute("hidden"))
        _fits(browser, "a replayed hand")
        browser.find_element(By.ID, "replay-end").click()
        _fits(browser, "a replayed hand's score")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_replay_viewer_shows_a_64_bit_seed_exactly(browser, server):
    seed = 7829437886636254564                 # a JavaScript number would show …254000
    g = ddz.Game(seed=seed)
    ddz.search.bots.play_hand(g, [ddz.GreedyBot()] * 3)
    rec = g.to_record()
    assert type(rec["seed"]) is int and ddz.Game.from_record(json.loads(json.dumps(rec))).deal == g.deal
    open_page(browser, server.url + "?view=replay")
    box = browser.find_element(By.ID, "record-text")
    browser.execute_script("arguments[0].value = arguments[1]", box, json.dumps(rec))
    browser.find_element(By.ID, "replay-open").click()
    wait_for(browser, lambda d: not d.find_element(By.ID, "replay-panel").get_attribute("hidden"))
    assert text(browser, "hand-summary") == f"seed {seed}"
    assert browser.execute_script("return Number('7829437886636254564') === 7829437886636254564") is True
    assert str(float(seed)) != str(seed)       # why: the number is not the seed
