"""Adapters: each engine's legal-move call on a benchmark position, in its own input
format (converted once, outside the timed call). Third-party engines are only imported.

``prepare(engine, position)`` returns a zero-argument callable that computes the legal
moves of that position (pass included when responding, as each engine does it), or
``None`` if the engine cannot take the position. ``held(engine, position)`` reads back,
from the engine's own input, the cards it was given: ``(hand, play to beat)`` as a ddz
``uint8[15]`` and a :class:`ddz.Play` under the engine's profile (``Rules.profile``), or
``None``; ``tests/test_bench_engines.py`` checks that every engine gets the position's
cards and counts the moves ddz counts under its profile.
"""

from __future__ import annotations

import types
from typing import Callable, Dict, Optional

import numpy as np

import ddz
from ddz import interop
from ddz.core import reference
from positions import RULES, Position

RANKS = "3456789TJQKA2BR"


def _ddz_array(p: Position):
    return lambda h=p.hand, b=p.to_beat: ddz.legal_moves_array(h, b, RULES)


def _ddz_plays(p: Position):
    return lambda h=p.hand, b=p.to_beat: ddz.legal_moves(h, b, RULES)


def _ddz_count(p: Position):
    return lambda h=p.hand, b=p.to_beat: ddz.count_legal_moves(h, b, RULES)


def _reference(p: Position):
    return lambda h=p.hand, b=p.to_beat: reference.legal_moves(h, b, RULES)


# -- DouZero: douzero.env.game.GameEnv.get_legal_card_play_actions (generator + selector)
_DZ = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]


def _dz_cards(counts):
    return [_DZ[r] for r in range(15) for _ in range(int(counts[r]))]


def _douzero_env(p: Position):
    """The minimal stand-in of DouZero's ``GameEnv`` that its legal-move method reads."""
    return types.SimpleNamespace(
        acting_player_position="landlord",
        info_sets={"landlord": types.SimpleNamespace(player_hand_cards=_dz_cards(p.hand))},
        card_play_action_seq=[] if p.to_beat is None else [_dz_cards(p.to_beat.counts)],
    )


def _douzero(p: Position):
    from douzero.env.game import GameEnv  # imports move_generator/selector/detector only

    env = _douzero_env(p)
    return lambda: GameEnv.get_legal_card_play_actions(env)


def _douzero_held(p: Position):
    env = _douzero_env(p)
    seq = env.card_play_action_seq
    return (interop.douzero_counts(env.info_sets["landlord"].player_hand_cards),
            interop.douzero_play(seq[-1]) if seq else None)


# -- RLCard: DoudizhuJudger.playable_cards_from_hand (leading), utils.get_gt_cards (responding)
class _Card:
    def __init__(self, ch):
        self.rank, self.suit = ch, ""


def _rlcard_input(p: Position):
    """RLCard's hand string, and (responding) the two player stand-ins ``get_gt_cards`` reads."""
    text = ddz.format_cards(p.hand)
    if p.to_beat is None:
        return text, None, None
    me = types.SimpleNamespace(current_hand=[_Card(c) for c in text])
    other = types.SimpleNamespace(played_cards=ddz.format_cards(p.to_beat.counts))
    return text, me, other


def _rlcard(p: Position):
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards

    text, me, other = _rlcard_input(p)
    if me is None:
        return lambda: DoudizhuJudger.playable_cards_from_hand(text)
    return lambda: get_gt_cards(me, other)


def _rlcard_held(p: Position):
    text, me, other = _rlcard_input(p)
    hand = interop.rlcard_counts(text if me is None else "".join(c.rank for c in me.current_hand))
    return hand, None if other is None else interop.rlcard_play(other.played_cards)


# -- OpenSpiel: pyspiel dou_dizhu state.legal_actions(), on a state dealt to the position.
# Covered: 20-card hands leading (the landlord's first lead) and 17-card hands responding
# (the first farmer answering the landlord's lead); other positions need a played-out
# history and are skipped.
_game = None


def _os_norm(s: str) -> str:
    s = s.replace("(BWJ)", "B").replace("(CJ)", "R")
    if any(c not in RANKS for c in s):
        return s                           # "Pass" and the like
    return "".join(sorted(s, key=RANKS.index))


