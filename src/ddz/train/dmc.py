"""DouZero's Deep Monte-Carlo on :class:`ddz.envs.CVectorGame` (issue 43 item 3), with
PyTorch as an optional dependency (``pip install "ddz[train]"``: ``torch``).

Deep Monte-Carlo (Zha et al., 2021): one network per position (DouZero's architecture,
:mod:`ddz.neural.model`) scores Q(s, a) of every legal action; actors play ε-greedy
(the arg max of Q, a random legal action with probability ε); when a hand ends each of
its play-phase decisions gets the hand's return from the acting seat's view as its
target (no discounting: the Monte-Carlo return); the learner fits Q(s, a) to it by mean
squared error, RMSprop (DouZero's: learning rate 1e-4, α 0.99, ε 1e-5, gradients clipped
at norm 40).

Here the actors are the games of one :class:`~ddz.envs.CVectorGame` under
``Rules.profile("douzero")``: each step, DouZero's features of every game in its play
phase come from one C call (:func:`ddz.envs.douzero.get_obs_vector`), each position's
games are scored in one batched forward pass (one LSTM pass per game, each action's row
through the layers), and all games step at once. The auction, which DouZero does not
play, is played by random legal bids. A learner step takes ``batch_size`` decisions of
one position (DouZero's T × B = 100 × 32 = 3,200 by default); frames count as DouZero
counts them, decisions learned from.

Objectives: ``"wp"`` (DouZero's WP: +1 a hand won, -1 lost) or ``"adp"`` (the seat's
RULES.md §6 score of the hand, as the vector's rewards give it).

Output: each position's weights as DouZero's ``<position>_weights_<frames>.ckpt``
(:func:`ddz.neural.save_checkpoint`: ``NeuralBot`` and DouZero's ``DeepAgent`` read them)
in ``out_dir``, and one resumable training state, ``state_path``: a ``torch.save`` file
(zip) of ``{"format": "ddz-dmc-1", "models": {position: state_dict}, "optimizers":
{position: state_dict}, "frames": int, "hands": int, "seed": int, "vector_seed": int,
"settings": dict}``, replaced in place (written beside, then renamed) at each save.
"""

from __future__ import annotations

import json
import os
import pathlib
import time
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from ..errors import DdzError
from ..neural.bot import douzero_files
from ..neural.checkpoint import load_checkpoint, save_checkpoint
from ..neural.features import DOUZERO_RULES, POSITIONS

__all__ = ["dmc", "DEFAULTS", "STATE_FORMAT"]

STATE_FORMAT = "ddz-dmc-1"
#: DouZero's settings (its train.py defaults, a learner step being T x B decisions)
DEFAULTS = {"batch_size": 3200, "epsilon": 0.01, "lr": 1e-4, "alpha": 0.99, "rms_eps": 1e-5, "max_grad_norm": 40.0,
            "num_envs": 256, "objective": "wp"}
_X = (373, 484, 484)


def _torch():
    try:
        import torch   # optional dependency: training only (pip install "ddz[train]")
    except ImportError:
        raise DdzError('ddz.train needs PyTorch: pip install "ddz[train]" (or torch itself)') from None
    return torch


def _net(torch: Any, position: int) -> Any:
    """DouZero's network for a position, its parameters named as DouZero's."""
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lstm = nn.LSTM(162, 128, batch_first=True)
            self.dense1 = nn.Linear(_X[position] + 128, 512)
            for k in range(2, 6):
                setattr(self, f"dense{k}", nn.Linear(512, 512))
            self.dense6 = nn.Linear(512, 1)

        def forward(self, z: Any, x: Any, game_of_row: Optional[Any] = None) -> Any:
            """Q of each row: ``z`` [G, 5, 162], ``x`` [R, X]; row r's history is
            ``z[game_of_row[r]]`` (``None``: one row per z)."""
            out, _ = self.lstm(z)
            h = out[:, -1, :]
            if game_of_row is not None:
                h = h.index_select(0, game_of_row)
            y = torch.relu(self.dense1(torch.cat([h, x], dim=-1)))
            for k in range(2, 6):
                y = torch.relu(getattr(self, f"dense{k}")(y))
            return self.dense6(y)[:, 0]

    return Net()


def _returns(rewards: np.ndarray, seat: int, objective: str) -> float:
    r = float(rewards[seat])
    if objective == "wp":
        return 1.0 if r > 0 else -1.0 if r < 0 else 0.0
    return r


