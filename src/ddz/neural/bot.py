""":class:`NeuralBot`: a bot that plays the card play with DouZero's networks, in numpy
(issue 43; RULES.md §5).

It works from what the bot protocol gives it (``act(observation, legal)``): DouZero's
features of the :class:`ddz.Observation` (:mod:`ddz.neural.features`), the network of
the seat's position (:mod:`ddz.neural.model`), the legal action of highest Q. The
auction and doubling are not DouZero's (its networks start at the first lead): there it
answers as :class:`ddz.ExpertBot` does (bids by its hand's best split, doubles on a strong
split, never plays open). Torch is never imported.
"""

from __future__ import annotations

import os
import pathlib
import re
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.play import Play
from ..errors import CheckpointError, DdzError, quote
from ..game.observations import Observation
from ..game.phase import Phase
from .checkpoint import load_checkpoint
from .features import POSITIONS, check_rules, observation_features
from .model import DouZeroNet

__all__ = ["NeuralBot", "douzero_files", "make_neural_bot", "douzero_bot", "check_model", "SHIPPED_MODEL"]

SHIPPED_MODEL = pathlib.Path(__file__).resolve().parent / "models" / "neural"
"""The folder of the model shipped with ``ddz`` (package data: ``landlord.ckpt``,
``landlord_down.ckpt``, ``landlord_up.ckpt``), which ``NeuralBot()`` loads."""

PathLike = Union[str, "os.PathLike[str]"]
_WEIGHTS = re.compile(r"^(landlord|landlord_up|landlord_down)_weights_(\d+)\.ckpt$")


def douzero_files(path: Any) -> Dict[str, pathlib.Path]:
    """The three checkpoint files of a DouZero model: position -> file.

    :param path: a folder holding ``landlord.ckpt``, ``landlord_down.ckpt`` and
        ``landlord_up.ckpt`` (DouZero's baselines, e.g. ``baselines/douzero_ADP``), or a
        folder written by DouZero's ``train.py`` (``<savedir>/<xpid>``), whose newest
        ``<position>_weights_<frames>.ckpt`` of each position is taken; or a mapping of
        the three positions to files.
    :raises ddz.CheckpointError: not a folder or a mapping; a position without a file.
    """
    if isinstance(path, Mapping):
        files = {k: pathlib.Path(v) for k, v in path.items()}
        if sorted(files) != sorted(POSITIONS):
            raise CheckpointError(f"a DouZero model maps the positions {', '.join(POSITIONS)} to files, "
                                  f"not {sorted(files)}")
        return files
    if not isinstance(path, (str, os.PathLike)):
        raise CheckpointError(f"a DouZero model is a folder (or a mapping of positions to files), not "
                              f"{type(path).__name__}: {quote(path)}")
    folder = pathlib.Path(path)
    if not folder.is_dir():
        raise CheckpointError(f"no such folder: {quote(str(folder))} (a DouZero model is a folder of "
                              f"landlord.ckpt, landlord_down.ckpt, landlord_up.ckpt)")
    files = {p: folder / f"{p}.ckpt" for p in POSITIONS}
    if all(f.is_file() for f in files.values()):
        return files
    newest: Dict[str, Tuple[int, pathlib.Path]] = {}
    for f in folder.iterdir():
        m = _WEIGHTS.match(f.name)
        if m and f.is_file() and int(m.group(2)) >= newest.get(m.group(1), (-1, f))[0]:
            newest[m.group(1)] = (int(m.group(2)), f)
    if len(newest) == 3:
        return {p: newest[p][1] for p in POSITIONS}
    lacking = [p for p in POSITIONS if p not in newest and not files[p].is_file()]
    raise CheckpointError(f"{quote(str(folder))} holds no checkpoint for {', '.join(lacking)}: a DouZero model is "
                          f"landlord.ckpt, landlord_down.ckpt, landlord_up.ckpt (or train.py's "
                          f"<position>_weights_<frames>.ckpt)")


