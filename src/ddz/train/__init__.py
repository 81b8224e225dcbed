"""Training networks that play (issue 43): :func:`dmc`, DouZero's Deep Monte-Carlo on the
vectorised game. Needs PyTorch (``pip install "ddz[train]"``), imported only when training
starts; the networks it writes play without torch (:class:`ddz.NeuralBot`)."""

from .dmc import DEFAULTS, STATE_FORMAT, dmc

__all__ = ["dmc", "DEFAULTS", "STATE_FORMAT"]
