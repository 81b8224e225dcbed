"""What a seat of ``python_ddz`` sees: information-state and observation strings and
tensors, action texts, and the open endgame's steps (RULES.md §3–§5; docs/openspiel.md).

The information state (perfect recall) of seat ``p``: ``p``, its own cards of every deal
in the order dealt, how the first bidder was chosen (the face-up card, its position and
seat; or the first bidder), the bottom once shown to ``p``, and every action in order
(a farmer's double is hidden from the others until both farmers chose, RULES.md §4).
The observation is the native encoding (:func:`ddz.envs.encode_observation`) and the
seat's view of the table (:meth:`ddz.Game.render`). In an open endgame (``start``) every
hand is seen by every seat.
"""

from __future__ import annotations

from typing import Any, List

import numpy as np

from ..errors import IllegalActionError
from .openspiel_conf import GameConf, encode_counts, hidden as _hidden, play_env_id

__all__ = ["InfoObserver", "ObsObserver", "info_string", "action_text", "state_text", "endgame_legal",
           "endgame_apply", "play_env_id"]

_AUCTION_WORDS = ("pass", "bid 1", "bid 2", "bid 3", "call/rob", "yes", "?")


def action_text(conf: GameConf, action: int, s: Any = None) -> str:
    """A player action as text: ``"pass"``, ``"bid 2"``, ``"call/rob"``, ``"double"``,
    ``"open"`` or play notation (``"333444+56"``)."""
    if conf.openspiel_ids:
        if action == 0:
            return "pass"
        if 1 <= action <= 3:
            return f"bid {action}"
        e = conf.from_os[action] if 0 <= action < len(conf.from_os) else -1
        return conf.acts.space.notation(e) if e > 0 else f"action {action}"
    if 0 <= action < conf.acts.size:
        return conf.acts.describe(action)
    return f"action {action}"


def _word(conf: GameConf, action: int, code: int) -> int:
    """The auction word index (``_AUCTION_WORDS``) of an auction, doubling or opening id."""
    if action == 0:
        return 0
    if conf.openspiel_ids:
        return action
    a = action - conf.plays
    if code == 0:
        return 4 if a == 3 else a + 1
    return 5


def _own(conf: GameConf, dealt: List[int], seat: int) -> str:
    return " ".join(conf.card_text[c] for c in dealt[seat::conf.seats])


def _bottom_shown(s: Any, seat: int) -> bool:
    g = s.game
    return g is not None and g.landlord is not None and (s.conf.seats == 3 or seat == g.landlord)


def info_string(s: Any, seat: int) -> str:
    """The information state of ``seat`` as text (module docstring)."""
    conf = s.conf
    if conf.start is not None:
        return f"seat {seat} start {conf.start} | " + " ".join(
            f"{q}:{action_text(conf, a)}" for _, q, a, _ in s.record)
    out = [f"seat {seat}"]
    deals = s.old + [s.dealt]
    for d, dealt in enumerate(deals):
        part = [f"deal {d}: {_own(conf, dealt, seat)}"]
        if d == 0 and s.first is not None:
            part.append(f"face-up at {s.first} seat {s.first % conf.seats}" if conf.face_up
                        else f"first bidder {s.first}")
            if conf.face_up and s.first < len(dealt):
                part.append(f"face-up card {conf.card_text[dealt[s.first]]}")
        if d == len(deals) - 1 and _bottom_shown(s, seat):
            part.append("bottom " + " ".join(conf.card_text[c] for c in _bottom_of(conf, dealt)))
        acts = []
        for i, (dd, q, a, code) in enumerate(s.record):
            if dd == d:
                acts.append(f"{q}:?" if _hidden(s.record, i, seat) else f"{q}:{a}")
        part.append("| " + " ".join(acts))
        out.append(" ".join(part))
    return " || ".join(out)


def _bottom_of(conf: GameConf, dealt: List[int]) -> List[int]:
    taken = set(dealt)
    return [c for c in range(conf.ncards) if c not in taken]


def state_text(s: Any) -> str:
    """The whole state as text (every hand: for debugging, not for a seat)."""
    conf = s.conf
    if conf.start is not None:
        return str(s.pos)
    if s.game is None:
        return f"dealing: {len(s.dealt)} of {conf.ndealt} cards dealt, redeals {s.redeals}, first {s.first}"
    return str(s.game) + f"\nredeals {s.redeals}"


def _rel(seat: int, viewer: int, seats: int) -> int:
    return (seat - viewer) % seats


