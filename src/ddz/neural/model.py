"""DouZero's network (Zha et al., 2021; ``douzero/dmc/models.py``) as a numpy forward pass.

One network per position: ``LSTM(162, 128)`` over ``z`` (5 x 162, the last 15 moves),
its last output concatenated with ``x`` (``x_no_action`` then the action's 54 columns:
373 columns for the landlord, 484 for a farmer), then ``Linear(128 + x, 512)``, four
``Linear(512, 512)``, each followed by ReLU, and ``Linear(512, 1)``: Q(s, a).

``z`` and ``x_no_action`` are the same for every legal action of a decision, so a
decision here costs one LSTM pass and one product of the first layer's shared columns
with ``[h, x_no_action]``; each action adds only its 54 columns (a 54 x 512 product) and
the four 512 x 512 layers. Everything is float32, as torch computes it; the sums are in
another order than torch's, which moves Q by about 1e-7 of its scale
(``tests/neural/test_douzero_equality.py`` bounds it at 1e-5).
"""

from __future__ import annotations

from typing import Dict, Mapping, Tuple

import numpy as np

from ..errors import CheckpointError

__all__ = ["DouZeroNet", "douzero_shapes", "HIDDEN", "LSTM_SIZE"]

HIDDEN = 512
LSTM_SIZE = 128
_Z = 162
#: ``x`` columns (x_no_action and the action) by position index
_X = (373, 484, 484)


def douzero_shapes(position: int) -> Dict[str, Tuple[int, ...]]:
    """The state dict of DouZero's network for a position index (0 landlord, 1
    landlord_down, 2 landlord_up): parameter name -> shape, in ``state_dict()`` order."""
    shapes: Dict[str, Tuple[int, ...]] = {
        "lstm.weight_ih_l0": (4 * LSTM_SIZE, _Z), "lstm.weight_hh_l0": (4 * LSTM_SIZE, LSTM_SIZE),
        "lstm.bias_ih_l0": (4 * LSTM_SIZE,), "lstm.bias_hh_l0": (4 * LSTM_SIZE,),
        "dense1.weight": (HIDDEN, LSTM_SIZE + _X[position]), "dense1.bias": (HIDDEN,)}
    for k in range(2, 6):
        shapes[f"dense{k}.weight"] = (HIDDEN, HIDDEN)
        shapes[f"dense{k}.bias"] = (HIDDEN,)
    shapes["dense6.weight"] = (1, HIDDEN)
    shapes["dense6.bias"] = (1,)
    return shapes


