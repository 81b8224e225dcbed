"""The expert bot (issue 27): its split, its play against the baselines, and that it sees
only what its seat may see."""

import random

import numpy as np
import pytest

import ddz
import ddz.arena
from ddz import ExpertBot, Game, Rules
from ddz.core.cards import parse_cards
from ddz.core import IMPLEMENTATION
from ddz.search.expert import split

DOUZERO = Rules.profile("douzero")
SMALL = 20_000      # a search budget that keeps these tests fast (the default is some 15x more)


def _counts(text):
    return tuple(int(c) for c in parse_cards(text))


@pytest.mark.parametrize("hand, turns", [
    ("34567", 1), ("3456789TJQKA", 1), ("334455", 1), ("333444+56".replace("+", ""), 1),
    ("33344", 1), ("BR", 0), ("3333", 0), ("3333BR", 0), ("33", 1), ("2", 1),
    ("345678", 1), ("3456799", 2), ("33345", 2), ("3", 1), ("", 0),
])
def test_split_turns(hand, turns):
    assert split(_counts(hand)).turns == turns


def test_split_covers_the_hand():
    rng = random.Random(3)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    for _ in range(300):
        rng.shuffle(deck)
        hand = [0] * 15
        for r in deck[:rng.choice((5, 10, 17, 20))]:
            hand[r] += 1
        score, turns, groups, kickers = split(hand)
        used = [0] * 15
        width = {0: 1, 1: 2, 2: 3, 3: 4, 4: 1, 5: 1, 6: 2, 7: 3}
        for kind, lo, hi, value in groups:
            for r in range(lo, hi + 1):
                used[r] += width[kind]
        for ranks in kickers.values():
            for r in ranks:
                used[r] += 1
        assert used == hand
        assert turns == sum(1 for g in groups if g[0] not in (3, 4))     # bombs and the rocket are free
        assert all(groups[i][0] in (2, 7) for i in kickers)             # kickers go with trios, airplanes
        assert turns <= sum(1 for c in hand[:13] if c) + 2


def _redeal(game, seat, rng):
    """The same game, with the cards ``seat`` cannot see dealt again between the other two
    seats consistently with everything it has seen: card counts, every play, and the
    bottom cards the landlord has not played yet."""
    lord = game.landlord
    bottom = game.deal.bottom
    played = {s: [0] * 15 for s in range(3)}
    for s, p in game.plays:
        for r, c in enumerate(p.counts):
            played[s][r] += c
    others = [s for s in range(3) if s != seat]
    forced = {s: [0] * 15 for s in others}
    if lord != seat:
        forced[lord] = [max(0, b - c) for b, c in zip(bottom, played[lord])]
    pool = []
    for r in range(15):
        pool += [r] * (sum(game.hand(s)[r] for s in others) - sum(forced[s][r] for s in others))
    rng.shuffle(pool)
    hands = {seat: list(game.hand(seat))}
    for s in others:
        h = list(forced[s])
        for r in pool[:game.cards_left[s] - sum(h)]:
            h[r] += 1
        del pool[:game.cards_left[s] - sum(forced[s])]
        hands[s] = h
    dealt = []
    for s in range(3):
        d = [a + b for a, b in zip(hands[s], played[s])]
        if s == lord:
            d = [a - b for a, b in zip(d, bottom)]
        dealt.append(ddz.format_cards(d))
    other = Game(game.rules, deal=dealt + [ddz.format_cards(bottom)], first_bidder=lord)
    other.step(3)
    for _, p in game.plays:
        other.step(p)
    return other, any(other.hand(s) != game.hand(s) for s in others)


