"""ddz.Game: dealing, bidding, doubling, play and scoring (RULES.md §3–§6)."""

import json

import pytest

import ddz
from ddz import (DdzError, DealError, Game, IllegalActionError, InvalidPlayError,
                 NotationError, NotInHandError, Phase, Play, Rules)
from ddz.core.cards import full_deck, parse_cards
from ddz.game import Deal, bottom_bonus_factor

from conftest import fill_deal
from dealspec import SpecStream

ROB = Rules(bidding="rob")
DOUBLING = Rules(doubling=True)


def snapshot(game):
    """Everything observable about a game, to check that a rejected action changed nothing."""
    return (json.dumps(game.to_record(), sort_keys=True), game.phase, game.current_player,
            game.legal_actions(), [game.observation(s) for s in range(3)], game.multiplier)


def rejected(game, action, error):
    before = snapshot(game)
    with pytest.raises(error):
        game.step(action)
    assert snapshot(game) == before


# -- dealing (§3) ---------------------------------------------------------------------

def test_seeded_deal_is_the_documented_deal_stream_shuffle_of_full_deck(seed=2 ** 64 - 1):
    """ddz.game.deal's docstring, rewritten from its text in tests/dealspec.py: the
    largest seed (the golden files, tests/game/test_golden.py, hold the deals of thousands
    of ordinary seeds; test_play_state.py draws the stream at the edge seeds)."""
    stream = SpecStream(seed)
    deck = full_deck()
    stream.shuffle(deck)
    g = Game(seed=seed)
    assert g.deal == Deal.from_shuffle(deck)
    assert g.first_bidder == stream.below(3)
    assert [sum(h) for h in g.deal.hands] == [17, 17, 17] and sum(g.deal.bottom) == 3


def test_given_first_bidder_and_unseeded_game_keeps_its_seed():
    g = Game(first_bidder=2)
    assert g.current_player == 2 and isinstance(g.seed, int)
    assert Game(seed=g.seed).deal == g.deal


def test_given_deal_in_rank_and_suited_notation():
    deal = fill_deal()
    g = Game(deal=deal, first_bidder=0)
    assert g.deal.cards is None
    assert g.hand(0) == tuple(int(c) for c in parse_cards(deal[0]))
    suited = Game(seed=3).deal.to_json()
    g2 = Game(deal=suited, first_bidder=1)
    assert g2.deal == Game(seed=3).deal


@pytest.mark.parametrize("deal, match", [
    (("3", "4", "5", "6"), "17"),
    (fill_deal()[:3], "deal is"),
    ((fill_deal()[0],) * 3 + ("BR2",), "extra"),
    ({"hands": ["3"], "bottom": ""}, "3 hands"),
    ("33344", "deal is"),
])
def test_bad_deals(deal, match):
    with pytest.raises(DealError, match=match):
        Game(deal=deal)


def test_suits_on_some_parts_only_and_repeated_suited_cards():
    suited = Game(seed=3).deal.to_json()
    mixed = dict(suited, bottom=ddz.format_cards(Game(seed=3).deal.bottom))
    with pytest.raises(DealError, match="suits"):
        Game(deal=mixed)
    h = suited["hands"]
    first = h[0].split()
    twice = {"hands": [" ".join([first[1]] + first[1:]), h[1], h[2]], "bottom": suited["bottom"]}
    with pytest.raises(DealError):
        Game(deal=twice)


def test_bottom_bonus_needs_suits():
    deal = fill_deal(bottom="345")
    with pytest.raises(DealError, match="suits"):
        Game(Rules(bottom_bonus=True), deal=deal)
    Game(Rules(bottom_bonus=False), deal=deal)  # fine without the option


@pytest.mark.parametrize("bad", [dict(seed="x"), dict(seed=1.5), dict(first_bidder=3),
                                 dict(first_bidder=True), dict(rules="standard")])
def test_bad_arguments(bad):
    with pytest.raises(DdzError):
        Game(**bad)


@pytest.mark.parametrize("bad", [dict(bidding="auction"), dict(doubling="yes"),
                                 dict(bottom_bonus=1)])