class DouZeroNet:
    """One position's DouZero network, its weights laid out for the forward pass.

    :param tensors: a DouZero state dict (``douzero_shapes(position)``'s names and
        shapes; float32 arrays, e.g. :func:`ddz.neural.load_checkpoint`'s).
    :param position: 0 landlord, 1 landlord_down, 2 landlord_up.
    :param source: where the weights came from, for error messages.
    :raises ddz.CheckpointError: a missing or extra parameter, a wrong shape, or a value
        that is not finite.
    """

    def __init__(self, tensors: Mapping[str, np.ndarray], position: int, source: str = "the state dict") -> None:
        shapes = douzero_shapes(position)
        missing = [k for k in shapes if k not in tensors]
        extra = [k for k in tensors if k not in shapes]
        if missing or extra:
            raise CheckpointError(f"{source} is not DouZero's network for position {position}: "
                                  f"missing {missing}, unexpected {extra[:5]}")
        for k, shape in shapes.items():
            a = np.asarray(tensors[k])
            if a.shape != shape:
                raise CheckpointError(f"{source}: {k} has shape {a.shape}, DouZero's network needs {shape} "
                                      f"(position {position})")
            if not np.isfinite(a).all():
                raise CheckpointError(f"{source}: {k} holds values that are not finite")
        t = {k: np.asarray(tensors[k], np.float32) for k in shapes}
        self.position = position
        self.x_no_action = _X[position] - 54
        self.state = {k: t[k].copy() for k in shapes}
        # the gates i, f, o are sigmoids, sigmoid(x) = (tanh(x / 2) + 1) / 2: their rows
        # halved (exact in binary), one tanh of all 512 pre-activations serves every gate
        half = np.ones((4 * LSTM_SIZE, 1), np.float32)
        half[:2 * LSTM_SIZE] = half[3 * LSTM_SIZE:] = 0.5
        self.w_ih = np.ascontiguousarray((t["lstm.weight_ih_l0"] * half).T)            # [162, 512]
        self.w_hh = np.ascontiguousarray((t["lstm.weight_hh_l0"] * half).T)            # [128, 512]
        self.b_lstm = (t["lstm.bias_ih_l0"] + t["lstm.bias_hh_l0"]) * half[:, 0]
        w1 = t["dense1.weight"]
        self.w1_shared = np.ascontiguousarray(w1[:, :LSTM_SIZE + self.x_no_action].T)   # [128 + xna, 512]
        self.w1_action = np.ascontiguousarray(w1[:, LSTM_SIZE + self.x_no_action:].T)   # [54, 512]
        self.b1 = t["dense1.bias"]
        self.hidden = [(np.ascontiguousarray(t[f"dense{k}.weight"].T), t[f"dense{k}.bias"]) for k in range(2, 6)]
        self.w6 = np.ascontiguousarray(t["dense6.weight"].reshape(-1))
        self.b6 = np.float32(t["dense6.bias"][0])

    def lstm(self, z: np.ndarray) -> np.ndarray:
        """The LSTM's last output: float32[..., 128] of ``z`` float32[..., 5, 162]."""
        gates_x = z @ self.w_ih
        gates_x += self.b_lstm                                  # [..., 5, 512]
        n = LSTM_SIZE
        h = c = None
        for t in range(gates_x.shape[-2]):
            g = gates_x[..., t, :] if h is None else gates_x[..., t, :] + h @ self.w_hh
            act = np.tanh(g)                                    # tanh(x / 2) for i, f, o; tanh(x) for the cell
            cell = act[..., 2 * n:3 * n].copy()
            act *= np.float32(0.5)
            act += np.float32(0.5)                              # sigmoids (the cell's quarter unused)
            if c is None:
                c = act[..., :n] * cell
            else:
                c *= act[..., n:2 * n]
                c += act[..., :n] * cell
            h = act[..., 3 * n:] * np.tanh(c)
        return h

    def shared(self, x_no_action: np.ndarray, z: np.ndarray) -> np.ndarray:
        """The first layer's part common to every action of a decision: float32[..., 512]
        (before the action's columns and the ReLU)."""
        h = self.lstm(z)
        return np.concatenate([h, x_no_action], axis=-1) @ self.w1_shared + self.b1

    def head(self, first: np.ndarray) -> np.ndarray:
        """Q of each row from the first layer's pre-activation float32[n, 512]: float32[n]."""
        x = np.maximum(first, 0, out=first)
        for w, b in self.hidden:
            x = x @ w
            x += b
            np.maximum(x, 0, out=x)
        return x @ self.w6 + self.b6

    def q(self, x_no_action: np.ndarray, z: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Q(s, a) of one decision.

        :param x_no_action: float32[319 | 430]. :param z: float32[5, 162].
        :param actions: float32[n, 54], one row per action.
        :returns: float32[n].
        """
        first = actions @ self.w1_action
        first += self.shared(x_no_action, z)
        return self.head(first)

    def q_rows(self, x_no_action: np.ndarray, z: np.ndarray, actions: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Q(s, a) of many decisions at once, their rows in one block.

        :param x_no_action: float32[G, 319 | 430]. :param z: float32[G, 5, 162].
        :param actions: float32[R, 54]: decision ``g``'s rows follow decision ``g - 1``'s.
        :param counts: int[G], the rows of each decision (summing to R).
        :returns: float32[R].
        """
        shared = self.shared(x_no_action, z)
        first = actions @ self.w1_action
        first += np.repeat(shared, counts, axis=0)
        return self.head(first)
