#!/usr/bin/env python3
"""Ship a trained DouZero model as ``ddz``'s own (issue 43 item 4): the model that
``ddz.NeuralBot()`` and the bot registry's ``neural`` load.

    PYTHONPATH=src python tools/ship_model.py TRAIN_DIR [--frames N] [--out DIR]
        [--decisions 1000] [--seed 0] [--cpu-hours H] [--command TEXT]

``TRAIN_DIR`` is a training folder (``python -m ddz.train``'s, or DouZero's ``train.py``'s
``<savedir>/<xpid>``) holding ``<position>_weights_<frames>.ckpt`` files; the newest
complete set (all three positions) is taken, or the set of ``--frames N``. The tool

1. reads the three float32 checkpoints (:func:`ddz.neural.load_checkpoint`) and checks
   they are DouZero's network;
2. writes them in half precision (``save_checkpoint(..., dtype="float16")``) as
   ``landlord.ckpt``, ``landlord_down.ckpt``, ``landlord_up.ckpt`` in ``--out`` (default
   the package's ``src/ddz/neural/models/neural``), with ``MODEL.json``: the frames, the
   hands and the training settings when the training state (``dmc_state.pt``) says them
   (read with torch when it imports), the CPU-hours when known (``--cpu-hours``), each
   source file's sha256, the date (UTC) and the training
   command (``--command``, else rebuilt from the state's settings);
3. checks the four files hold at most 10 MB (10,000,000 bytes) together, and that the
   float16 model chooses the float32 model's action at ``--decisions`` (>= 1,000 by
   default) play-phase decisions with at least two distinct actions, in seeded hands of
   ``Rules.profile("douzero")`` played by the float32 model (the auction as
   ``ExpertBot``): it prints the agreement rate and, for each decision where the choices
   differ, the float32 Q gap between the two choices. A difference passes only where the
   float32 model's two Q values are within float16 precision of each other (the gap at
   most ``TIE`` = 2**-10, float16's relative spacing, times max(1, max|Q|) of the decision).

The files are written to a temporary folder beside ``--out`` and moved into place only
when every check passes; exit status 0 then, 1 when a check fails (nothing written), 2 on
bad arguments or unreadable files. Standard library, numpy and ``ddz``; torch only to
read the training state (optional).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import pathlib
import re
import shutil
import sys
import tempfile
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "ddz" / "neural" / "models" / "neural"
POSITIONS = ("landlord", "landlord_down", "landlord_up")
LIMIT = 10_000_000
"""The shipped model's size bound in bytes (the issue's 10 MB), MODEL.json included."""
TIE = 2.0 ** -10
"""float16's relative spacing: two float32 Q values closer than this (times max(1,
max|Q|)) may swap order when the weights are rounded to float16."""
_WEIGHTS = re.compile(r"^(landlord|landlord_up|landlord_down)_weights_(\d+)\.ckpt$")


class ShipError(Exception):
    """Bad arguments or unreadable inputs (exit status 2)."""


def weight_sets(folder: pathlib.Path) -> Dict[int, Dict[str, pathlib.Path]]:
    """``{frames: {position: file}}`` of the complete sets of ``folder``, by frames."""
    sets: Dict[int, Dict[str, pathlib.Path]] = {}
    for f in folder.iterdir():
        m = _WEIGHTS.match(f.name)
        if m and f.is_file():
            sets.setdefault(int(m.group(2)), {})[m.group(1)] = f
    return {k: v for k, v in sorted(sets.items()) if len(v) == 3}


def _sha256(path: pathlib.Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def training_state(folder: pathlib.Path) -> Optional[Dict[str, Any]]:
    """The scalars of ``folder/dmc_state.pt`` (``ddz.train``'s state: frames, hands, seed,
    settings), read with torch (``weights_only=True``); ``None`` when there is
    no state or torch does not import."""
    path = folder / "dmc_state.pt"
    if not path.is_file():
        return None
    try:
        import torch
    except ImportError:
        return None
    st = torch.load(path, weights_only=True, map_location="cpu")
    if not isinstance(st, dict) or st.get("format") != "ddz-dmc-1":
        return None
    return {k: st.get(k) for k in ("frames", "hands", "seed", "settings")}


def _command(folder: pathlib.Path, state: Optional[Dict[str, Any]]) -> Optional[str]:
    if not state or not isinstance(state.get("settings"), dict):
        return None
    s = state["settings"]
    parts = ["python", "-m", "ddz.train", str(folder), "--frames", str(state.get("frames"))]
    for key in ("num_envs", "batch_size", "epsilon", "lr", "objective"):
        if key in s:
            parts += ["--" + key.replace("_", "-"), str(s[key])]
    if state.get("seed") is not None:
        parts += ["--seed", str(state["seed"])]
    return " ".join(parts)


def agreement(full: Any, half: Any, decisions: int, seed: int) -> Dict[str, Any]:
    """Play seeded hands of DouZero's rules with ``full`` (a float32 :class:`ddz.NeuralBot`)
    until ``decisions`` play-phase decisions with at least two distinct actions were
    scored by both bots; compare their choices.

    :returns: ``{"decisions", "same", "rate", "differences": [{"seed", "gap", "scale",
        "tie"}], "max_dq"}``: ``gap`` the float32 Q of float32's choice minus that of
        float16's, ``scale`` max(1, max|Q|), ``tie`` whether ``gap <= TIE * scale``;
        ``max_dq`` the largest |Q16 - Q32| / scale seen.
    """
    import ddz
    from ddz.game.phase import Phase

    rules = ddz.Rules.profile("douzero")
    scored = same = 0
    diffs: List[Dict[str, Any]] = []
    max_dq = 0.0
    hand = seed
    while scored < decisions:
        game = ddz.Game(rules, seed=hand)
        while game.current_player is not None:
            obs, legal = game.observation(), game.legal_actions()
            if obs.phase is not Phase.PLAYING or len(legal) < 2:
                game.step(full.act(obs, legal))
                continue
            plays, q32 = full.q_values(obs, legal)
            if len(plays) >= 2 and scored < decisions:
                _, q16 = half.q_values(obs, legal)
                scale = max(1.0, float(np.abs(q32).max()))
                max_dq = max(max_dq, float(np.abs(q16 - q32).max()) / scale)
                a, b = int(np.argmax(q32)), int(np.argmax(q16))
                scored += 1
                if a == b:
                    same += 1
                else:
                    gap = float(q32[a] - q32[b])
                    diffs.append({"seed": hand, "gap": gap, "scale": scale, "tie": gap <= TIE * scale})
            game.step(plays[int(np.argmax(q32))])
        hand += 1
    return {"decisions": scored, "same": same, "rate": same / scored, "differences": diffs, "max_dq": max_dq,
            "hands": hand - seed}


def ship(train_dir: Any, *, frames: Optional[int] = None, out: Any = DEFAULT_OUT, decisions: int = 1000,
         seed: int = 0, cpu_hours: Optional[float] = None, command: Optional[str] = None,
         log: Any = print) -> Tuple[bool, Dict[str, Any]]:
    """Ship the model of ``train_dir`` into ``out`` (module docstring).

    :returns: ``(ok, report)``: ``ok`` whether every check passed (the files are in
        ``out`` only then); ``report`` MODEL.json's contents plus the checks' figures.
    :raises ShipError: no such folder, no complete set (of ``frames``), unreadable or
        foreign checkpoints, bad arguments.
    """
    import ddz
    from ddz.neural import NeuralBot, douzero_shapes, load_checkpoint, save_checkpoint
    from ddz.neural.model import DouZeroNet

    folder = pathlib.Path(train_dir)
    if not folder.is_dir():
        raise ShipError(f"no such training folder: {folder}")
    if decisions < 1:
        raise ShipError(f"--decisions must be >= 1, not {decisions}")
    sets = weight_sets(folder)
    if not sets:
        raise ShipError(f"{folder} holds no complete set of <position>_weights_<frames>.ckpt")
    if frames is None:
        frames = max(sets)
    elif frames not in sets:
        raise ShipError(f"{folder} holds no complete set at {frames} frames (it has {', '.join(map(str, sets))})")
    files = sets[frames]
    tensors = {}
    for k, p in enumerate(POSITIONS):
        try:
            tensors[p] = load_checkpoint(files[p])
            DouZeroNet(tensors[p], k, source=str(files[p]))
        except ddz.DdzError as e:
            raise ShipError(str(e) if str(files[p]) in str(e) else f"{files[p]}: {e}") from None
    state = training_state(folder)
    if state is not None and state.get("frames") != frames:
        state = dict(state, hands=None)        # the state is of a later save: its hands are not this set's
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix=".ship-", dir=out.parent))
    try:
        for p in POSITIONS:
            save_checkpoint(tensors[p], tmp / f"{p}.ckpt", dtype="float16")
        info: Dict[str, Any] = {
            "model": "DouZero's network (douzero/dmc/models.py), float16 weights",
            "frames": frames,
            "hands": state.get("hands") if state else None,
            "cpu_hours": cpu_hours,
            "objective": (state.get("settings") or {}).get("objective") if state else None,
            "settings": state.get("settings") if state else None,
            "training_command": command or _command(folder, state),
            "source": {p: {"file": files[p].name, "sha256": _sha256(files[p])} for p in POSITIONS},
            "shipped": {p: _sha256(tmp / f"{p}.ckpt") for p in POSITIONS},
            "date": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        }
        (tmp / "MODEL.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
        size = sum(f.stat().st_size for f in tmp.iterdir())
        source_size = sum(files[p].stat().st_size for p in POSITIONS)
        log(f"source: {folder} at {frames:,} frames ({source_size:,} bytes float32)")
        log(f"size: {size:,} bytes in all (limit {LIMIT:,})")
        half = NeuralBot(tmp)
        full = NeuralBot({p: files[p] for p in POSITIONS})
        for k, p in enumerate(POSITIONS):
            shapes = douzero_shapes(k)
            assert all(half.nets[k].state[n].shape == shapes[n] for n in shapes)
        agree = agreement(full, half, decisions, seed)
        bad = [d for d in agree["differences"] if not d["tie"]]
        log(f"agreement: {agree['same']:,} of {agree['decisions']:,} decisions ({agree['rate']:.4f}) in "
            f"{agree['hands']} hands from seed {seed}; max |Q16 - Q32| / max(1, max|Q|) {agree['max_dq']:.2e}")
        for d in agree["differences"]:
            log(f"  differs (hand seed {d['seed']}): float32 Q gap {d['gap']:.3e} of scale {d['scale']:.3f} -> "
                f"{'a tie within float16 precision' if d['tie'] else 'NOT a tie'}")
        ok = size <= LIMIT and not bad
        report = dict(info, size_bytes=size, agreement=agree)
        if not ok:
            log("FAILED: " + ("the model is larger than 10 MB; " if size > LIMIT else "")
                + (f"{len(bad)} differences beyond float16 precision" if bad else ""))
            return False, report
        if out.exists():
            for p in POSITIONS:
                (out / f"{p}.ckpt").unlink(missing_ok=True)
            (out / "MODEL.json").unlink(missing_ok=True)
        out.mkdir(parents=True, exist_ok=True)
        for f in tmp.iterdir():
            shutil.move(str(f), out / f.name)
        log(f"shipped into {out}")
        return True, report
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="tools/ship_model.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("train_dir", help="a folder of <position>_weights_<frames>.ckpt files")
    ap.add_argument("--frames", type=int, default=None, help="the set to ship (default: the newest)")
    ap.add_argument("--out", default=str(DEFAULT_OUT), help="where to write (default: the package's model folder)")
    ap.add_argument("--decisions", type=int, default=1000, help="decisions of the float16/float32 check")
    ap.add_argument("--seed", type=int, default=0, help="the first hand's seed of that check")
    ap.add_argument("--cpu-hours", type=float, default=None, help="the CPU-hours behind the model, when known")
    ap.add_argument("--command", default=None, help="the training command, for MODEL.json")
    a = ap.parse_args(argv)
    try:
        ok, _ = ship(a.train_dir, frames=a.frames, out=a.out, decisions=a.decisions, seed=a.seed,
                     cpu_hours=a.cpu_hours, command=a.command)
    except ShipError as e:
        print(f"ship_model: {e}", file=sys.stderr)
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