def test_the_expert_sees_only_what_its_seat_may_see():
    rng = random.Random(7)
    checked = changed = endgame = 0
    for seed in range(12):
        game = Game(DOUZERO, seed=seed)
        game.step(3)
        players = [ExpertBot(seed=s, budget=SMALL) for s in range(3)]
        while game.current_player is not None:
            seat = game.current_player
            obs, legal = game.observation(seat), game.legal_actions()
            other, differs = _redeal(game, seat, rng)
            obs2, legal2 = other.observation(seat), other.legal_actions()
            assert obs2 == obs and legal2 == legal
            mine = ExpertBot(seed=seed, budget=SMALL).act(obs, legal)
            assert ExpertBot(seed=seed, budget=SMALL).act(obs2, legal2) == mine
            checked += 1
            changed += differs
            endgame += sum(game.cards_left) <= 20
            game.step(players[seat].act(obs, legal))
    assert checked > 300 and changed > checked // 2 and endgame > 15


def test_expert_bids_doubles_and_plays_full_games():
    bot = ExpertBot(seed=1, budget=SMALL)
    rules = Rules(doubling=True)
    for seed in range(6):
        game = Game(rules, seed=seed)
        ddz.search.bots.play_hand(game, [bot, ExpertBot(seed=2, budget=SMALL), ddz.GreedyBot()])
        assert game.result is not None
    four = Game(Rules.four_player(), seed=1)
    ddz.search.bots.play_hand(four, [ExpertBot(seed=s, budget=SMALL) for s in range(4)])
    assert four.result is not None
    for bad in ({"samples": 0}, {"threshold": -1}, {"node_limit": "many"}, {"budget": 0}, {"budget": 1.5},
                {"probe": True}, {"probes": 0}):
        with pytest.raises(ddz.DdzError):
            ExpertBot(**bad)
    assert ExpertBot(budget=100, probe=101).probe == 100      # a probe is within the budget
    assert type(ExpertBot(budget=np.int64(100)).budget) is int     # numpy's integers are ints


def _searched_decisions(seeds, **kw):
    """(observation, legal) of the decisions where ExpertBot's search ran past the probe."""
    out = []
    for seed in seeds:
        game = Game(DOUZERO, seed=seed)
        game.step(3)
        bot = ExpertBot(seed=seed, **kw)
        while game.current_player is not None:
            obs, legal = game.observation(), game.legal_actions()
            action = bot.act(obs, legal)
            if bot.searched == "samples":
                out.append((obs, legal, action))
            game.step(action)
    return out


def test_the_search_is_a_budget_of_positions_and_deterministic():
    """The same observation and seed give the same play twice (a budget of positions, not
    of time); the probe decides when the search starts, not a card count: with the
    compiled solver it starts above the 30 cards of the old threshold on some hands."""
    kw = {"budget": SMALL} if IMPLEMENTATION != "reference" else {"budget": SMALL, "probe": 5_000}
    found = _searched_decisions(range(3), **kw)
    assert len(found) >= (10 if IMPLEMENTATION != "reference" else 3)     # 12 cards or fewer there
    if IMPLEMENTATION != "reference":
        assert max(sum(obs.cards_left) for obs, _, _ in found) > 30
    searched = 0
    for k, (obs, legal, action) in enumerate(found[:8]):
        seed = 100 + k
        bots = [ExpertBot(seed=seed, **kw) for _ in range(2)]
        assert bots[0].act(obs, legal) == bots[1].act(obs, legal) and bots[0].searched == bots[1].searched
        searched += bots[0].searched == "samples"
    assert searched >= 2
    # a tiny budget: the probe is never exact on a whole deal, so the split decides
    game = Game(DOUZERO, seed=1)
    game.step(3)
    bot = ExpertBot(seed=1, budget=12, threshold=60)
    obs, legal = game.observation(), game.legal_actions()
    assert bot.act(obs, legal) == ExpertBot(seed=1, threshold=0).act(obs, legal) and bot.searched == "probe"


def test_expert_beats_greedy_in_the_arena():
    r = ddz.arena.run([f"expert:budget={SMALL}", "greedy"], deals=20, seed=123)
    assert r.bots[0]["wp"] > 0.5 and r.bots[0]["forfeits"] == 0