#: OpenSpiel's card ids (its chance actions are 51 + id): suit * 13 + rank for the 52
#  suited cards (rank 0 = '3' .. 12 = '2'; "Deal C3" is id 0, "Deal C4" id 1), then the
#  black joker 52 and the red joker 53
def _os_cards(counts, used):
    """OpenSpiel card ids of ``counts``, taking for each rank the suits not ``used`` yet."""
    out = []
    for r in range(15):
        for _ in range(int(counts[r])):
            out.append(13 * used[r] + r if r < 13 else 39 + r)
            used[r] += 1
    return out


def _os_deal(p: Position):
    """OpenSpiel card ids of ``(landlord's 20 cards, first farmer, second farmer)`` for the
    position: the player to act holds ``p.hand``; responding, the landlord holds the play
    to beat (and the lowest other cards); ``None`` for positions not covered."""
    used = [0] * 15
    if p.to_beat is None and p.size == 20:
        landlord = _os_cards(p.hand, used)
        rest = _os_cards(p.rest, used)
        return landlord, rest[:17], rest[17:]
    if p.to_beat is not None and p.size == 17:
        farmer1 = _os_cards(p.hand, used)
        beat = _os_cards(p.to_beat.counts, used)
        rest = _os_cards(p.rest - np.array(p.to_beat.counts, dtype=np.uint8), used)
        return beat + rest[:20 - len(beat)], farmer1, rest[20 - len(beat):]
    return None


def _os_state(p: Position):
    """An OpenSpiel state dealt to the position (its player to act holds ``p.hand`` and,
    responding, the landlord has just played ``p.to_beat``), or ``None``."""
    global _game
    import pyspiel

    if _game is None:
        _game = pyspiel.load_game("dou_dizhu")
    deal = _os_deal(p)
    if deal is None:
        return None
    landlord, farmer1, farmer2 = deal
    s = _game.new_initial_state()
    s.apply_action(0)                      # first card up: player 0 bids first
    hands = [landlord[:17], farmer1, farmer2]
    for k in range(51):                    # the k-th card goes to player k % 3
        s.apply_action(51 + hands[k % 3][k // 3])
    assert s.current_player() == 0
    s.apply_action(3)                      # player 0 bids 3: landlord, takes the bottom
    if p.to_beat is not None:
        try:                               # the same play (not only the same cards)
            act = interop.to_openspiel(p.to_beat, ddz.Rules.profile("openspiel"))
        except ddz.DdzError:
            return None                    # a play OpenSpiel's action space lacks
        if act not in s.legal_actions():
            return None                    # not a lead of the landlord's hand under OpenSpiel's rules
        s.apply_action(act)
        if s.is_terminal():
            return None                    # a play of all 20 cards: the landlord went out
        assert s.current_player() == 1
    return s


def _openspiel(p: Position):
    s = _os_state(p)
    return None if s is None else s.legal_actions


def _openspiel_held(p: Position):
    s = _os_state(p)
    if s is None:
        return None
    text = s.observation_string(s.current_player()).split("\n")[0]
    assert text.startswith("My hand ")
    hand = ddz.parse_cards(_os_norm(text[len("My hand "):]))
    beat = None if p.to_beat is None else interop.openspiel_play(s.history()[-1])
    return hand, beat


ENGINES: Dict[str, Callable[[Position], Optional[Callable]]] = {
    "ddz array": _ddz_array,
    "ddz legal_moves": _ddz_plays,
    "ddz count": _ddz_count,
    "reference": _reference,
    "DouZero": _douzero,
    "RLCard": _rlcard,
    "OpenSpiel": _openspiel,
}


#: each third-party engine's reading of its input back as ddz cards, and its profile
HELD = {"DouZero": (_douzero_held, "douzero"), "RLCard": (_rlcard_held, "rlcard"),
        "OpenSpiel": (_openspiel_held, "openspiel")}


def prepare(engine: str, p: Position):
    return ENGINES[engine](p)


def held(engine: str, p: Position):
    """The cards ``engine`` was given for ``p``, read back from its own input: ``(hand
    uint8[15], play to beat or None)``, the play as a :class:`ddz.Play` under the engine's
    profile; ``None`` if the engine does not take the position."""
    return HELD[engine][0](p)
