"""Resampling a ``python_ddz`` state from a seat's information state (for IS-MCTS and the
determinised searchers; docs/openspiel.md).

:func:`resample` draws, uniformly among the deals consistent with what seat ``p`` knows
(its own cards at their places in the deal, the face-up card, the bottom once shown to
it, every play, an open hand), a deal of the hidden cards, then replays the same actions
on it. The draw is exact: the reserved cards of each seat (what it must have held to make
its plays) are drawn first, the rest shuffled into the free places, and the result kept
with probability ``prod 1 / C(c, n)`` over seats and ranks (``n`` cards of a rank
reserved, ``c`` held in the end): the proposal weighs a deal by exactly that product, so
what is kept is uniform. A replay that meets an illegal action (a forced bid of the
four-player game, RULES.md §7, passed by a seat the draw made hold four jokers) is
drawn again. A farmer's double that ``p`` has not seen yet is drawn uniformly.
"""

from __future__ import annotations

import numbers
import random
from math import comb
from typing import Any, Dict, List, Optional, Tuple

from ..errors import DdzError
from .openspiel_conf import GameConf
from .openspiel_conf import hidden as _hidden, play_env_id

__all__ = ["undealt", "resample", "Knowledge", "knowledge_of"]

EXACT_TRIES = 20000
"""Proposals an exact draw may refuse before it gives up."""
APPROX_TRIES = 300
"""Proposals an approximate draw (``exact=False``) refuses at most."""
_MAX_REPLAYS = 1000


def undealt(conf: GameConf, dealt: List[int]) -> List[int]:
    """The card numbers not in ``dealt``, ascending."""
    taken = set(dealt)
    return [c for c in range(conf.ncards) if c not in taken]


class Knowledge:
    """What seat ``seat`` knows of one hand, as the resampler needs it.

    :ivar deals: per deal, the card numbers in deal order with ``None`` at every place
        the seat has not seen (the bottom not included).
    :ivar bottom: the current deal's bottom (card numbers) if the seat has seen it.
    :ivar landlord: the landlord's seat, or ``None``.
    :ivar played: per seat, the rank counts it has played in the current deal.
    :ivar held: per seat, exact rank counts of its dealt cards plus the bottom when they
        are public (the landlord's open hand), else ``None``.
    :ivar record: the actions ``(deal, seat, id, phase code)``, hidden doubles as ``None``.
    """

    def __init__(self, seat, first, deals, bottom, landlord, played, held, record) -> None:
        self.seat = seat
        self.first = first
        self.deals = deals
        self.bottom = bottom
        self.landlord = landlord
        self.played = played
        self.held = held
        self.record = record


def knowledge_of(s: Any, seat: int) -> Knowledge:
    """The :class:`Knowledge` of ``seat`` in a state's Python side ``s``."""
    conf = s.conf
    S = conf.seats
    deals = []
    for d, dealt in enumerate(s.old + [s.dealt]):
        row: List[Optional[int]] = [c if i % S == seat else None for i, c in enumerate(dealt)]
        if d == 0 and conf.face_up and s.first is not None and s.first < len(dealt):
            row[s.first] = dealt[s.first]
        deals.append(row)
    g = s.game
    lord = None if g is None else g.landlord
    bottom = None
    if lord is not None and (S == 3 or seat == lord):
        bottom = undealt(conf, s.dealt)
    played = [[0] * 15 for _ in range(S)]
    for d, q, a, code in s.record:
        if code == 3 and d == s.redeals:
            e = play_env_id(conf, a)
            if e:
                for r, n in enumerate(conf.acts.space.play(e).counts):
                    played[q][r] += n
    held: List[Optional[List[int]]] = [None] * S
    if g is not None and lord is not None and lord != seat:
        obs = g.observation(seat)
        if obs.open_hand is not None:
            held[lord] = [obs.open_hand[r] + played[lord][r] for r in range(15)]
    record = [(d, q, None if _hidden(s.record, i, seat) else a, code) for i, (d, q, a, code) in enumerate(s.record)]
    return Knowledge(seat, s.first, deals, bottom, lord, played, held, record)


