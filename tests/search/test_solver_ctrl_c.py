"""Ctrl-C (SIGINT) stops a solve cleanly, from the command line and from a script: each
in a subprocess of its own (a pseudo-terminal for the command's progress line)."""

import json

import pytest

#: a three-player position no solve finishes in the time these tests give it
HARD = ["3445567789TTTJQ2R", "3345788999JKKAAA2", "34566678TJJQQQKKA22B"]


@pytest.mark.parametrize("json_out", [False, True])
def test_cli_solve_ctrl_c(json_out):
    """`ddz solve` shows its progress on stderr when it is a terminal (a pseudo-terminal
    here), and SIGINT (Ctrl-C) stops it cleanly: exit status 130, no answer and no
    traceback."""
    import os
    import pty
    import signal
    import subprocess
    import sys
    import threading

    cmd = [sys.executable, "-m", "ddz.cli", "solve", *HARD, "--landlord", "2", "--time-limit", "600",
           "--table-mb", "1"] + (["--json"] if json_out else [])
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, env=dict(os.environ))
    os.close(slave)
    seen = threading.Event()
    err = []

    def read_stderr():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:           # EIO: the child closed the terminal
                return
            if not chunk:
                return
            err.append(chunk)
            if b"\rsolving:" in b"".join(err):
                seen.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        assert seen.wait(120), b"".join(err)          # the progress line came (after ~1 s)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
        code = proc.returncode
        reader.join(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    text = b"".join(err).decode()
    assert code == 130, text
    assert "interrupted: no answer (not exact) after about" in text and "Traceback" not in text
    if json_out:
        data = json.loads(out)
        assert data["interrupted"] is True and data["exact"] is False and data["win"] is None
        assert data["nodes"] > 0 and data["moves"] == []
    else:
        assert out == b""


_LIBRARY_CTRL_C = """
import sys, time
import ddz
pos = ddz.Position(sys.argv[1:4], landlord=2)
print("start", flush=True)
t = time.perf_counter()
try:
    ddz.solve(pos, table_mb=1, time_limit=600)
except KeyboardInterrupt as exc:
    print("interrupted", exc.nodes, round(time.perf_counter() - t, 3), flush=True)
    sys.exit(7)
print("finished", flush=True)
"""


def test_library_solve_stops_on_ctrl_c():
    """``ddz.solve`` called from a script (no ``progress``) stops on SIGINT: the
    ``KeyboardInterrupt`` comes with the positions searched, not after the search."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-c", _LIBRARY_CTRL_C, *HARD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "start"
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 7, (out, err)
    word, nodes, _ = out.split()
    assert word == "interrupted" and int(nodes) > 0
