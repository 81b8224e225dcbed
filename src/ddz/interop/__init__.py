"""Conversions to and from other Dou Dizhu implementations: DouZero, RLCard, OpenSpiel.

None of them is imported here unless a function says so; the encodings are rebuilt from
their published rules and checked against the real packages by ``tests/interop/test_interop.py``.

Each engine's helpers default to its profile (``Rules.profile(name)``, RULES.md §2.5),
whose plays and legal moves are exactly the engine's.

DouZero (``douzero.env``)
    A card is an int: ``3``..``14`` for 3..A, ``17`` for 2, ``20`` small joker, ``30`` big
    joker. A hand or a play is a list of them, sorted ascending; the pass is ``[]``.
    DouZero's moves are card lists, not readings: :func:`douzero_play` reads a list as
    DouZero does (:func:`douzero_reading`), so the profile's 29,984 card sets and
    DouZero's card lists convert both ways one to one (:func:`douzero_plays`).
RLCard (``rlcard.games.doudizhu``, 1.2.0)
    An action is a string of rank characters sorted ascending (``'33344456'``, ``'BR'``;
    ``T`` for ten, ``B``/``R`` jokers), or ``'pass'``. Its 27,472 action ids (pass last)
    list the same plays as ``ActionSpace(Rules.profile("rlcard"))`` in another order:
    :func:`rlcard_id_map` gives the permutation (it needs ``rlcard`` installed).
OpenSpiel (``pyspiel.load_game("dou_dizhu")``)
    Action ids 0 (pass; also "pass" in bidding) and 4..26056 are plays (1..3 are bids).
    They are the 26,053 plays of ``Rules.profile("openspiel")`` reading for reading
    (``333444555-666`` and ``444555666-333`` are two actions and two plays);
    :func:`openspiel_id_map` gives the permutation. Under other rules, an action that is
    not a play (e.g. ``333444555-666`` with ``wings="standard"``) or a play OpenSpiel lacks
    (the four-with-twos) raises :class:`NotExpressibleError`.
"""

from .douzero import (DOUZERO_CARDS, DOUZERO_POSITIONS, DouZeroInfoSet, douzero_card_play_data, douzero_counts,
                      douzero_game, douzero_infoset, douzero_play, douzero_plays, douzero_reading,
                      douzero_seat, to_douzero)
from .engines import DOUZERO, OPENSPIEL, RLCARD, NotExpressibleError
from .openspiel import OPENSPIEL_NUM_ACTIONS, OPENSPIEL_PASS, openspiel_id_map, openspiel_play, to_openspiel
from .openspiel import _openspiel_tables  # noqa: F401 (its tests read it here, as before the split)
from .rlcard import rlcard_counts, rlcard_id_map, rlcard_play, to_rlcard

# one module per engine (douzero, rlcard, openspiel) and what they share (engines)

__all__ = [
    "NotExpressibleError", "DOUZERO", "RLCARD", "OPENSPIEL",
    "to_douzero", "douzero_counts", "douzero_play", "douzero_reading", "douzero_plays",
    "to_rlcard", "rlcard_play", "rlcard_counts", "rlcard_id_map",
    "to_openspiel", "openspiel_play", "openspiel_id_map", "OPENSPIEL_PASS", "OPENSPIEL_NUM_ACTIONS",
    "DOUZERO_POSITIONS", "douzero_seat", "douzero_game", "douzero_card_play_data", "DouZeroInfoSet",
    "douzero_infoset",
]
