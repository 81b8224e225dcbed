#!/usr/bin/env python3
"""Mutation check of the hand in C (issue 29): does the lockstep test catch a broken rule?

    python3 tools/mutants.py [--only NAME ...] [--list]

Each mutant below changes one rule of the C hand (``src/ddz/game/_game_hand.pxi``, which
``ddz.Game`` and every game of ``VectorGame`` run; one changes the vector's observation
encoder): it drops the spring, doubles a bomb that should not count, skips a redeal, and
so on, one per event of ``tests/envs/test_hand_lockstep.py``. For each, the tool copies
``src/`` and the build files to a temporary directory (the compiled modules and generated
C keep their times, so only what the change touches is rebuilt), applies the mutation (its text must occur exactly once:
a refactor that moves the code makes the tool fail loudly, not pass quietly), builds in
place, and runs the lockstep test against the copy. A mutant is **caught** when the test
fails. The unchanged source runs first and must pass. Prints a table (Markdown) of mutant,
rule, result and seconds; the exit status is 1 when a mutant survived or the baseline
failed.

Needs what the in-place build needs (``setuptools``, ``Cython``, ``numpy``, a C compiler)
and an in-place build of the checkout (``python3 setup.py build_ext --inplace``).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
TEST = "tests/envs/test_hand_lockstep.py"

HAND = "src/ddz/game/_game_hand.pxi"      # the hand (ddz.game._game: Hand, CHand; included by _game.pyx)
VECTOR = "src/ddz/envs/_vector.pyx"       # its observation encoder

#: (name, the rule it breaks (RULES.md), the file, text in it, its replacement)
MUTANTS = [
    ("no-spring", "§6 spring ×2", HAND, "    if lord_wins:\n        g.spring = 1\n",
     "    if lord_wins:\n        g.spring = 0\n"),
    ("no-anti-spring", "§6 anti-spring ×2", HAND, "        g.anti = pc.nplays[lord] == 1", "        g.anti = 0"),
    ("skip-redeal", "§3 all pass: redeal", HAND, "    if c.all_void or g.ndeals > c.max_redeals:",
     "    if c.all_void or g.ndeals >= 1:"),
    ("extra-redeal", "§3 max_redeals, then void", HAND, "    if c.all_void or g.ndeals > c.max_redeals:",
     "    if c.all_void or g.ndeals > c.max_redeals + 1:"),
    ("no-forced-bid", "§7 forced bid", HAND, "    return g.forced[g.current] if g.bid == 0 else 0", "    return 0"),
    ("open-play-x1", "§7 open play ×3", HAND, "    return g.bonus * 3 if g.open == 1 else g.bonus",
     "    return g.bonus"),
    ("no-straight-flush-x4", "§6 bottom bonus ×4", HAND, "    if most == 3 or (consecutive and flush):",
     "    if most == 3:"),
    ("no-jokers-x3", "§6 bottom bonus ×3", HAND, "    if (b[13] and b[14]) or consecutive:", "    if consecutive:"),
    ("no-flush-x2", "§6 bottom bonus ×2", HAND, "    if most == 2 or flush or b[14]:", "    if most == 2 or b[14]:"),
    ("re-rob-not-doubled", "§3 re-rob ×2", HAND,
     "        if g.final:\n            if value:\n                g.robs += 1\n",
     "        if g.final:\n            if value:\n                g.robs += 0\n"),
    ("no-redouble", "§4 redouble", HAND, "    elif seat != lord and anyone:", "    elif 0:"),
    ("every-bomb-counts", "§6 doubling_bombs", HAND,
     "core_start(&g.pc, c.v, c.seats, &g.hands[0][0], g.landlord, c.bombs_rule)",
     "core_start(&g.pc, c.v, c.seats, &g.hands[0][0], g.landlord, 0)"),
    ("face-up-wrong-bidder", "§3 face-up first bidder", HAND, "        g.face_seat = g.first = k // c.hand_size",
     "        g.face_seat = k // c.hand_size\n        g.first = 0"),
    ("four-player-pays-2S", "§7 settlement ±3S", HAND, "    g.scores[lord] = (c.seats - 1) * sign * sc",
     "    g.scores[lord] = 2 * sign * sc"),
    ("until-passes-one-more", "§3 until_passes", HAND, "            if g.passes == c.seats - 1:",
     "            if g.passes == c.seats:"),
    ("bottom-shown-to-farmers", "§7 hidden bottom (observation)", VECTOR,
     "    if lord >= 0 and (not c.h.four or seat == lord):", "    if lord >= 0:"),
]


def copy_tree(dst: pathlib.Path) -> None:
    shutil.copytree(ROOT / "src", dst / "src", symlinks=True)
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, dst / name)


def run_one(name: str, target: str, old: str, new: str) -> tuple:
    """Build and test one mutant (``old is None``: the unchanged source). Returns
    ``(test failed, seconds, the build or test's last lines)``."""
    start = time.time()
    with tempfile.TemporaryDirectory(prefix=f"ddz-mutant-{name}-") as tmp:
        dst = pathlib.Path(tmp)
        copy_tree(dst)
        if old is not None:
            path = dst / target
            text = path.read_text()
            if text.count(old) != 1:
                raise SystemExit(f"mutant {name}: its text occurs {text.count(old)} times in {target}, not once; "
                                 "update tools/mutants.py")
            path.write_text(text.replace(old, new))
        build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-j", "2"], cwd=dst,
                               capture_output=True, text=True)
        if build.returncode:
            raise SystemExit(f"mutant {name}: the build failed:\n{build.stderr[-3000:]}")
        env = dict(os.environ, PYTHONPATH=str(dst / "src"))
        env.pop("DDZ_NO_EXTENSIONS", None)
        test = subprocess.run([sys.executable, "-m", "pytest", str(ROOT / TEST), "-x", "-q", "-p", "no:cacheprovider"],
                              cwd=dst, env=env, capture_output=True, text=True)
        if test.returncode not in (0, 1):       # 1: a test failed; anything else: pytest could not run
            raise SystemExit(f"mutant {name}: pytest exited {test.returncode}:\n{test.stdout[-3000:]}")
        return test.returncode == 1, time.time() - start, test.stdout.strip().splitlines()[-1:]


def main(argv: list) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run these mutants only")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = ap.parse_args(argv)
    if args.list:
        for name, rule, _, _, _ in MUTANTS:
            print(f"{name:28} {rule}")
        return 0
    chosen = [m for m in MUTANTS if not args.only or m[0] in args.only]
    unknown = set(args.only or ()) - {m[0] for m in MUTANTS}
    if unknown:
        ap.error(f"unknown mutants: {', '.join(sorted(unknown))} (see --list)")
    failed, secs, last = run_one("baseline", HAND, None, None)
    print(f"baseline (no mutation): the lockstep test {'FAILED' if failed else 'passed'} ({secs:.0f} s) {last}",
          flush=True)
    if failed:
        return 1
    print("| mutant | rule broken | lockstep test | s |\n|---|---|---|---|", flush=True)
    survived = 0
    for name, rule, target, old, new in chosen:
        caught, secs, last = run_one(name, target, old, new)
        survived += not caught
        print(f"| `{name}` | {rule} | {'caught' if caught else 'SURVIVED'} | {secs:.0f} |", flush=True)
    print(f"{len(chosen) - survived} of {len(chosen)} mutants caught")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