class NeuralBot:
    """Plays with DouZero's networks (one per position), in numpy.

    :param path: a DouZero model (:func:`douzero_files`: a baseline folder, a ``train.py``
        output folder, or a mapping of positions to files); ``None`` (default) the model
        shipped with ``ddz`` (:data:`SHIPPED_MODEL`).
    :param seed: seeds the :class:`ddz.ExpertBot` that bids and doubles for it (its
        auction and doubling draw nothing at random today; kept for the protocol).
    :raises ddz.CheckpointError: a missing file; a file :func:`ddz.neural.read_checkpoint`
        refuses; weights that are not DouZero's network (names, shapes, non-finite values).

    ``act(observation, legal)``: in the play phase the legal action of highest Q (the first
    such in ``legal``'s order on a tie; actions of the same cards are scored once, the
    first of them returned); a single legal action is returned at once, as DouZero does.
    In the auction, doubling and the open-play choice it answers as :class:`ddz.ExpertBot`.
    It refuses, with a :class:`ddz.DdzError`, a game whose card play is not DouZero's
    (:func:`ddz.neural.features.check_rules`: ``Rules.profile("douzero")``'s moves, three
    players).
    """

    def __init__(self, path: Any = None, *, seed: Optional[int] = None) -> None:
        if path is None:
            path = _shipped()
        files = douzero_files(path)
        self.source = str(path) if not isinstance(path, Mapping) else "a mapping of files"
        self.nets = tuple(DouZeroNet(load_checkpoint(files[p]), k, source=str(files[p]))
                          for k, p in enumerate(POSITIONS))
        # import floor: the expert (and its solver) only for a bot that bids
        from ..search.expert import ExpertBot
        self._expert = ExpertBot(seed)
        self._rules: Any = None

    def __repr__(self) -> str:
        return f"NeuralBot({self.source!r})"

    def seed(self, seed: Optional[int]) -> None:
        """Seed the bidding :class:`ddz.ExpertBot` again (the bot protocol calls it per hand)."""
        self._expert.seed(seed)

    def _check(self, observation: Any, legal: Any) -> None:
        if not isinstance(observation, Observation):
            raise DdzError(f"NeuralBot.act needs a ddz.Observation, not {type(observation).__name__}")
        rules = observation.rules
        if rules is not self._rules:
            check_rules(rules)
            self._rules = rules
        if not isinstance(legal, Sequence) or not legal or not isinstance(legal[0], Play):
            raise DdzError(f"NeuralBot.act needs the non-empty list of legal plays, not {quote(legal)}")

    def q_values(self, observation: Observation, legal: List[Play]) -> Tuple[List[Play], np.ndarray]:
        """The network's Q of each distinct legal action of a play-phase decision.

        :param observation: the seat to act's :class:`ddz.Observation` (play phase).
        :param legal: ``Game.legal_actions()``.
        :returns: ``(plays, q)``: the first play of each distinct card set of ``legal``, in
            its order, and float32[n] their Q values (DouZero's scale: about the expected
            score, or the win probability's 2p - 1 for a WP-trained model).
        :raises DdzError: not an observation of the play phase of DouZero's rules; ``legal``
            not a non-empty list of plays.
        """
        self._check(observation, legal)
        if observation.phase is not Phase.PLAYING:
            raise DdzError(f"Q values exist in the play phase only, not {observation.phase.value!r}")
        pos, x, z, actions, keep = observation_features(observation, legal)
        return [legal[k] for k in keep], self.nets[pos].q(x, z, actions)

    def act(self, observation: Observation, legal: List[Any]) -> Any:
        """Choose one of ``legal`` for the seat of ``observation`` (the :class:`ddz.Bot`
        protocol).

        :raises DdzError: as :meth:`q_values` (in the play phase)."""
        if observation.phase is not Phase.PLAYING:
            return self._expert.act(observation, legal)
        self._check(observation, legal)
        if len(legal) == 1:
            return legal[0]
        pos, x, z, actions, keep = observation_features(observation, legal)
        q = self.nets[pos].q(x, z, actions)
        return legal[keep[int(np.argmax(q))]]

    def act_vector(self, vg: Any) -> np.ndarray:
        """The action of every game of a C vector at once: each position's decisions in one
        LSTM pass and one matrix product per layer (``ddz.envs.douzero.get_obs_vector``).

        :param vg: a :class:`ddz.envs.CVectorGame` of DouZero's rules.
        :returns: int32[N]: for each game in its play phase the id (of ``vg.actions``) of
            the legal action of highest Q; -1 for a game in its auction or doubling (choose
            those actions otherwise, e.g. with the vector's policies).
        :raises DdzError: not a C vector of DouZero's rules.
        """
        # start-up time: the vector and its features only when the batched form is used
        from ..envs.douzero import get_obs_vector
        check_rules(vg.rules)
        obs = get_obs_vector(vg, reuse=True)
        position, offsets, ids, rows = obs["position"], obs["offsets"], obs["action_ids"], obs["x"]
        out = np.full(len(position), -1, np.int32)
        counts = np.diff(offsets)
        for k, net in enumerate(self.nets):
            games = np.flatnonzero(position == k)
            if not len(games):
                continue
            xna = net.x_no_action
            c = counts[games]
            starts = np.concatenate([[0], np.cumsum(c)[:-1]])
            sel = np.repeat(offsets[games] - starts, c) + np.arange(int(c.sum()))
            q = net.q_rows(obs["x_no_action"][games, :xna].astype(np.float32), obs["z"][games].astype(np.float32),
                           rows[sel, xna:xna + 54], c)
            best = np.maximum.reduceat(q, starts)
            hit = np.flatnonzero(q == np.repeat(best, c))
            first = np.unique(np.searchsorted(starts, hit, side="right") - 1, return_index=True)[1]
            out[games] = ids[sel[hit[first]]]
        return out


