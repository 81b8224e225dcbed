"""Differential tests of the engine profiles (issue 14, RULES.md §2.5) against the real
engines: ``Rules.profile(name)``'s legal moves must equal the engine's own legal set
exactly, on seeded random positions (leading and responding, 17- and 20-card hands, a
play to beat of every type, with a play of the same type and length planted in the hand
and the card sets that several readings share or whose kickers hold a trio, a bomb or the
rocket drawn often), and OpenSpiel's whole game (auction, play, returns) must equal
:class:`ddz.Game` under the profile.

Each engine's tests skip (per test) when its package is missing: ``rlcard``,
``douzero`` (installed with ``--no-deps``; only ``douzero.env`` is used) and
``open_spiel`` (``pyspiel``).
"""

from __future__ import annotations

import collections
import os
import random

import pytest

import ddz
from ddz import PlayType, Rules, interop
from ddz.core.implementation import NO_EXTENSIONS
from conftest import DECK_RANKS, rank_counts, RLCardPlayer, ProfilePlays, draw_beat, plant, profile_positions, take_cards

#: positions per profile; the pure-Python leg checks fewer (the reference is compared
#: with the core under every profile by tests/test_core_crosscheck.py)
N_POSITIONS = 500 if NO_EXTENSIONS else 5000
N_GAMES = 40 if NO_EXTENSIONS else 200
#: the slow runs (pytest -m slow): positions per profile and OpenSpiel games
SLOW_POSITIONS = int(os.environ.get("DDZ_SLOW_ENGINE_POSITIONS", 100_000))
SLOW_GAMES = SLOW_POSITIONS // 20

# -- RLCard -------------------------------------------------------------------------------

def test_rlcard_profile_is_repeat_kickers():
    assert Rules.profile("rlcard").move_rules == ddz.REPEAT_KICKERS.move_rules


def _check_rlcard(n, seed):
    pytest.importorskip("rlcard")
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards

    rules = Rules.profile("rlcard")
    kinds = collections.Counter()
    bad = []
    for hand, beat in profile_positions(rules, n, seed):
        ours = {interop.to_rlcard(p, rules) for p in ddz.legal_moves(hand, beat, rules)}
        if beat is None:
            theirs = set(DoudizhuJudger.playable_cards_from_hand(ddz.format_cards(hand)))
        else:
            theirs = set(get_gt_cards(RLCardPlayer(hand), RLCardPlayer("", interop.to_rlcard(beat, rules))))
        kinds[beat.type if beat else None] += 1
        if ours != theirs:
            bad.append((ddz.format_cards(hand), str(beat), sorted(ours - theirs)[:3], sorted(theirs - ours)[:3]))
    assert not bad, f"{len(bad)} mismatches, e.g. {bad[:5]}"
    assert set(kinds) == {None} | set(ProfilePlays(rules).types)      # every type was a play to beat


# -- DouZero ------------------------------------------------------------------------------

def _douzero_legal(hand, beat):
    """DouZero's legal moves, exactly as ``GameEnv.get_legal_card_play_actions`` computes
    them (its move generator, detector and selector), as sorted card tuples."""
    from douzero.env.game import GameEnv

    class _Info:
        player_hand_cards = interop.to_douzero(hand)

    env = GameEnv.__new__(GameEnv)           # no agents, no deal: only what the method reads
    env.acting_player_position = "landlord"
    env.info_sets = {"landlord": _Info()}
    env.card_play_action_seq = [] if beat is None else [interop.to_douzero(beat)]
    return {tuple(m) for m in env.get_legal_card_play_actions()}


def _check_douzero(n, seed):
    pytest.importorskip("douzero.env.game")
    rules = Rules.profile("douzero")
    kinds = collections.Counter()
    bad = []
    for hand, beat in profile_positions(rules, n, seed):
        ours = {tuple(interop.to_douzero(p)) for p in ddz.legal_moves(hand, beat, rules)}
        theirs = _douzero_legal(hand, beat)
        kinds[beat.type if beat else None] += 1
        if ours != theirs:
            bad.append((ddz.format_cards(hand), str(beat), sorted(ours - theirs)[:3], sorted(theirs - ours)[:3]))
    assert not bad, f"{len(bad)} mismatches, e.g. {bad[:5]}"
    assert set(kinds) == {None} | set(ProfilePlays(rules).types)


# -- OpenSpiel ----------------------------------------------------------------------------

_OS_DEAL_BASE = 51      # OpenSpiel's deal actions: 51 + card; card % 13 is the rank, 52/53 jokers


def _openspiel_cards(hands):
    """OpenSpiel card ids (0..53) for lists of ranks, each card used once."""
    free = {r: ([r + 13 * s for s in range(4)] if r < 13 else [39 + r]) for r in range(15)}
    return [[free[r].pop() for r in ranks] for ranks in hands]