def _init_from(torch: Any, nets: List[Any], folder: Any) -> tuple:
    """Load a DouZero model folder's weights into ``nets``; ``(frames, hands)`` from its
    ``MODEL.json`` when it has one, else ``(0, 0)``."""
    files = douzero_files(folder)
    for k, p in enumerate(POSITIONS):
        weights = load_checkpoint(files[p])
        own = nets[k].state_dict()
        if set(weights) != set(own) or any(tuple(weights[n].shape) != tuple(own[n].shape) for n in own):
            raise DdzError(f"{files[p]} does not hold DouZero's {p} network")
        nets[k].load_state_dict({n: torch.from_numpy(np.array(weights[n], np.float32)) for n in own})
    meta = pathlib.Path(folder) / "MODEL.json"
    if meta.is_file():
        try:
            info = json.loads(meta.read_text(encoding="utf-8"))
            return int(info.get("frames", 0)), int(info.get("hands", 0) or 0)
        except (ValueError, TypeError) as e:
            raise DdzError(f"{meta} is not a model's record: {e}") from None
    return 0, 0


def dmc(out_dir: Any, frames: int, *, state_path: Any = None, seed: int = 0, num_envs: int = 256,
        batch_size: int = 3200, epsilon: float = 0.01, lr: float = 1e-4, objective: str = "wp",
        save_every: int = 200_000, threads: int = 1, seconds: Optional[float] = None, log: Optional[Callable[[str], None]] = print,
        init: Any = None) -> Dict[str, Any]:
    """Train DouZero's three networks by Deep Monte-Carlo on a vector of games.

    :param out_dir: the folder of the ``<position>_weights_<frames>.ckpt`` files (made if
        missing; ``NeuralBot(out_dir)`` plays the newest).
    :param frames: train until this many frames (decisions learned from, all positions)
        in all, counting those of a resumed state.
    :param state_path: the training state file (default ``out_dir/dmc_state.pt``); resumed
        when it exists.
    :param seed: seeds the networks' initialisation, the exploration and the vector's deals.
    :param num_envs: games stepped together. :param batch_size: decisions per learner step.
    :param epsilon: the exploration rate. :param lr: RMSprop's learning rate.
    :param objective: ``"wp"`` or ``"adp"`` (module docstring).
    :param save_every: frames between saves of the weights and the state.
    :param threads: torch's intra-op threads.
    :param seconds: stop (and save) after this many seconds even short of ``frames``
        (``None``: no limit): runs of a bounded length that a later call resumes.
    :param log: called with a line of progress after each save (``None``: silent).
    :param init: a DouZero model folder (what :class:`ddz.NeuralBot` reads: three
        ``<position>.ckpt`` files, float32 or float16, or a training folder's newest
        weights) whose weights start the networks when there is no state to resume (the
        optimiser starts afresh; frames count on from ``MODEL.json``'s ``frames`` when the
        folder has one, as the shipped model's has): a run resumed from the shipped model
        alone. Ignored when the state file exists.
    :returns: ``{"frames", "hands", "seconds", "frames_per_second", "files"}`` of this run.
    :raises DdzError: bad arguments, a state file of another format, or no PyTorch.
    """
    for name, v, low in (("frames", frames, 0), ("num_envs", num_envs, 1), ("batch_size", batch_size, 1),
                         ("save_every", save_every, 1), ("threads", threads, 1), ("seed", seed, 0)):
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise DdzError(f"dmc: {name} must be an int >= {low}, not {v!r}")
    if objective not in ("wp", "adp"):
        raise DdzError(f"dmc: objective must be 'wp' or 'adp', not {objective!r}")
    if not (0 <= epsilon <= 1) or not lr > 0:
        raise DdzError(f"dmc: epsilon must be in [0, 1] and lr > 0, not {epsilon!r}, {lr!r}")
    torch = _torch()
    # the vector and its features only when training (start-up time)
    from ..envs.douzero import get_obs_vector
    from ..envs.vector import CVectorGame
    torch.set_num_threads(threads)
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    state_file = pathlib.Path(state_path) if state_path is not None else out / "dmc_state.pt"
    torch.manual_seed(seed)
    nets = [_net(torch, k) for k in range(3)]
    opts = [torch.optim.RMSprop(n.parameters(), lr=lr, alpha=DEFAULTS["alpha"], eps=DEFAULTS["rms_eps"])
            for n in nets]
    done_frames = hands = 0
    vector_seed = seed
    if state_file.exists():
        try:
            st = torch.load(state_file, weights_only=True)
        except Exception as e:  # noqa: BLE001 - torch's errors of a file that is not its own
            raise DdzError(f"cannot read the training state {state_file}: {e}") from None
        if not isinstance(st, dict) or st.get("format") != STATE_FORMAT:
            raise DdzError(f"{state_file} is not a ddz DMC training state ({STATE_FORMAT})")
        for k, p in enumerate(POSITIONS):
            nets[k].load_state_dict(st["models"][p])
            opts[k].load_state_dict(st["optimizers"][p])
        done_frames, hands = int(st["frames"]), int(st["hands"])
        vector_seed = int(st["vector_seed"]) + 1      # fresh deals after a resume
    elif init is not None:
        done_frames, hands = _init_from(torch, nets, init)
        vector_seed = seed + done_frames               # deals not those of the run that made it
    rng = np.random.default_rng([seed, done_frames])
    vg = CVectorGame(num_envs, DOUZERO_RULES, seed=vector_seed, observe=False)
    # per game, the decisions of its current hand: (position, seat, z int8, x int8)
    pending: List[List[Any]] = [[] for _ in range(num_envs)]
    queues: List[List[Any]] = [[], [], []]          # finished decisions: (z, x, target)
    files: List[str] = []
    start = time.perf_counter()
    run_frames = 0
    next_save = done_frames + save_every

    def save() -> None:
        for k, p in enumerate(POSITIONS):
            f = out / f"{p}_weights_{done_frames}.ckpt"
            save_checkpoint({n: t.detach().numpy() for n, t in nets[k].state_dict().items()}, f)
            files.append(str(f))
        tmp = state_file.with_name(state_file.name + ".tmp")
        torch.save({"format": STATE_FORMAT, "models": {p: nets[k].state_dict() for k, p in enumerate(POSITIONS)},
                    "optimizers": {p: opts[k].state_dict() for k, p in enumerate(POSITIONS)},
                    "frames": done_frames, "hands": hands, "seed": seed, "vector_seed": vector_seed,
                    "settings": {"num_envs": num_envs, "batch_size": batch_size, "epsilon": epsilon, "lr": lr,
                                 "objective": objective}}, tmp)
        os.replace(tmp, state_file)
        if log:
            spent = time.perf_counter() - start
            log(f"frames {done_frames:,} hands {hands:,} {run_frames / max(spent, 1e-9):,.0f} frames/s")

    while done_frames < frames and (seconds is None or time.perf_counter() - start < seconds):
        obs = get_obs_vector(vg)
        position, offsets, ids, x = obs["position"], obs["offsets"], obs["action_ids"], obs["x"]
        legal, loff = vg.legal_ids()
        actions = legal[loff[:-1] + (rng.random(num_envs) * np.diff(loff)).astype(np.int64)]
        seats = vg.current_players.copy()
        counts = np.diff(offsets)
        with torch.no_grad():
            for k in range(3):
                games = np.flatnonzero(position == k)
                if not len(games):
                    continue
                c = counts[games]
                starts = np.concatenate([[0], np.cumsum(c)[:-1]])
                sel = np.repeat(offsets[games] - starts, c) + np.arange(int(c.sum()))
                q = nets[k](torch.from_numpy(obs["z"][games].astype(np.float32)),
                            torch.from_numpy(x[sel, :_X[k]]),
                            torch.from_numpy(np.repeat(np.arange(len(games)), c))).numpy()
                best = np.maximum.reduceat(q, starts)
                hit = np.flatnonzero(q == np.repeat(best, c))
                first = hit[np.unique(np.searchsorted(starts, hit, side="right") - 1, return_index=True)[1]]
                explore = rng.random(len(games)) < epsilon
                pick = np.where(explore, starts + (rng.random(len(games)) * c).astype(np.int64), first)
                actions[games] = ids[sel[pick]]
                for j, g in enumerate(games):
                    pending[g].append((k, int(seats[g]), obs["z"][g].copy(),
                                       x[sel[pick[j]], :_X[k]].astype(np.int8)))
        _, rewards, dones = vg.step(actions)
        for g in np.flatnonzero(dones):
            hands += 1
            for k, seat, z, xr in pending[g]:
                queues[k].append((z, xr, _returns(rewards[g], seat, objective)))
            pending[g] = []
        for k in range(3):
            while len(queues[k]) >= batch_size and done_frames < frames:
                batch, queues[k] = queues[k][:batch_size], queues[k][batch_size:]
                z = torch.from_numpy(np.stack([b[0] for b in batch]).astype(np.float32))
                xb = torch.from_numpy(np.stack([b[1] for b in batch]).astype(np.float32))
                target = torch.tensor([b[2] for b in batch], dtype=torch.float32)
                loss = ((nets[k](z, xb) - target) ** 2).mean()
                opts[k].zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(nets[k].parameters(), DEFAULTS["max_grad_norm"])
                opts[k].step()
                done_frames += batch_size
                run_frames += batch_size
        if done_frames >= next_save:
            save()
            next_save = done_frames + save_every
    if not files or not files[-1].endswith(f"_{done_frames}.ckpt"):
        save()
    spent = time.perf_counter() - start
    return {"frames": done_frames, "hands": hands, "seconds": spent,
            "frames_per_second": run_frames / max(spent, 1e-9), "files": files}