def test_bad_rule_options(bad):
    with pytest.raises(DdzError):
        Rules(**bad)


# -- bidding by points (§3) ---------------------------------------------------------

def test_bidding_order_and_highest_bidder():
    g = Game(seed=1, first_bidder=1)
    assert g.phase is Phase.BIDDING and g.current_player == 1
    assert g.legal_actions() == [0, 1, 2, 3]
    g.step(1)
    assert g.current_player == 2 and g.legal_actions() == [0, 2, 3]
    g.step("pass")
    assert g.current_player == 0
    g.step(2)
    assert g.landlord == 0 and g.bid == 2 and g.phase is Phase.PLAYING
    assert g.current_player == 0
    assert sum(g.hand(0)) == 20 and g.cards_left == (20, 17, 17)
    bottom = g.deal.bottom
    assert all(g.hand(0)[r] == g.deal.hands[0][r] + bottom[r] for r in range(15))


def test_bid_of_three_ends_bidding_at_once():
    g = Game(seed=1, first_bidder=2)
    g.step(3)
    assert g.landlord == 2 and g.phase is Phase.PLAYING and g.current_player == 2
    assert [s for s, _ in g.actions] == [2]


def test_bid_must_be_strictly_higher():
    g = Game(seed=1, first_bidder=0)
    g.step(2)
    rejected(g, 2, IllegalActionError)
    rejected(g, 1, IllegalActionError)
    rejected(g, "1", IllegalActionError)
    rejected(g, 4, IllegalActionError)
    rejected(g, True, IllegalActionError)
    rejected(g, "double", IllegalActionError)
    rejected(g, Play.parse("3"), IllegalActionError)
    g.step(3)
    assert g.landlord == 1 and g.bid == 3


def test_all_pass_redeals_from_the_same_generator():
    g = Game(seed=77)
    first = g.first_bidder
    for _ in range(3):
        g.step(0)
    assert g.redeals == 1 and len(g.deals) == 2
    assert g.phase is Phase.BIDDING and g.current_player == first
    stream = SpecStream(77)
    deck = full_deck()
    stream.shuffle(deck)
    assert g.deals[0] == Deal.from_shuffle(deck)
    stream.below(3)
    deck2 = full_deck()
    stream.shuffle(deck2)
    assert g.deal == Deal.from_shuffle(deck2) != g.deals[0]
    assert g.hand(0) == g.deal.hands[0]
    g.step(1)
    assert g.observation(0).bidding == ((first, 1),)  # the void deal's bids are gone


def test_redeal_does_not_depend_on_the_given_first_bidder():
    a, b = Game(seed=9, first_bidder=0), Game(seed=9, first_bidder=2)
    for g in (a, b):
        for _ in range(3):
            g.step(0)
    assert a.deal == b.deal


# -- robbing (§3, bidding="rob") ----------------------------------------------------

def rob_game(actions, first=0):
    g = Game(ROB, seed=4, first_bidder=first)
    for a in actions:
        g.step(a)
    return g


def test_rob_first_caller_robs_back():
    g = rob_game(["call", "rob", "pass"])
    assert g.phase is Phase.BIDDING and g.current_player == 0  # the caller's last word
    g.step("rob")
    assert g.landlord == 0 and g.phase is Phase.PLAYING
    assert g.bid == 1 and g.multiplier == 4


def test_rob_last_robber_is_landlord():
    g = rob_game([0, 1, 1])
    assert g.current_player == 1   # seat 1 called, seat 2 robbed
    g.step(0)
    assert g.landlord == 2 and g.multiplier == 2 and g.bid == 1


def test_rob_nobody_robs_caller_is_landlord_at_once():
    g = rob_game([1, 0, 0])
    assert g.landlord == 0 and g.multiplier == 1 and len(g.actions) == 3


def test_rob_late_caller():
    g = rob_game([0, 0, 1], first=1)
    assert g.landlord == 0 and g.multiplier == 1


def test_rob_nobody_calls_redeals():
    g = rob_game([0, 0, 0])
    assert g.redeals == 1 and g.phase is Phase.BIDDING