def _openspiel_state(game, hands, bottom, first):
    """A pyspiel state after dealing ``hands`` (three lists of ranks, 17 each) with
    ``bottom`` left over and seat ``first`` turning the face-up card."""
    state = game.new_initial_state()
    cards = _openspiel_cards(hands)
    # the k-th dealt card goes to seat k % 3; the face-up position chooses the first bidder
    up = 3 * random.Random(sum(map(sum, hands))).randrange(17) + first
    state.apply_action(up)
    for k in range(51):
        state.apply_action(_OS_DEAL_BASE + cards[k % 3][k // 3])
    assert state.current_player() == first
    return state


def _os_ids(plays):
    return sorted(map(interop.to_openspiel, plays))          # default rules: the OpenSpiel profile


def _check_openspiel_positions(n, seed):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("dou_dizhu")
    rules = Rules.profile("openspiel")
    plays = ProfilePlays(rules)
    space = ddz.ActionSpace(rules)
    to_os, _ = interop.openspiel_id_map(space)
    rng = random.Random(seed)
    kinds = collections.Counter()
    bad = []
    checked = 0
    while checked < n:
        rest = list(DECK_RANKS)
        beat = draw_beat(rng, plays)
        take_cards(rest, beat.counts)
        responder = plant(rng, rest, plays, beat, 17)
        # the landlord's other cards never add to the ranks of its play (OpenSpiel's chains
        # do not start at a rank of which the hand holds four: keep the play playable)
        others = [r for r in rest if not beat.counts[r]]
        rng.shuffle(others)
        fill = others[:20 - sum(beat.counts)]
        lord = [r for r, c in enumerate(beat.counts) for _ in range(c)] + fill
        if len(lord) != 20:
            continue
        rng.shuffle(lord)
        for r in fill:
            rest.remove(r)
        third = rest
        state = _openspiel_state(game, [lord[:17], responder, third], lord[17:], 0)
        state.apply_action(3)                       # seat 0 bids 3: landlord, leads with 20
        hand = rank_counts(lord)
        ours = _os_ids(ddz.legal_moves(hand, None, rules))
        if ours != sorted(state.legal_actions()):
            bad.append(("lead", ddz.format_cards(hand), None, set(ours) ^ set(state.legal_actions())))
        kinds[None] += 1
        checked += 1
        a = interop.to_openspiel(beat, rules)
        if a not in state.legal_actions():
            continue
        state.apply_action(a)
        if state.is_terminal():                     # the landlord played all 20 cards
            continue
        for seat_hand in (responder, third):        # seat 1 responds; after its pass, seat 2
            hand = rank_counts(seat_hand)
            ours = _os_ids(ddz.legal_moves(hand, beat, rules))
            if ours != sorted(state.legal_actions()):
                bad.append(("respond", ddz.format_cards(hand), str(beat), set(ours) ^ set(state.legal_actions())))
            # the action space's ids through the exact id map say the same
            by_ids = sorted(to_os[space.legal_ids(hand, space.id(beat))].tolist())
            if by_ids != ours:
                bad.append(("ids", ddz.format_cards(hand), str(beat), set(ours) ^ set(by_ids)))
            kinds[beat.type] += 1
            checked += 1
            state.apply_action(interop.OPENSPIEL_PASS)
    assert not bad, f"{len(bad)} mismatches, e.g. {bad[:5]}"
    assert set(kinds) == {None} | set(plays.types)


def _ddz_action(game, a, rules):
    """The ddz action of OpenSpiel action ``a`` in ``game``'s phase."""
    if game.phase is ddz.Phase.BIDDING:
        return int(a)
    return interop.openspiel_play(a, rules)


def _openspiel_ids(game, rules):
    if game.phase is ddz.Phase.BIDDING:
        return sorted(game.legal_actions())
    return _os_ids(game.legal_actions())


def _check_openspiel_games(n, seed):
    pyspiel = pytest.importorskip("pyspiel")
    osgame = pyspiel.load_game("dou_dizhu")
    rules = Rules.profile("openspiel")
    rng = random.Random(seed)
    ends = collections.Counter()
    for g in range(n):
        state = osgame.new_initial_state()
        up = rng.randrange(51)
        state.apply_action(up)
        dealt = [[], [], []]
        cards = list(range(54))
        rng.shuffle(cards)
        for k in range(51):
            state.apply_action(_OS_DEAL_BASE + cards[k])
            dealt[k % 3].append(cards[k])
        rank = [c % 13 if c < 52 else c - 39 for c in range(54)]
        hands = [ddz.format_cards(rank_counts([rank[c] for c in h])) for h in dealt]
        bottom = ddz.format_cards(rank_counts([rank[c] for c in cards[51:]]))
        # OpenSpiel turns the up-th dealt card (dealt to seat up % 3): that seat bids first
        game = ddz.Game(rules, deal=hands + [bottom], face_up=(up % 3, ddz.format_cards(rank_counts([rank[cards[up]]]))))
        assert game.first_bidder == up % 3 == state.current_player()
        while not state.is_terminal():
            assert game.current_player == state.current_player()
            legal = sorted(state.legal_actions())
            assert _openspiel_ids(game, rules) == legal, (g, game.phase, game.actions)
            # every eighth auction is passed out (OpenSpiel: the hand ends with zero returns)
            a = 0 if g % 8 == 0 and game.phase is ddz.Phase.BIDDING else rng.choice(legal)
            game.step(_ddz_action(game, a, rules))
            state.apply_action(a)
        assert game.result is not None
        assert list(game.result.scores) == [int(x) for x in state.returns()]
        ends["void" if game.result.void else game.result.winner] += 1
    assert ends["void"] and ends["landlord"] and ends["farmers"]       # every kind of ending was seen


# -- the tests: the default run, and big runs behind -m slow --------------------------------

def test_legal_moves_equal_rlcard():
    _check_rlcard(N_POSITIONS, 14)


def test_legal_moves_equal_douzero():
    _check_douzero(N_POSITIONS, 15)


def test_legal_actions_equal_openspiel():
    _check_openspiel_positions(N_POSITIONS, 16)


def test_openspiel_games_in_lockstep():
    _check_openspiel_games(N_GAMES, 17)


@pytest.mark.slow
@pytest.mark.parametrize("check", [_check_rlcard, _check_douzero, _check_openspiel_positions],
                         ids=["rlcard", "douzero", "openspiel"])
def test_many_positions_equal_the_engines(check):
    check(SLOW_POSITIONS, 1014)


@pytest.mark.slow
def test_many_openspiel_games_in_lockstep():
    _check_openspiel_games(SLOW_GAMES, 1017)
