"""``ddz serve`` (issue 28): the WZ8 round trip in a real browser and the load test.

    python bench/bench_web.py [--runs 15] [--loads 3]

Starts ``ddz serve --port 0`` (2 workers), then

1. in headless Chromium (Selenium, the system's chromedriver): enters the WZ8 puzzle of
   tests/data/endgame_puzzles.json, presses Solve ``--runs`` times after one warm-up
   solve, and reports the median, min and max of the round trip as the page measures it
   (``performance.now()`` from the click handler to the answer and the line drawn), as
   seen from the test (Selenium's click to the page's timing appearing: adds WebDriver's
   round trips), and of the search alone (``seconds`` of the answer);
2. the load test of tests/web/test_web.py (100 concurrent requests: 30 solves, 40 legal-move
   queries, 30 bad inputs) ``--loads`` times in a row: requests, answers other than the
   expected ones, p50/p99 latency, wall time, and the resident memory of the server
   process and of its workers after each run.

Prints a markdown table for bench/README.md with the date, the command and the load.
"""

from __future__ import annotations

import argparse
import datetime
import os
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))

from webtools import WZ8, Server, chrome, enter_puzzle, load_test, open_page, rss_kib, solve_on_page  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--loads", type=int, default=3)
    args = ap.parse_args()
    print(f"date {datetime.datetime.now():%Y-%m-%d %H:%M}; load before: {os.getloadavg()}")
    server = Server("--workers", "2")
    try:
        driver = chrome()
        try:
            open_page(driver, server.url)
            enter_puzzle(driver, [WZ8["first"], WZ8["second"]])
            first = solve_on_page(driver)
            runs = [solve_on_page(driver) for _ in range(args.runs)]
        finally:
            driver.quit()
        print(f"\nWZ8 round trip, {args.runs} runs after a first one (ms); first: "
              f"page {first['page_ms']:.0f}, outside {first['outside_ms']:.0f}, search {first['search_ms']:.0f}")
        print("| measured | median | min | max |\n|---|---|---|---|")
        for key, name in (("page_ms", "on the page: click to answer drawn"),
                          ("outside_ms", "from Selenium: click to timing read"),
                          ("search_ms", "the search alone (answer's seconds)")):
            xs = [r[key] for r in runs]
            print(f"| {name} | {statistics.median(xs):.0f} | {min(xs):.0f} | {max(xs):.0f} |")

        import httpx
        pids = httpx.get(server.url + "api/status", timeout=10).json()["pids"]
        print(f"\nload test, {args.loads} runs of 100 concurrent requests")
        print("| run | requests | unexpected answers | p50 ms | p99 ms | wall s | server RSS MiB | workers RSS MiB |")
        print("|---|---|---|---|---|---|---|---|")
        for i in range(args.loads):
            r = load_test(server.url)
            server_rss = rss_kib(server.proc.pid) / 1024
            workers = sum(rss_kib(p) for p in pids) / 1024
            print(f"| {i + 1} | {r['requests']} | {len(r['unexpected'])} | {r['p50_ms']:.0f} | {r['p99_ms']:.0f} "
                  f"| {r['wall_s']:.2f} | {server_rss:.1f} | {workers:.1f} |")
        status = httpx.get(server.url + "api/status", timeout=10).json()
        print(f"\nafterwards: {status}")
    finally:
        server.stop()
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
