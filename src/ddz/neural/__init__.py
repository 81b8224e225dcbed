"""Neural networks that play Dou Dizhu, run with numpy (issue 43): DouZero's checkpoints
read and written without torch (:mod:`ddz.neural.checkpoint`), its network's forward pass
(:mod:`ddz.neural.model`), its features from an :class:`ddz.Observation`
(:mod:`ddz.neural.features`) and the bot that plays with them (:mod:`ddz.neural.bot`).
Nothing here imports torch."""

from .checkpoint import MAX_BYTES, Checkpoint, load_checkpoint, read_checkpoint, save_checkpoint
from .features import DOUZERO_RULES, POSITIONS, observation_features
from .model import DouZeroNet, douzero_shapes
from .bot import SHIPPED_MODEL, NeuralBot, douzero_files, make_neural_bot

__all__ = ["MAX_BYTES", "Checkpoint", "load_checkpoint", "read_checkpoint", "save_checkpoint", "DOUZERO_RULES",
           "POSITIONS", "observation_features", "DouZeroNet", "douzero_shapes", "SHIPPED_MODEL", "NeuralBot",
           "douzero_files", "make_neural_bot"]