def _draw_deal(conf: GameConf, k: Knowledge, d: int, rng: random.Random,
               exact: bool = True) -> Tuple[List[int], Optional[int]]:
    """One deal ``d`` drawn uniformly among those consistent with ``k``: the card numbers
    in deal order, and (current deal) the bottom is what is left. With ``exact=False``,
    after :data:`APPROX_TRIES` refused proposals the next one is kept (consistent, but
    not uniform: the searchers' fallback where the exact draw is slow, mostly late in a
    four-player hand).

    :raises DdzError: ``exact`` and no proposal kept in :data:`EXACT_TRIES`."""
    S = conf.seats
    row = k.deals[d]
    n = len(row)
    current = d == len(k.deals) - 1
    known = [c for c in row if c is not None]
    if current and k.bottom is not None:
        known = known + list(k.bottom)
    taken = set(known)
    pool: Dict[int, List[int]] = {}
    for c in range(conf.ncards):
        if c not in taken:
            pool.setdefault(conf.ranks[c], []).append(c)
    # groups: each other seat's hidden places (the landlord's with a bottom it holds and
    # the seat has not seen), then everything else (the undealt cards and the bottom)
    groups: List[Tuple[List[int], int, List[int], bool]] = []   # (places, extra slots, need, exact)
    complete = n == conf.ndealt
    bottom_hidden = complete and current and k.bottom is None
    lord = k.landlord if current else None
    for q in range(S):
        if q == k.seat:
            continue
        places = [i for i in range(q, n, S) if row[i] is None]
        extra = conf.bottom_size if (bottom_hidden and lord == q) else 0
        need = [0] * 15
        exact = False
        if current:
            have = [0] * 15
            for i in range(q, n, S):
                if row[i] is not None:
                    have[conf.ranks[row[i]]] += 1
            if q == lord and k.bottom is not None:
                for c in k.bottom:
                    have[conf.ranks[c]] += 1
            if k.held[q] is not None:
                need = [k.held[q][r] - have[r] for r in range(15)]
                exact = True
            else:
                need = [max(0, k.played[q][r] - have[r]) for r in range(15)]
        groups.append((places, extra, need, exact))
    tries = EXACT_TRIES if exact else APPROX_TRIES
    for attempt in range(tries + 1):
        left = {r: cards[:] for r, cards in pool.items()}
        contents: List[List[int]] = []
        for places, extra, need, _ in groups:
            got: List[int] = []
            for r in range(15):
                m = need[r]
                if m:
                    avail = left.get(r, [])
                    if m > len(avail):
                        raise DdzError("the information state is inconsistent: a seat played cards that are "
                                       "not left to deal")
                    pick = rng.sample(avail, m)
                    for c in pick:
                        avail.remove(c)
                    got += pick
            contents.append(got)
        rest = [c for r in range(15) for c in left.get(r, [])]
        rng.shuffle(rest)
        weight = 1.0
        ok = True
        for gi, (places, extra, need, exact) in enumerate(groups):
            size = len(places) + extra
            got = contents[gi]
            free = size - len(got)
            if free < 0:
                ok = False
                break
            got += rest[:free]
            del rest[:free]
            counts = [0] * 15
            for c in got:
                counts[conf.ranks[c]] += 1
            for r in range(15):
                if exact and counts[r] != need[r]:
                    ok = False
                if need[r] and counts[r] > need[r]:
                    weight /= comb(counts[r], need[r])
        if not ok:
            raise DdzError("the information state is inconsistent: a public hand does not fit its seat's places")
        if weight < 1.0 and rng.random() >= weight and attempt < tries:
            continue
        if attempt == tries and exact:
            raise DdzError(f"resample: no exact draw after {tries} proposals (the seats' plays leave few "
                           "consistent deals to draw from); use exact=False for a consistent, approximate draw")
        out: List[Optional[int]] = list(row)
        for gi, (places, extra, need, exact) in enumerate(groups):
            got = contents[gi]
            rng.shuffle(got)
            for i, c in zip(places, got):
                out[i] = c
        return [c for c in out if c is not None] if None not in out else _fail(), None
    raise AssertionError("unreachable")   # pragma: no cover


def _fail():   # pragma: no cover
    raise DdzError("resample: a place of the deal was left empty")


def resample(state: Any, seat: int, rng: random.Random, exact: bool = True) -> Any:
    """A new state of the same game: the hidden cards drawn uniformly among those
    consistent with what ``seat`` knows, the same actions replayed (module docstring).

    :raises DdzError: ``seat`` is not a seat of the game.
    """
    s = state._s
    conf = s.conf
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < conf.seats:
        raise DdzError(f"resample_from_infostate: seat must be 0..{conf.seats - 1}, got {seat!r}")
    seat = int(seat)
    if conf.start is not None:
        return state.clone()     # an open endgame: every seat sees everything
    k = knowledge_of(s, seat)
    return replay_knowledge(state.get_game(), k, rng, exact)


def replay_knowledge(game: Any, k: Knowledge, rng: random.Random, exact: bool = True) -> Any:
    """A state of ``game`` drawn from :class:`Knowledge` ``k`` (see :func:`resample`)."""
    conf = game.conf
    for _ in range(_MAX_REPLAYS):
        deals = [_draw_deal(conf, k, d, rng, exact)[0] for d in range(len(k.deals))]
        st = game.new_initial_state()
        try:
            if k.first is not None:
                st.apply_action(k.first)
            for d, cards in enumerate(deals):
                for c in cards:
                    st.apply_action(conf.card_base + c)
                for dd, q, a, code in k.record:
                    if dd != d:
                        continue
                    if a is None:      # a double not seen yet: either choice
                        a = rng.choice(st.legal_actions())
                    st.apply_action(a)
        except (DdzError, RuntimeError) as exc:
            if isinstance(exc, RuntimeError) and "llegal" not in str(exc) and "not legal" not in str(exc):
                raise
            continue
        return st
    raise DdzError("resample: every drawn deal was refused by the replay")   # pragma: no cover


