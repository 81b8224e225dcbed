"""Helpers of the web app's tests (tests/test_web*.py) and bench (bench/bench_web.py):
start ``ddz serve`` in a child process, drive headless Chromium, run the load test."""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
PUZZLES = json.loads((ROOT / "tests" / "data" / "endgame_puzzles.json").read_text(encoding="utf-8"))["puzzles"]
WZ8 = next(p for p in PUZZLES if p["name"] == "WZ8")
#: a three-seat deal that no search finishes in minutes: for time limits and Cancel
HARD = "3344466899TJJQKKK22R/355567889TQKAAAA2/345677789TTJJQQ2B"   # seed 0, landlord 0 bid 3
CHROMIUM = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROME_PATHS = ("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
                "/Applications/Chromium.app/Contents/MacOS/Chromium",
                r"C:\Program Files\Google\Chrome\Application\chrome.exe",
                r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe")


class Server:
    """``ddz serve --port 0`` in a child process (the command a user runs), until
    :meth:`stop`. ``url`` is its address, ``proc`` the process."""

    def __init__(self, *args: str, timeout: float = 60.0) -> None:
        cmd = [sys.executable, "-c", "import sys; from ddz.cli import main; sys.exit(main())",
               "serve", "--port", "0", *args]
        # its own process group, so that our Ctrl-C (below) reaches it alone
        group = ({"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if os.name == "nt"
                 else {"start_new_session": True})
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **group)
        line = self.proc.stdout.readline()        # "ddz serve: http://127.0.0.1:PORT/ ..." once it answers
        if not line.startswith("ddz serve: http"):
            self.stop()
            raise RuntimeError(f"ddz serve did not start: {line!r} {self.proc.stderr.read()}")
        self.url = line.split()[2]

    def stop(self) -> int:
        """Ctrl-C (SIGINT; Ctrl-Break on Windows) and wait; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.CTRL_BREAK_EVENT if os.name == "nt" else signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:      # pragma: no cover - a hung server
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def rss_kib(pid: int) -> int:
    """Resident memory of a process, KiB."""
    import psutil
    return psutil.Process(pid).memory_info().rss // 1024


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, seconds (0 once it has exited)."""
    import psutil
    try:
        t = psutil.Process(pid).cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return t.user + t.system


def alive(pid: int) -> bool:
    import psutil
    return psutil.pid_exists(pid)


# -- the browser ------------------------------------------------------------------------

def find_browser() -> Tuple[Optional[str], Optional[str]]:
    """(Chromium or Chrome, chromedriver) paths, or None for each one missing: on the
    PATH (Debian's ``chromium`` and ``chromedriver``), else where macOS and Windows
    install Chrome and where CI images keep their chromedriver (``CHROMEWEBDRIVER``)."""
    binary = next(filter(None, map(shutil.which, CHROMIUM)), None) or next(
        (p for p in CHROME_PATHS if os.path.exists(p)), None)
    driver = shutil.which("chromedriver")
    if driver is None and os.environ.get("CHROMEWEBDRIVER"):
        driver = next((p for p in (os.path.join(os.environ["CHROMEWEBDRIVER"], n)
                                   for n in ("chromedriver", "chromedriver.exe")) if os.path.exists(p)), None)
    return binary, driver


def chrome(width: int = 1100, height: int = 900):
    """Headless Chromium through Selenium, with the system's chromedriver given as the
    driver service (Selenium downloads nothing)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    binary, driver = find_browser()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-extensions", f"--window-size={width},{height}"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def wait_for(driver, condition, timeout: float = 20.0):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(condition)


def open_page(driver, url: str) -> None:
    driver.get(url)
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.ready === '1'"))


def enter_puzzle(driver, hands: List[str], seats: Optional[int] = None) -> None:
    """Type the hands into the solver's seat inputs (seat 0 the landlord, to move)."""
    from selenium.webdriver.common.by import By
    n = seats or len(hands)
    driver.find_element(By.CSS_SELECTOR, f'input[name="seats"][value="{n}"]').click()
    for i, h in enumerate(hands):
        box = driver.find_element(By.ID, f"hand-{i}")
        box.clear()
        box.send_keys(h)


def solve_on_page(driver) -> Dict[str, Any]:
    """Press Solve, wait for the answer; the page's own timing (``window.ddzTiming``:
    the click to the answer drawn) and the time seen from here, ms."""
    from selenium.webdriver.common.by import By
    driver.execute_script("window.ddzTiming = null")
    t0 = time.perf_counter()
    driver.find_element(By.ID, "solve").click()
    timing = wait_for(driver, lambda d: d.execute_script("return window.ddzTiming"))
    return {"page_ms": timing["roundTripMs"], "outside_ms": (time.perf_counter() - t0) * 1000,
            "search_ms": timing["searchSeconds"] * 1000}


# -- the load test ------------------------------------------------------------------------

def load_requests(small: bool = False) -> List[Tuple[str, Any, Dict[str, str], int]]:
    """The load test's 100 requests: (path, body bytes, headers, expected status): 30
    solves (the puzzles of tests/data; ``small``: only the 12-card WZ1, for the
    pure-Python search), 40 legal-move queries, 30 bad inputs of every kind (each one's
    status is the one docs/api.md promises)."""
    js = {"Content-Type": "application/json"}
    out: List[Tuple[str, Any, Dict[str, str], int]] = []
    puzzles = PUZZLES[:1] if small else PUZZLES
    for i in range(30):
        p = puzzles[i % len(puzzles)]
        out.append(("/api/solve", {"position": f"{p['first']}/{p['second']}", "time_limit": 20}, js, 200))
    hands = ["33344455", "3456789TJQKA2BR", "RAQQJJT999844", "B22AAT886633", "334455667788"]
    beats = [None, "333+4", "5", "99", "34567"]
    for i in range(40):
        body: Dict[str, Any] = {"hand": hands[i % 5]}
        if beats[i % 5] and i % 2:
            body["to_beat"] = beats[i % 5]
        out.append(("/api/legal", body, js, 200))
    bad = [
        ("/api/solve", b"{not json", js, 400),
        ("/api/solve", {"position": "33X/44"}, js, 422),
        ("/api/solve", {"position": "3333/3"}, js, 422),
        ("/api/solve", {"position": "KK5543/225543", "time_limit": -1}, js, 422),
        ("/api/solve", {"position": "KK5543/225543", "oops": 1}, js, 422),
        ("/api/solve", {"position": "KK5543/225543"}, {"Content-Type": "text/plain"}, 415),
        ("/api/legal", {"hand": "3" * 70000}, js, 413),
        ("/api/legal", {"hand": "33344455", "to_beat": "333+4"}, js, 422),
        ("/api/classify", {"cards": "3345"}, js, 422),
        ("/api/replay", {"text": "{\"format\": \"ddz-record\"}"}, js, 422),
    ]
    out += bad * 3
    return out


async def _load(url: str, requests, timeout: float) -> List[Tuple[int, float, int]]:
    import httpx

    async def one(client, i, path, body, headers):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        t0 = time.perf_counter()
        r = await client.post(url.rstrip("/") + path, content=data, headers=headers)
        r.json()                        # every answer is JSON, errors included
        return i, (time.perf_counter() - t0) * 1000, r.status_code

    limits = httpx.Limits(max_connections=len(requests))
    async with httpx.AsyncClient(timeout=timeout, limits=limits) as client:
        return await asyncio.gather(*(one(client, i, *r[:3]) for i, r in enumerate(requests)))


def load_test(url: str, timeout: float = 60.0, small: bool = False) -> Dict[str, Any]:
    """Send :func:`load_requests` all at once; the statuses, latencies (ms) and how many
    answered other than expected."""
    reqs = load_requests(small)
    t0 = time.perf_counter()
    got = asyncio.run(_load(url, reqs, timeout))
    wall = time.perf_counter() - t0
    lat = sorted(ms for _, ms, _ in got)
    wrong = [(reqs[i][0], reqs[i][3], status) for i, _, status in got if status != reqs[i][3]]
    return {"requests": len(reqs), "wall_s": wall, "unexpected": wrong,
            "statuses": sorted({s for *_, s in got}),
            "p50_ms": lat[len(lat) // 2], "p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))]}