def check_model(directory: Optional[str] = None) -> None:
    """The bot registry's check of ``douzero:DIR`` and ``neural`` (before a match starts):
    the model's three files exist (nothing is read).

    :param directory: a model folder (:func:`douzero_files`); ``None``: the shipped model.
    :raises ddz.CheckpointError: no such folder, a position without a file, or (``None``)
        a build that ships no model."""
    if directory is None:
        _shipped()
    else:
        douzero_files(directory)


def _shipped() -> pathlib.Path:
    if not all((SHIPPED_MODEL / f"{p}.ckpt").is_file() for p in POSITIONS):
        raise CheckpointError(f"this build of ddz ships no model ({SHIPPED_MODEL} is empty): give "
                              f"NeuralBot a DouZero model folder")
    return SHIPPED_MODEL


def make_neural_bot(spec_arg: Optional[str] = None, seed: Optional[int] = None) -> NeuralBot:
    """The bot registry's factory of ``neural`` (``make_neural_bot(seed=seed)``: the model
    shipped with ``ddz``, :data:`SHIPPED_MODEL`) and a model folder's
    (``make_neural_bot("DIR", seed)``, as ``douzero:DIR``).

    :raises ddz.CheckpointError: as :class:`NeuralBot` (a build that ships no model says
        so)."""
    return NeuralBot(spec_arg or None, seed=seed)


def douzero_bot(directory: str, seed: Optional[int] = None) -> NeuralBot:
    """The bot registry's ``douzero:DIR``: :class:`NeuralBot` on the DouZero model folder
    ``directory`` (three ``<position>.ckpt`` files, or a ``train.py`` output folder whose
    newest ``<position>_weights_<frames>.ckpt`` are taken).

    :raises ddz.CheckpointError: as :class:`NeuralBot`."""
    return NeuralBot(directory, seed=seed)