def test_rob_rejects_other_values():
    g = rob_game([])
    assert g.legal_actions() == [0, 1]
    rejected(g, 2, IllegalActionError)
    rejected(g, "3", IllegalActionError)


def test_rob_counts_in_the_score():
    g = rob_game(["call", "rob", "rob", "rob"])
    assert g.landlord == 0 and g.multiplier == 8
    ddz.search.bots.play_hand(g, [ddz.RandomBot(1), ddz.RandomBot(2), ddz.RandomBot(3)])
    r = g.result
    assert r.robs == 3 and r.base == 1 and r.breakdown["robs"] == 8
    assert r.score == r.multiplier and r.multiplier % 8 == 0


# -- doubling (§4) --------------------------------------------------------------------

def test_doubling_and_redoubling():
    g = Game(DOUBLING, seed=2, first_bidder=1)
    g.step(3)
    assert g.phase is Phase.DOUBLING and g.current_player == 2
    assert g.legal_actions() == [False, True]
    g.step(True)
    # revealed together: seat 0 and the landlord do not see seat 2's choice yet
    assert g.observation(0).doubles == (None, None, None)
    assert g.observation(1).doubles == (None, None, None)
    assert g.observation(2).doubles == (None, None, True)
    assert g.current_player == 0
    g.step("pass")
    assert g.observation(0).doubles == (False, None, True)
    assert g.current_player == 1  # someone doubled: the landlord may redouble
    g.step("redouble")
    assert g.phase is Phase.PLAYING and g.current_player == 1
    assert g.multiplier == 4


def test_no_double_skips_the_landlord():
    g = Game(DOUBLING, seed=2, first_bidder=0)
    g.step(3)
    g.step(False)
    g.step(0)
    assert g.phase is Phase.PLAYING and g.current_player == 0 and g.multiplier == 1


def test_doubling_rejects_bids_and_plays():
    g = Game(DOUBLING, seed=2, first_bidder=0)
    g.step(3)
    rejected(g, 2, IllegalActionError)
    rejected(g, "333", IllegalActionError)
    rejected(g, None, IllegalActionError)


def test_doubles_count_in_the_result():
    g = Game(DOUBLING, seed=2, first_bidder=0)
    for a in (3, True, True, True):
        g.step(a)
    ddz.search.bots.play_hand(g, [ddz.RandomBot(1), ddz.RandomBot(2), ddz.RandomBot(3)])
    assert g.result.doubles == 3 and g.result.breakdown["doubles"] == 8
    assert g.result.score % 24 == 0


# -- play (§5) ------------------------------------------------------------------------

def test_landlord_leads_and_may_not_pass():
    g = Game(seed=8, first_bidder=0)
    g.step(3)
    legal = g.legal_actions()
    assert ddz.PASS not in legal and len(legal) > 1
    rejected(g, "pass", IllegalActionError)
    rejected(g, ddz.PASS, IllegalActionError)


def test_illegal_plays_are_rejected_without_change():
    deal = fill_deal("33345678", "9999", "", "")
    g = Game(deal=deal, first_bidder=0)
    g.step(3)
    rejected(g, "9", NotInHandError)                  # seat 0 holds no 9
    rejected(g, "xyz", NotationError)
    rejected(g, "3456", InvalidPlayError)             # not a play
    rejected(g, 3, IllegalActionError)                # a bid in the play phase
    rejected(g, Play.parse("4444+55", Rules(kickers="repeat")), InvalidPlayError)
    g.step("34567")
    rejected(g, "45678", NotInHandError)
    rejected(g, "6789T", NotInHandError)
    rejected(g, "9", IllegalActionError)              # not the same type
    g.step("pass")
    rejected(g, "34567", NotInHandError)


def test_trick_ends_after_two_passes_and_passing_does_not_stop_a_player():
    deal = fill_deal("345", "6", "7", "")
    g = Game(deal=deal, first_bidder=0)
    g.step(3)
    g.step("3")
    g.step("pass")           # seat 1 passes once ...
    g.step("7")
    g.step("pass")
    assert g.current_player == 1 and g.to_beat == Play.parse("7")
    assert len(g.legal_actions()) > 1   # ... and may still play in the same trick
    g.step("pass")
    assert g.current_player == 2 and g.to_beat is None
    assert ddz.PASS not in g.legal_actions()


