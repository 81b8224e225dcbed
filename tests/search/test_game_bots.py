"""Bots (ddz.search.bots): the protocol, RandomBot, GreedyBot's documented heuristic."""

import pytest

import ddz
from ddz import DdzError, Game, Phase, Play, Rules
from ddz.search.bots import Bot, GreedyBot, RandomBot, hand_strength, make_bot, play_hand
from ddz.core.cards import parse_cards

from conftest import fill_deal


WEAK = "3345567789TTJQQKK"   # no joker, 2, ace or bomb


def counts(text):
    return tuple(int(c) for c in parse_cards(text))


def test_bots_follow_the_protocol():
    assert isinstance(RandomBot(1), Bot) and isinstance(GreedyBot(), Bot)
    assert isinstance(make_bot("random", 3), RandomBot)
    with pytest.raises(DdzError, match="unknown bot"):
        make_bot("clever")
    with pytest.raises(DdzError):
        play_hand(Game(seed=1), [RandomBot(1)])


def test_random_bot_is_seeded_and_picks_legal_actions():
    a, b = Game(seed=4), Game(seed=4)
    play_hand(a, [RandomBot(1), RandomBot(2), RandomBot(3)])
    play_hand(b, [RandomBot(1), RandomBot(2), RandomBot(3)])
    assert a.to_record() == b.to_record()
    legal = list(range(50))
    picks = {RandomBot(s).act(None, legal) for s in range(40)}
    assert picks <= set(legal) and len(picks) > 10


def test_greedy_bids_on_strong_hands_and_passes_weak_ones():
    strong = fill_deal("BR2222AA")           # jokers, a bomb of 2s, aces
    g = Game(deal=strong, first_bidder=0)
    assert hand_strength(g.hand(0)) >= 11
    assert GreedyBot().act(g.observation(0), g.legal_actions()) == 3
    weak = fill_deal(WEAK, "BR2222AAAA")
    g = Game(deal=weak, first_bidder=0)
    assert hand_strength(g.hand(0)) < 6
    assert GreedyBot().act(g.observation(0), g.legal_actions()) == 0
    g = Game(Rules(bidding="rob"), deal=strong, first_bidder=0)
    assert GreedyBot().act(g.observation(0), g.legal_actions()) == 1


def test_greedy_leads_long_plays_first_and_keeps_bombs():
    deal = fill_deal("3456789TJ" + "KKKK", "", "", "")
    g = Game(deal=deal, first_bidder=0)
    g.step(3)
    play = GreedyBot().act(g.observation(0), g.legal_actions())
    assert play.type is not ddz.PlayType.BOMB
    assert play.num_cards == max(p.num_cards for p in g.legal_actions()
                                 if p.type not in (ddz.PlayType.BOMB, ddz.PlayType.ROCKET))


def test_greedy_does_not_beat_its_partner():
    deal = fill_deal("3", "4", "AA22")
    g = Game(deal=deal, first_bidder=0)
    g.step(3)
    g.step("3")
    g.step("4")          # farmer seat 1 beats the landlord
    obs = g.observation(2)
    assert obs.partner == 1 and obs.to_beat_seat == 1
    legal = g.legal_actions()
    assert len(legal) > 1
    assert GreedyBot().act(obs, legal) == ddz.PASS
    # but it does beat the landlord, with the lowest play that does
    g = Game(deal=deal, first_bidder=1)
    g.step(3)
    g.step("4")          # seat 1 is the landlord now
    obs = g.observation(2)
    choice = GreedyBot().act(obs, g.legal_actions())
    assert choice and choice == min((p for p in g.legal_actions() if p), key=lambda p: p.rank)


def observation_with(hand, to_beat, to_beat_seat, left, seat=1, landlord=0):
    return ddz.Observation(
        seat=seat, phase=Phase.PLAYING, current_player=seat, rules=ddz.STANDARD,
        hand=counts(hand), landlord=landlord, bid=3, bidding=((landlord, 3),), robs=0,
        doubles=(None, None, None), bottom=counts("345"), plays=((to_beat_seat, Play.parse(to_beat)),),
        cards_left=left, to_beat=Play.parse(to_beat), to_beat_seat=to_beat_seat, multiplier=1)


def test_greedy_keeps_a_bomb_unless_it_decides_the_hand():
    hand = "3579JKKKK"
    legal = ddz.legal_moves(hand, "22")
    assert Play.parse("KKKK") in legal
    bot = GreedyBot()
    # the landlord has many cards left: keep the bomb
    assert bot.act(observation_with(hand, "22", 0, (15, 9, 17)), legal) == ddz.PASS
    # the landlord is about to go out: bomb
    assert bot.act(observation_with(hand, "22", 0, (3, 9, 17)), legal) == Play.parse("KKKK")
    # the bomb leaves a single play (a straight): bomb
    hand2 = "34567KKKK"
    legal2 = ddz.legal_moves(hand2, "22")
    assert bot.act(observation_with(hand2, "22", 0, (15, 9, 17)), legal2) == Play.parse("KKKK")
    # the bomb empties the hand
    assert bot.act(observation_with("KKKK", "22", 0, (15, 4, 17)),
                   ddz.legal_moves("KKKK", "22")) == Play.parse("KKKK")


def test_greedy_doubles_on_strong_hands():
    g = Game(Rules(doubling=True), deal=fill_deal(WEAK, "BR2222AAAA"), first_bidder=0)
    assert hand_strength(g.hand(2)) < 8
    g.step(3)
    assert GreedyBot().act(g.observation(1), g.legal_actions()) is True
    g.step(True)
    assert GreedyBot().act(g.observation(2), g.legal_actions()) is False


@pytest.mark.parametrize("rules", [ddz.STANDARD, Rules(bidding="rob", doubling=True)], ids=str)
def test_greedy_beats_random_bots(rules):
    total = 0
    for seed in range(150):
        g = play_hand(Game(rules, seed=seed), [GreedyBot(), RandomBot(seed), RandomBot(seed + 7)])
        total += g.result.scores[0]
    assert total > 0


@pytest.mark.parametrize("bots, match", [
    ([RandomBot(1), None, RandomBot(2)], r"bots\[1\] is not a bot"),
    ([RandomBot(1), object(), RandomBot(2)], r"bots\[1\] is not a bot"),
    ([RandomBot(1), type("B", (), {"act": 3})(), RandomBot(2)], r"bots\[1\] is not a bot"),
    ([RandomBot(1)] * 2, "needs 3 bots \\(one per seat\\), got 2"),
    (None, "sequence of 3 bots"),
])
def test_play_hand_validates_bots(bots, match):
    g = Game(seed=1)
    with pytest.raises(DdzError, match=match):
        play_hand(g, bots)
    assert g.actions == ()
    with pytest.raises(DdzError, match="needs a ddz.Game"):
        play_hand(None, [RandomBot(1)] * 3)