class _Observer:
    """OpenSpiel's ``PyObserver`` interface: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, conf: GameConf, layout) -> None:
        self.conf = conf
        self.tensor = np.zeros(layout[-1][2], np.float32)
        self.dict = {"observation": self.tensor}
        self.blocks = {name: (a, b) for name, a, b in layout}


class InfoObserver(_Observer):
    """The information state (perfect recall): :func:`info_string` and the tensor of
    ``GameConf.info_layout`` (docs/openspiel.md)."""

    def __init__(self, conf: GameConf) -> None:
        super().__init__(conf, conf.info_layout())
        self.dict = {"info_state": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        s = state._s
        conf = self.conf
        t = self.tensor
        t.fill(0)
        b = self.blocks
        S, K, D = conf.seats, conf.k, conf.decks
        t[b["seat"][0] + player] = 1
        slot = S + K
        if conf.start is not None:
            p0 = conf.start
            for q in range(S):
                encode_counts(p0.hands[q], t, b["hands"][0] + _rel(q, player, S) * K, D)
            t[b["landlord"][0] + _rel(p0.landlord, player, S)] = 1
            t[b["to_move"][0] + _rel(p0.to_move, player, S)] = 1
            if p0.to_beat is not None:
                encode_counts(p0.to_beat.counts, t, b["to_beat"][0], D)
                t[b["to_beat_seat"][0] + _rel(p0.last_player, player, S)] = 1
            else:
                t[b["to_beat_seat"][0] + S] = 1
            start = b["plays"][0]
            for i, (_, q, a, _) in enumerate(s.record):
                at = start + i * slot
                t[at + _rel(q, player, S)] = 1
                e = play_env_id(conf, a)
                if e:
                    encode_counts(conf.acts.space.play(e).counts, t, at + S, D)
            return
        own = [0] * 15
        for c in s.dealt[player::S]:
            own[conf.ranks[c]] += 1
        encode_counts(own, t, b["dealt"][0], D)
        if s.first is None:
            t[b["first"][0] + S] = 1
        else:
            first = s.first % S if conf.face_up else s.first
            t[b["first"][0] + _rel(first, player, S)] = 1
            if conf.face_up:
                face_deal = s.old[0] if s.old else s.dealt
                if s.first < len(face_deal):
                    t[b["face_up"][0] + conf.ranks[face_deal[s.first]]] = 1
        g = s.game
        if _bottom_shown(s, player):
            encode_counts(g.deals[-1].bottom, t, b["bottom"][0], D)
        t[b["redeals"][0]] = s.redeals
        auction = b["auction"][0]
        plays = b["plays"][0]
        na = npl = 0
        lord_hand = None
        for i, (d, q, a, code) in enumerate(s.record):
            if d != s.redeals:
                continue
            if code == 3:
                at = plays + npl * slot
                npl += 1
                t[at + _rel(q, player, S)] = 1
                e = play_env_id(conf, a)
                if e:
                    encode_counts(conf.acts.space.play(e).counts, t, at + S, D)
            else:
                at = auction + na * (S + 7)
                na += 1
                t[at + _rel(q, player, S)] = 1
                t[at + S + (6 if _hidden(s.record, i, player) else _word(conf, a, code))] = 1
                if code == 2 and a:
                    lord_hand = q
        if lord_hand is not None and g is not None:
            obs = g.observation(player)
            if obs.open_hand is not None:
                encode_counts(obs.open_hand, t, b["open_hand"][0], D)

    def string_from(self, state: Any, player: int) -> str:
        return info_string(state._s, player)


class ObsObserver(_Observer):
    """The observation: the native encoding (:func:`ddz.envs.encode_observation`) and the
    seat's view (:meth:`ddz.Game.render`); an open endgame's position (docs/openspiel.md)."""

    def __init__(self, conf: GameConf) -> None:
        from .core import encode_observation   # import floor (docs/DESIGN.md): envs.openspiel's chain
        super().__init__(conf, [("observation", 0, conf.obs_size)])
        self.encode = encode_observation

    def set_from(self, state: Any, player: int) -> None:
        s = state._s
        conf = self.conf
        t = self.tensor
        if s.game is not None:
            self.encode(s.game, player, t)
            return
        t.fill(0)
        S, K, D = conf.seats, conf.k, conf.decks
        if conf.start is None:
            own = [0] * 15
            for c in s.dealt[player::S]:
                own[conf.ranks[c]] += 1
            encode_counts(own, t, 0, D)      # the hand block: the cards dealt so far
            return
        p = s.pos
        for q in range(S):
            encode_counts(p.hands[q], t, _rel(q, player, S) * K, D)
        at = S * K
        if p.to_beat is not None:
            encode_counts(p.to_beat.counts, t, at, D)
            t[at + K + _rel(p.last_player, player, S)] = 1
        else:
            t[at + K + S] = 1
        at += K + S + 1
        t[at + _rel(p.landlord, player, S)] = 1
        at += S
        if not p.over:
            t[at + _rel(p.to_move, player, S)] = 1
        at += S
        t[at] = float(np.log2(p.multiplier))

    def string_from(self, state: Any, player: int) -> str:
        s = state._s
        conf = self.conf
        if s.game is not None:
            return s.game.render(player)
        if conf.start is not None:
            return f"seat {player}: {s.pos}"
        return f"seat {player} dealing: {_own(conf, s.dealt, player)}"


# -- the open endgame (start=...) -------------------------------------------------------

def endgame_legal(s: Any) -> List[int]:
    """The legal action ids of an open endgame's position, ascending."""
    conf = s.conf
    p = s.pos
    if p.over:
        return []
    space = conf.acts.space
    ids = [space.id(m) for m in p.legal_moves()]
    if conf.openspiel_ids:
        ids = [int(conf.to_os[i]) for i in ids]
    return sorted(ids)


def endgame_apply(s: Any, action: int) -> None:
    """Play ``action`` in an open endgame (RULES.md §5) and score it when over (§6).

    :raises IllegalActionError: not a legal id here."""
    conf = s.conf
    p = s.pos
    e = play_env_id(conf, action) if 0 <= action < conf.num_actions else -1
    if e < 0 or action not in endgame_legal(s):
        raise IllegalActionError(f"action {action} is not legal in the endgame {p}")
    play = conf.acts.space.play(e)
    seat = p.to_move
    s.record.append((0, seat, action, 3))
    s.pos = p = p.after(play)
    if p.over:
        score = p.final_score()
        s.ret = [float(2 * score if q == p.landlord else -score) for q in range(conf.seats)]
        s.cur = -4
    else:
        s.cur = p.to_move