def test_observation_has_the_public_information():
    g = Game(seed=21, first_bidder=0)
    o = g.observation(1)
    assert o.phase is Phase.BIDDING and o.landlord is None and o.bottom is None
    assert o.hand == g.hand(1) and o.cards_left == (17, 17, 17)
    g.step(2)
    g.step(3)
    g.step(g.legal_actions()[0])
    o = g.observation(0)
    assert o.landlord == 1 and o.bid == 3 and o.bottom == g.deal.bottom
    assert o.bidding == ((0, 2), (1, 3))
    assert o.plays == ((1, g.plays[0][1]),)
    assert o.to_beat == g.plays[0][1] and o.to_beat_seat == 1
    assert o.cards_left == (17, 20 - g.plays[0][1].num_cards, 17)
    assert o.partner == 2 and not o.is_landlord and o.hand_str == ddz.format_cards(g.hand(0))
    assert o.current_player == 2 and o.multiplier == 1
    with pytest.raises(DdzError):
        g.observation(3)


def test_clone_is_independent():
    g = Game(seed=30, first_bidder=0)
    g.step(3)
    c = g.clone()
    c.step(c.legal_actions()[-1])
    assert g.plays == () and len(c.plays) == 1
    assert g.hand(0) != c.hand(0)
    assert g.clone().to_record() == g.to_record()


def test_clone_redeals_like_the_original():
    g = Game(seed=31)
    c = g.clone()
    for game in (g, c):
        for _ in range(3):
            game.step(0)
    assert g.deal == c.deal


# -- timeouts (§5) ----------------------------------------------------------------------

def test_timeout_actions():
    g = Game(DOUBLING, seed=12, first_bidder=0)
    assert g.timeout_action() == 0
    g.step(2)
    g.step(g.timeout_action())
    g.step(g.timeout_action())
    assert g.landlord == 0 and g.phase is Phase.DOUBLING
    assert g.timeout_action() is False
    g.step(g.timeout_action())
    g.step(g.timeout_action())
    assert g.phase is Phase.PLAYING
    low = next(r for r in range(15) if g.hand(0)[r])
    lead = g.timeout_action()
    assert lead == Play(ddz.PlayType.SINGLE, low, 1)
    g.step(lead)
    assert g.timeout_action() == ddz.PASS
    while g.phase is not Phase.OVER:
        g.step(g.timeout_action())
    assert g.result is not None
    with pytest.raises(IllegalActionError):
        g.timeout_action()


# -- scoring (§6) -------------------------------------------------------------------------

def finish(game, seed=0):
    bots = [ddz.RandomBot(seed), ddz.RandomBot(seed + 1), ddz.RandomBot(seed + 2)]
    return ddz.search.bots.play_hand(game, bots).result


def test_settlement_is_zero_sum_with_the_right_signs():
    """Every factor at once (robs, doubles, the bottom bonus); the golden files freeze the
    scores of 500 hands of each other rule set (tests/game/test_golden.py)."""
    rules = Rules(bidding="rob", doubling=True, bottom_bonus=True, kickers="repeat")
    for seed in range(40):
        r = finish(Game(rules, seed=seed), seed)
        assert sum(r.scores) == 0
        lord = r.landlord
        sign = 1 if r.winner == "landlord" else -1
        assert r.scores[lord] == 2 * sign * r.score
        assert all(r.scores[s] == -sign * r.score for s in range(3) if s != lord)
        assert r.score == r.base * r.multiplier
        product = 1
        for v in r.breakdown.values():
            product *= v
        assert product == r.score


def test_spring_with_two_bombs_and_a_rocket_scores_48():
    # RULES.md §6 example: bid 3, a spring, bombs JJJJ and KKKK and a rocket: S = 3 × 2^4.
    deal = ("3456789TJJJJKKKKB", "33344455566677788", "8999TTTQQQAAA2222", "QAR")
    g = Game(deal=deal, first_bidder=0)
    g.step(3)
    for play in ("3456789T", "Q", "A", "JJJJ", "KKKK"):
        g.step(play)
        g.step("pass")
        g.step("pass")
    g.step("BR")
    r = g.result
    assert r.winner == "landlord" and r.spring and not r.anti_spring
    assert (r.bombs, r.rockets) == (2, 1)
    assert r.multiplier == 16 and r.score == 48
    assert r.scores == (96, -48, -48)