def _card_id(text: str, decks: int, used: set) -> int:
    """A free card number of the card written ``text`` (``"7D"``, ``"B"``, or a bare rank)."""
    from ..core.cards import Card, RANK_CHARS   # import floor (docs/DESIGN.md): envs.openspiel's chain
    try:
        card = Card.parse(text)
        rank, suit = card.rank, card.suit
    except DdzError:
        rank, suit = RANK_CHARS.index(text[0].upper()), None
    base = [52 + rank - 13] if rank >= 13 else ([int(suit) * 13 + rank] if suit is not None
                                                 else [s * 13 + rank for s in range(4)])
    for copy in range(decks):
        for b in base:
            c = b + 54 * copy
            if c not in used:
                used.add(c)
                return c
    raise DdzError(f"no card {text!r} left to place")


def _ids_of_counts(counts, decks: int, used: set, ranks: List[int]) -> List[int]:
    """Free card numbers holding ``counts`` (15 ints): the lowest free numbers of each rank."""
    out = []
    for r, n in enumerate(counts):
        for _ in range(n):
            c = next(c for c in range(54 * decks) if ranks[c] == r and c not in used)
            used.add(c)
            out.append(c)
    return out


def knowledge_of_observation(conf: GameConf, obs: Any) -> Knowledge:
    """The :class:`Knowledge` of a :class:`ddz.Observation` (what a bot sees): its cards
    placed at its places of the deal (suits and order are not in the observation, so they
    are chosen canonically; the face-up card at the first place of its seat), the
    auction of this deal, the doubles it has seen (the others unknown), open play and
    every play. Redeals before this deal are not in an observation and do not count."""
    S = conf.seats
    seat = obs.seat
    acts = conf.acts
    space = acts.space
    used: set = set()
    lord = obs.landlord
    played = [[0] * 15 for _ in range(S)]
    for q, play in obs.plays:
        for r, n in enumerate(play.counts):
            played[q][r] += n
    own = [obs.hand[r] + played[seat][r] for r in range(15)]
    face_pos = None
    face_id = None
    if conf.face_up:
        fseat, text = obs.face_up
        face_id = _card_id(text, conf.decks, used)
        face_pos = fseat
        if fseat == seat:
            own[conf.ranks[face_id]] -= 1
    bottom = None
    if obs.bottom is not None:
        bottom = _ids_of_counts(obs.bottom, conf.decks, used, conf.ranks)
        if lord == seat:
            own = [own[r] - obs.bottom[r] for r in range(15)]
    row: List[Optional[int]] = [None] * conf.ndealt
    if face_pos is not None:
        row[face_pos] = face_id
    own_ids = _ids_of_counts(own, conf.decks, used, conf.ranks)
    places = [i for i in range(seat, conf.ndealt, S) if row[i] is None]
    for i, c in zip(places, own_ids):
        row[i] = c
    if conf.face_up:
        first = face_pos
    else:
        first = obs.bidding[0][0] if obs.bidding else obs.current_player
    record: List[tuple] = []
    rob = conf.rules.bidding == "rob"
    for q, value in obs.bidding:
        if not value:
            a = 0
        elif conf.openspiel_ids:
            a = value
        else:
            a = acts.call_id if rob else acts.plays + value - 1
        record.append((0, q, a, 0))
    if lord is not None and conf.rules.doubling:
        order = [(lord + 1) % S, (lord + 2) % S, lord]
        cur = obs.current_player
        done = 3 if obs.phase.value not in ("doubling",) else order.index(cur)
        for q in order[:done]:
            d = obs.doubles[q]
            if q == lord and d is None:
                continue          # no farmer doubled: the landlord was not asked
            record.append((0, q, None if d is None else (acts.double_id if d else 0), 1))
    if lord is not None and S == 4 and obs.phase.value not in ("opening",):
        record.append((0, lord, acts.open_id if obs.open_hand is not None else 0, 2))
    for q, play in obs.plays:
        e = space.id(play) if play else 0
        record.append((0, q, int(conf.to_os[e]) if conf.openspiel_ids else e, 3))
    held: List[Optional[List[int]]] = [None] * S
    if obs.open_hand is not None and lord != seat:
        held[lord] = [obs.open_hand[r] + played[lord][r] for r in range(15)]
    return Knowledge(seat, first, [row], bottom if (lord is not None and (S == 3 or seat == lord)) else None,
                     lord, played, held, record)
