"""Adapters: each engine's legal-move call on a benchmark position, in its own input
format (converted once, outside the timed call). Third-party engines are only imported.

``prepare(engine, position)`` returns a zero-argument callable that computes the legal
moves of that position (pass included when responding, as each engine does it), or
``None`` if the engine cannot take the position.
"""

from __future__ import annotations

import types
from typing import Callable, Dict, Optional

import numpy as np

import ddz
from ddz import fast, reference
from positions import RULES, Position

RANKS = "3456789TJQKA2BR"


def _ddz_array(p: Position):
    return lambda h=p.hand, b=p.to_beat: fast.legal_moves_array(h, b, RULES)


def _ddz_plays(p: Position):
    return lambda h=p.hand, b=p.to_beat: fast.legal_moves(h, b, RULES)


def _ddz_count(p: Position):
    return lambda h=p.hand, b=p.to_beat: fast.count_legal_moves(h, b, RULES)


def _reference(p: Position):
    return lambda h=p.hand, b=p.to_beat: reference.legal_moves(h, b, RULES)


# -- DouZero: douzero.env.game.GameEnv.get_legal_card_play_actions (generator + selector)
_DZ = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]


def _dz_cards(counts):
    return [_DZ[r] for r in range(15) for _ in range(int(counts[r]))]


def _douzero(p: Position):
    from douzero.env.game import GameEnv  # imports move_generator/selector/detector only

    env = types.SimpleNamespace(
        acting_player_position="landlord",
        info_sets={"landlord": types.SimpleNamespace(player_hand_cards=_dz_cards(p.hand))},
        card_play_action_seq=[] if p.to_beat is None else [_dz_cards(p.to_beat.counts)],
    )
    return lambda: GameEnv.get_legal_card_play_actions(env)


# -- RLCard: DoudizhuJudger.playable_cards_from_hand (leading), utils.get_gt_cards (responding)
class _Card:
    def __init__(self, ch):
        self.rank, self.suit = ch, ""


def _rlcard(p: Position):
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards

    text = ddz.format_cards(p.hand)
    if p.to_beat is None:
        return lambda: DoudizhuJudger.playable_cards_from_hand(text)
    me = types.SimpleNamespace(current_hand=[_Card(c) for c in text])
    other = types.SimpleNamespace(played_cards=ddz.format_cards(p.to_beat.counts))
    return lambda: get_gt_cards(me, other)


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


def _os_cards(counts, used):
    out = []
    for r in range(15):
        for _ in range(int(counts[r])):
            out.append(4 * r + used[r] if r < 13 else 39 + r)   # jokers: 52, 53
            used[r] += 1
    return out


def _openspiel(p: Position):
    global _game
    import pyspiel

    if _game is None:
        _game = pyspiel.load_game("dou_dizhu")
    used = [0] * 15
    if p.to_beat is None and p.size == 20:
        landlord = _os_cards(p.hand, used)
        rest = _os_cards(p.rest, used)
        farmer1, farmer2 = rest[:17], rest[17:]
    elif p.to_beat is not None and p.size == 17:
        farmer1 = _os_cards(p.hand, used)
        beat = _os_cards(p.to_beat.counts, used)
        rest = _os_cards(p.rest - np.array(p.to_beat.counts, dtype=np.uint8), used)
        landlord = beat + rest[:20 - len(beat)]
        farmer2 = rest[20 - len(beat):]
    else:
        return None
    s = _game.new_initial_state()
    s.apply_action(0)                      # first card up: player 0 bids first
    hands = [landlord[:17], farmer1, farmer2]
    for k in range(51):                    # the k-th card goes to player k % 3
        s.apply_action(51 + hands[k % 3][k // 3])
    assert s.current_player() == 0
    s.apply_action(3)                      # player 0 bids 3: landlord, takes the bottom
    if p.to_beat is not None:
        want = ddz.format_cards(p.to_beat.counts)
        acts = [a for a in s.legal_actions() if _os_norm(s.action_to_string(a)) == want]
        if not acts:
            return None                    # a play OpenSpiel's action space lacks
        s.apply_action(acts[0])
        assert s.current_player() == 1
    return s.legal_actions


ENGINES: Dict[str, Callable[[Position], Optional[Callable]]] = {
    "ddz array": _ddz_array,
    "ddz legal_moves": _ddz_plays,
    "ddz count": _ddz_count,
    "reference": _reference,
    "DouZero": _douzero,
    "RLCard": _rlcard,
    "OpenSpiel": _openspiel,
}


def prepare(engine: str, p: Position):
    return ENGINES[engine](p)