def test_anti_spring():
    deal = fill_deal("3", "3456789TJQKA44552")
    g = Game(deal=deal, first_bidder=0)
    g.step(1)
    g.step("pass")
    g.step("pass")
    assert g.landlord == 0 and g.bid == 1
    g.step("3")
    g.step("2")
    g.step("pass")
    g.step("pass")
    for play in ("3456789TJQKA", "44", "55"):
        g.step(play)
        if g.phase is not Phase.OVER:
            g.step("pass")
            g.step("pass")
    r = g.result
    assert r.winner == "farmers" and r.anti_spring and not r.spring
    assert r.multiplier == 2 and r.scores == (-4, 2, 2)


def test_no_spring_when_a_farmer_played():
    deal = fill_deal("3", "4")
    g = Game(deal=deal, first_bidder=0)
    g.step(3)
    g.step("3")
    g.step("4")
    while g.phase is not Phase.OVER:
        g.step(g.timeout_action())
    assert not g.result.spring


def test_four_with_two_does_not_double_but_a_bomb_does():
    deal = fill_deal("444456")
    g = Game(deal=deal, first_bidder=0)
    g.step(3)
    g.step("4444+56")
    assert g.multiplier == 1 and g.plays[-1][1].type is ddz.PlayType.FOUR_TWO_SINGLES
    while g.phase is not Phase.OVER:
        g.step(g.timeout_action())   # passes and single cards: no bombs
    assert g.result.bombs == 0 and g.result.breakdown["bombs"] == 1
    # a bomb played doubles at once
    g = Game(deal=fill_deal("4444"), first_bidder=0)
    g.step(3)
    g.step("4444")
    assert g.multiplier == 2 and g.observation(1).multiplier == 2


def test_rocket_doubles():
    g = Game(deal=fill_deal("BR"), first_bidder=0)
    g.step(3)
    g.step("BR")
    assert g.multiplier == 2


@pytest.mark.parametrize("bottom, factor", [
    ("5S 5H 5D", 4),        # trio
    ("5S 6S 7S", 4),        # straight flush
    ("QH KH AH", 4),
    ("B R 3S", 3),          # both jokers
    ("5S 6H 7D", 3),        # consecutive
    ("KS AH 2D", 1),        # 2 is not in chains
    ("5S 5H 9D", 2),        # pair
    ("3S 9S KS", 2),        # flush
    ("R 3S 9H", 2),         # big joker
    ("B 3S 9S", 1),         # a joker has no suit: no flush
    ("B 3S 9H", 1),
    ("R 3S 3H", 2),
])
def test_bottom_bonus_factor(bottom, factor):
    cards = [c for c in ddz.core.cards.parse_suited(bottom)]
    rest = [c for c in full_deck() if c not in cards]
    deal = Deal.parse(([c for c in rest[:17]], rest[17:34], rest[34:51], cards))
    assert bottom_bonus_factor(deal) == factor


def test_bottom_bonus_in_the_score():
    cards = ddz.core.cards.parse_suited("5S 5H 5D")
    rest = [c for c in full_deck() if c not in cards]
    deal = (rest[:17], rest[17:34], rest[34:51], cards)
    g = Game(Rules(bottom_bonus=True), deal=deal, first_bidder=0)
    g.step(3)
    assert g.multiplier == 4
    r = finish(g)
    assert r.bottom_bonus == 4 and r.score % 8 == 0
    off = Game(deal=deal, first_bidder=0)
    off.step(2)
    assert off.multiplier == 1


def test_actions_after_the_end_are_rejected():
    g = Game(seed=3)
    finish(g)
    assert g.phase is Phase.OVER and g.current_player is None and g.legal_actions() == []
    rejected(g, "pass", IllegalActionError)
    rejected(g, 0, IllegalActionError)


# -- fixes from the tester's report ------------------------------------------------------

