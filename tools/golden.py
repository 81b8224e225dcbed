#!/usr/bin/env python3
"""Golden files of whole hands (issue 42): what ``ddz.Game`` does today, kept so that a
rebuild of ``ddz.game`` can show it changed nothing.

    python3 tools/golden.py [--hands 10000] [--out tests/data/golden]
    python3 tools/golden.py --check [--hands N]      # compare with the files (exit 1 on a difference)

For each rule set of :data:`RULE_SETS` and hand ``k`` in ``0 .. hands - 1``, the hand
``Game(rules, seed=SEED_BASE + k)`` is played out by a chooser that draws among the legal
actions with ``random.Random(k)``. At every decision the acting seat's
:class:`ddz.Observation`, its legal actions (as text), its legal env ids
(:class:`ddz.envs.core.EnvActions`: every phase), its play ids in the play phase
(``Game.legal_action_ids``) and its encoded observation (``encode_observation``) are
written into one digest per hand; so are the finished hand's record (``to_record``), its
result (``Result.to_json``) and every seat's final observation. A file holds one line per
hand: ``{"hand": k, "seed": s, "steps": n, "digest": "<sha256, 24 hex>", "scores": [...]}``
(the scores readable, the rest in the digest), gzipped.

The digest is of text only (``str`` of plays, JSON with sorted keys, the bytes of the
encoded float32 rows in little-endian order), so it is the same on every platform and
Python version. ``tests/game/test_golden.py`` replays a 500-hand slice in the suite and
every hand under ``-m slow``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import pathlib
import random
import sys
from typing import Any, Callable, Dict, Iterator, List, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "golden"
SEED_BASE = 0x5EED_0000_0000
"""The seed of hand ``k`` is ``SEED_BASE + k`` (away from the small seeds tests pin)."""


def rule_sets() -> Dict[str, Any]:
    """The rule sets of the golden files, by file name: the defaults, both kicker rules,
    every auction (points once, until passes, rob), doubling, the bottom bonus, the face-up
    card, the engine profiles and the four-player game with both bomb rules."""
    from ddz import Rules
    return {
        "standard": Rules(),
        "repeat": Rules(kickers="repeat"),
        "rob-doubling-bonus": Rules(bidding="rob", doubling=True, bottom_bonus=True, doubling_bombs="beating"),
        "openspiel": Rules.profile("openspiel"),
        "douzero": Rules.profile("douzero"),
        "four-player": Rules.four_player(),
        "four-player-six-plus": Rules.four_player(doubling_bombs="six_plus", straights=False),
    }


def _observation_text(obs: Any) -> str:
    """An :class:`ddz.Observation` as canonical text (the rules left out: they are the file's)."""
    d = obs._asdict()
    d.pop("rules")
    d["phase"] = str(d["phase"].value if hasattr(d["phase"], "value") else d["phase"])
    d["plays"] = [(s, str(p)) for s, p in d["plays"]]
    d["to_beat"] = None if d["to_beat"] is None else str(d["to_beat"])
    return json.dumps(d, sort_keys=True, default=str)


def play_hand(rules: Any, k: int) -> Tuple[Dict[str, Any], List[str]]:
    """Hand ``k`` of ``rules``, played out: its line of the golden file, and the texts
    that went into its digest (for a diff when a digest differs)."""
    import numpy as np

    from ddz import Game, Phase
    from ddz.envs.core import encode_observation, env_actions

    game = Game(rules, seed=SEED_BASE + k)
    actions = env_actions(rules)
    rng = random.Random(k)
    parts: List[str] = []
    steps = 0
    while game.phase is not Phase.OVER:
        seat = game.current_player
        legal = game.legal_actions()
        row = {
            "seat": seat,
            "obs": _observation_text(game.observation(seat)),
            "legal": [str(a) for a in legal],
            "env_ids": actions.legal_ids(game).tolist(),
        }
        if game.phase is Phase.PLAYING:
            row["play_ids"] = game.legal_action_ids().tolist()
        enc = encode_observation(game, seat).astype("<f4").tobytes()
        row["encoded"] = hashlib.sha256(enc).hexdigest()[:16]
        parts.append(json.dumps(row, sort_keys=True))
        choice = legal[rng.randrange(len(legal))]
        parts.append(f"choose {choice!s}")
        game.step(choice)
        steps += 1
    record = game.to_record()
    parts.append(json.dumps(record, sort_keys=True))
    parts.append(json.dumps(game.result.to_json(), sort_keys=True))
    for s in range(rules.seats):
        parts.append(_observation_text(game.observation(s)))
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]
    line = {"hand": k, "seed": SEED_BASE + k, "steps": steps, "digest": digest,
            "scores": list(game.result.scores)}
    del np
    return line, parts


def path_of(name: str, out: pathlib.Path = OUT) -> pathlib.Path:
    return out / f"{name}.jsonl.gz"


def read(name: str, out: pathlib.Path = OUT) -> Iterator[Dict[str, Any]]:
    """The lines of the golden file of rule set ``name``."""
    with gzip.open(path_of(name, out), "rt") as f:
        for line in f:
            yield json.loads(line)


def write(name: str, rules: Any, hands: int, out: pathlib.Path,
          progress: Callable[[str], None] = lambda s: None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same hands give the same file bytes
    with open(path_of(name, out), "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        for k in range(hands):
            line, _ = play_hand(rules, k)
            f.write((json.dumps(line, sort_keys=True) + "\n").encode())
            if k % 1000 == 999:
                progress(f"{name}: {k + 1}/{hands}")


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--out", type=pathlib.Path, default=OUT)
    ap.add_argument("--only", help="one rule set's name")
    ap.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = ap.parse_args(argv)
    sets = rule_sets()
    if args.only:
        sets = {args.only: sets[args.only]}
    bad = 0
    for name, rules in sets.items():
        if args.check:
            for line in read(name, args.out):
                if line["hand"] >= args.hands:
                    break
                got, _ = play_hand(rules, line["hand"])
                if got != line:
                    bad += 1
                    print(f"{name} hand {line['hand']}: {got} != {line}")
            print(f"{name}: checked", flush=True)
        else:
            write(name, rules, args.hands, args.out, lambda s: print(s, flush=True))
            print(f"{name}: {args.hands} hands -> {path_of(name, args.out)}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