import numpy as np  # noqa: E402


@pytest.mark.parametrize("bad", [0.0, 1.0, True, False, "1", np.float64(1.0), np.bool_(True)])
def test_first_bidder_and_seed_reject_floats_and_bools(bad):
    with pytest.raises(DdzError, match="first_bidder"):
        Game(seed=1, first_bidder=bad)
    with pytest.raises(DdzError, match="seed"):
        Game(seed=bad)


def test_numpy_integers_are_converted_to_int():
    g = Game(seed=np.int64(5), first_bidder=np.int64(1))
    assert type(g.seed) is int and type(g.first_bidder) is int and g.first_bidder == 1
    assert g.deal == Game(seed=5).deal
    rec = g.to_record()
    json.dumps(rec)  # JSON-serializable
    assert Game.from_record(json.loads(json.dumps(rec))).first_bidder == 1
    assert g.hand(np.int64(2)) == g.hand(2)
    for bad in (True, 1.0, np.bool_(False)):
        with pytest.raises(DdzError, match=r"a seat is 0\.\.2"):
            g.hand(bad)
        with pytest.raises(DdzError, match=r"a seat is 0\.\.2"):
            g.observation(bad)


def test_bottom_bonus_needs_suits_even_with_a_joker_in_the_bottom():
    deal = fill_deal(bottom="34B")
    with pytest.raises(DealError, match="suits"):
        Game(Rules(bottom_bonus=True), deal=deal)
    Game(Rules(bottom_bonus=True), deal=Game(seed=1).deal.to_json())  # suited: fine


def test_bids_reject_bools():
    g = Game(seed=1, first_bidder=0)
    for bad in (True, np.bool_(True), 1.0):
        with pytest.raises(IllegalActionError):
            g.step(bad)
    assert g.actions == ()


@pytest.mark.parametrize("word", ["rob", "call", "double", "redouble", "yes", "叫地主", "不加倍"])
def test_bid_words_in_the_play_phase_are_illegal_actions(word):
    g = Game(seed=1, first_bidder=0)
    g.step(3)
    before = g.to_record()
    with pytest.raises(IllegalActionError, match="bidding or doubling action.*play phase"):
        g.step(word)
    assert g.to_record() == before


def test_plays_in_the_bidding_and_doubling_phases_are_illegal_actions():
    g = Game(Rules(doubling=True), seed=1, first_bidder=0)
    with pytest.raises(IllegalActionError, match="is a play.*bidding phase"):
        g.step("333")
    with pytest.raises(IllegalActionError, match="bidding phase.*not a play"):
        g.step(ddz.Play.parse("3"))
    g.step(3)
    assert g.phase == "doubling"
    with pytest.raises(IllegalActionError, match="is a play.*doubling phase"):
        g.step("3334")
    assert len(g.actions) == 1


def test_hidden_double_does_not_leak_through_the_multiplier():
    """RULES.md §4: the farmers' choices are revealed together."""
    seen = {}
    for first in (True, False):
        g = ddz.Game(ddz.Rules(doubling=True), seed=1, first_bidder=0)
        g.step(3)
        g.step(first)                        # seat 1 chooses
        obs = g.observation(2)               # seat 2 has not chosen yet
        assert obs.doubles == (None, None, None)
        seen[first] = obs.multiplier
        assert g.observation(1).multiplier == (2 if first else 1)
        g.step(False)                        # seat 2: now both are revealed
        assert g.observation(2).multiplier == (2 if first else 1)
    assert seen[True] == seen[False] == 1


def test_copies_and_pickles_are_independent():
    import copy
    import pickle
    g = ddz.Game(seed=0)
    for c in (copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert c.to_record() == g.to_record()
        c.step(c.legal_actions()[-1])
        assert g.actions == () and c.actions != ()
    card = ddz.Card.parse("3D")
    assert pickle.loads(pickle.dumps(card)) == card == copy.deepcopy(card)
    space = ddz.ActionSpace(ddz.Rules(kickers="repeat"))
    again = pickle.loads(pickle.dumps(space))
    assert len(again) == len(space) and again.rules == space.rules
    assert copy.deepcopy(space) is space
