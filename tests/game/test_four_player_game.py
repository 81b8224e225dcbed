"""The four-player game through ``ddz.Game`` (RULES.md §7): the deal, the forced bid, the
hidden bottom, open play, tricks of three passes, ``doubling_bombs`` (§6, both games) and
the ±3S settlement; records, bots, the twin play states and the command line."""

import json

import numpy as np
import pytest

import ddz
from ddz import DdzError, Game, IllegalActionError, Phase, Rules
from ddz.search.bots import GreedyBot, RandomBot, play_hand
from ddz.core.cards import deck_counts, full_deck
from ddz.game.playstate import PyPlayState, play_state
from dealspec import SpecStream
from ddz.core.tables import table

FOUR = Rules.four_player()


def four_deal(seat0="", seat1="", seat2="", seat3="", bottom=""):
    """A two-deck deal with the given cards placed first; the rest filled in rank order."""
    parts = [seat0, seat1, seat2, seat3, bottom]
    sizes = [25, 25, 25, 25, 8]
    rest = deck_counts(2).astype(int)
    for p in parts:
        rest -= np.array(ddz.parse_cards(p, decks=2), int) if p else 0
    pool = [r for r in range(15) for _ in range(rest[r])]
    out = []
    for p, k in zip(parts, sizes):
        have = ddz.parse_cards(p, decks=2).tolist() if p else [0] * 15
        need = k - sum(have)
        take, pool = pool[:need], pool[need:]
        for r in take:
            have[r] += 1
        out.append(ddz.format_cards(have))
    return tuple(out)


def test_the_deal_is_the_documented_shuffle_of_two_decks():
    for seed in (0, 9, 2 ** 33):
        deck = full_deck(2)
        stream = SpecStream(seed)
        stream.shuffle(deck)
        g = Game(FOUR, seed=seed)
        want = [tuple(sorted(deck[i * 25:(i + 1) * 25])) for i in range(4)] + [tuple(sorted(deck[100:]))]
        assert list(g.deal.cards) == want
        assert [sum(h) for h in g.deal.hands] == [25] * 4 and sum(g.deal.bottom) == 8
        assert g.seats == 4 and g.cards_left == (25, 25, 25, 25)
        assert g.first_bidder == stream.below(4)


def test_bad_deals_and_seats():
    with pytest.raises(ddz.DealError):
        Game(FOUR, deal=four_deal()[:4])                    # the bottom is missing
    with pytest.raises(ddz.DealError):
        Game(FOUR, deal=("3", "4", "5", "6", "7"))
    with pytest.raises(ddz.DealError):
        Game(Rules(), deal=four_deal())                    # four hands for three players
    for bad in (4, -1, 1.0):
        with pytest.raises(DdzError):
            Game(FOUR, seed=1, first_bidder=bad)
    g = Game(FOUR, seed=1)
    with pytest.raises(DdzError):
        g.hand(4)
    assert len(g.hand(3)) == 15


@pytest.mark.parametrize("held", ["BBRR", "333344445555", "2222233333999999"])
def test_forced_bid(held):
    g = Game(FOUR, deal=four_deal(held), first_bidder=0)
    assert g.legal_actions() == [1, 2, 3] and g.timeout_action() == 1
    assert 0 not in g.legal_moves
    with pytest.raises(IllegalActionError, match="must bid"):
        g.step("pass")
    g.step(1)
    assert g.current_player == 1 and g.legal_actions() == [0, 2, 3]
    # once somebody has bid, a forced hand may pass
    g = Game(FOUR, deal=four_deal("", held), first_bidder=0)
    g.step(1)
    assert g.legal_actions() == [0, 2, 3]
    # only the four-player game forces
    assert ddz.game.must_bid(ddz.parse_cards("BR"), Rules()) is False


def test_bottom_hidden_from_farmers_and_open_play():
    g = Game(FOUR, seed=4, first_bidder=2)
    g.step(3)
    assert g.phase is Phase.OPENING and g.current_player == 2 and g.landlord == 2
    assert g.legal_actions() == [False, True] and g.timeout_action() is False
    assert g.cards_left == (25, 25, 33, 25)
    assert g.observation(2).bottom == g.deal.bottom
    assert all(g.observation(s).bottom is None for s in (0, 1, 3))
    with pytest.raises(IllegalActionError, match="opening"):
        g.step("333")
    assert g.multiplier == 1
    g.step("open")
    assert g.phase is Phase.PLAYING and g.current_player == 2 and g.multiplier == 3
    for s in range(4):
        obs = g.observation(s)
        assert obs.open_hand == g.hand(2) and obs.multiplier == 3
    assert g.observation(0).partners == (1, 3) and g.observation(0).partner is None
    assert g.observation(2).partners == ()
    g.step(g.legal_actions()[0])
    assert g.observation(1).open_hand == g.hand(2)


def test_a_trick_ends_after_three_passes_and_the_score_is_three_times():
    g = Game(FOUR, deal=four_deal("", "", "", "", ""), first_bidder=0)
    g.step(3)
    g.step(False)
    lead = g.legal_actions()[0]
    g.step(lead)
    for seat in (1, 2, 3):
        assert g.to_beat == lead and g.current_player == seat
        g.step("pass")
    assert g.to_beat is None and g.current_player == 0
    play_hand(g, [GreedyBot()] * 4)
    r = g.result
    assert sum(r.scores) == 0 and r.scores[0] == (3 if r.winner == "landlord" else -3) * r.score
    assert all(r.scores[s] == -r.scores[0] // 3 for s in (1, 2, 3))


def test_spring_and_anti_spring_with_four():
    # spring: the farmers pass whenever they may, so the landlord plays every card
    g = Game(FOUR, seed=6, first_bidder=0)
    g.step(3)
    g.step(False)
    while g.result is None:
        acts = g.legal_actions()
        g.step(acts[-1] if g.current_player == 0 else acts[0])
    r = g.result
    assert r.winner == "landlord" and r.spring and not r.anti_spring
    assert r.scores[0] == 3 * r.score and r.breakdown["spring"] == 2
    # anti-spring: the landlord leads one single, then passes; a farmer goes out
    g = Game(FOUR, seed=6, first_bidder=0)
    g.step(3)
    g.step(False)
    lowest = next(r for r in range(15) if g.hand(0)[r])
    g.step(ddz.core.cards.RANK_CHARS[lowest])
    while g.result is None:
        acts = g.legal_actions()
        if g.current_player == 0:
            assert acts[0] == ddz.PASS, "the landlord had to lead a second time"
            g.step(acts[0])
        else:
            g.step(acts[-1] if g.to_beat is None or g.to_beat_seat == 0 else acts[0])
    r = g.result
    assert r.winner == "farmers" and r.anti_spring and not r.spring and r.scores[0] == -3 * r.score


def _play_out(rules, seed, bots=None):
    n = rules.seats
    return play_hand(Game(rules, seed=seed), bots or [RandomBot(seed + i) for i in range(n)])


def test_records_round_trip_and_replay():
    for seed in range(12):
        g = _play_out(FOUR, seed)
        rec = json.loads(json.dumps(g.to_record()))
        assert len(rec["deals"][0]["hands"]) == 4 and rec["rules"]["players"] == 4
        phases = {a["phase"] for a in rec["actions"]}
        assert "opening" in phases and "doubling" not in phases
        again = Game.from_record(rec)
        assert again.result == g.result and again.to_record() == g.to_record()
    with pytest.raises(ddz.RecordError):
        bad = dict(rec, rules=dict(rec["rules"], players=3))
        Game.from_record(bad)


def test_bots_and_results_are_consistent():
    opened = False
    for seed in range(60):
        g = _play_out(FOUR, seed, [GreedyBot(), RandomBot(seed), GreedyBot(), RandomBot(seed + 1)])
        r = g.result
        assert r.void is None and sum(r.scores) == 0 and len(r.scores) == 4
        product = r.base
        for k, v in r.breakdown.items():
            if k != "bid":
                product *= v
        assert product == r.score
        opened |= r.open_play
    assert opened
    with pytest.raises(DdzError, match="4 bots"):
        play_hand(Game(FOUR, seed=1), [RandomBot(1)] * 3)


@pytest.mark.parametrize("rule", ["all", "beating", "six_plus"])
@pytest.mark.parametrize("seats", [3, 4])
def test_doubling_bombs_counted_alike_by_both_play_states(rule, seats):
    rules = Rules(doubling_bombs=rule) if seats == 3 else Rules.four_player(doubling_bombs=rule)
    t = table(rules)
    rng = np.random.default_rng(seats + len(rule))
    cards = np.repeat(np.arange(15), deck_counts(rules.decks))
    counted = 0
    for game in range(25):
        deck = rng.permutation(cards)
        size = rules.hand_size
        hands = [np.bincount(deck[i * size:(i + 1) * size], minlength=15) for i in range(seats)]
        c = play_state(t, hands, 0, doubling_bombs=rule)
        p = PyPlayState(t, hands, 0, doubling_bombs=rule)
        bombs_played = leading = big = 0
        while c.current >= 0:
            ids = c.legal_ids()
            heavy = [i for i in ids.tolist() if t.plays[i].type in (ddz.PlayType.BOMB, ddz.PlayType.ROCKET)]
            pid = heavy[0] if heavy and rng.random() < 0.7 else int(rng.choice(ids))
            play = t.plays[pid]
            if play.type in (ddz.PlayType.BOMB, ddz.PlayType.ROCKET):
                bombs_played += 1
                leading += c.to_beat == 0
                big += play.type is ddz.PlayType.ROCKET or play.num_cards >= 6
            c.step(pid)
            p.step(pid)
            assert (c.bombs, c.rockets) == (p.bombs, p.rockets)
        want = {"all": bombs_played, "beating": bombs_played - leading, "six_plus": big}[rule]
        assert c.bombs + c.rockets == want
        counted += want
        while len(c):
            c.pop()
            p.pop()
            assert (c.bombs, c.rockets) == (p.bombs, p.rockets)
        assert c.bombs == c.rockets == 0
    assert counted > 0 or rule == "six_plus"     # 6-card bombs are rare in random deals: see below


@pytest.mark.parametrize("make", [play_state, PyPlayState])
def test_doubling_bombs_by_hand(make):
    """RULES.md §6: "beating" counts a bomb played on another play, not one that leads;
    "six_plus" counts the rocket and bombs of six or more cards."""
    t = table(FOUR)
    idx = t.index_of_play
    hands = [ddz.parse_cards("3333334", decks=2), ddz.parse_cards("55556", decks=2),
             ddz.parse_cards("BBRR7", decks=2), ddz.parse_cards("8", decks=2)]
    plays = ["333333", "pass", "BBRR", "pass", "pass", "pass", "7"]    # seat 2 goes out
    want = {"all": (1, 1), "beating": (0, 1), "six_plus": (1, 1)}
    for rule, (bombs, rockets) in want.items():
        ps = make(t, hands, 0, doubling_bombs=rule)
        for text in plays:
            assert ps.step(0 if text == "pass" else idx[ddz.Play.parse(text, FOUR)]), (rule, text)
        assert (ps.bombs, ps.rockets) == (bombs, rockets), rule
    ps = make(t, hands, 1, doubling_bombs="six_plus")
    ps.step(idx[ddz.Play.parse("5555", FOUR)])            # a four-card bomb: no doubling
    assert ps.bombs == 0
    with pytest.raises(ValueError):
        make(t, hands, 0, doubling_bombs="some")


def test_doubling_bombs_in_a_game_result():
    """A bomb that leads a trick doubles under "all" and not under "beating"."""
    checked = 0
    for seed in range(40):
        for rule in ("all", "beating"):
            g = Game(Rules(doubling_bombs=rule), seed=seed, first_bidder=0)
            g.step(3)
            bomb = next((p for p in g.legal_actions() if p.type is ddz.PlayType.BOMB), None)
            if bomb is None:
                break
            g.step(bomb)
            assert g.multiplier == (2 if rule == "all" else 1)
            checked += 1
    assert checked >= 4


def test_cli_four_players(run_cli, tmp_path):
    out = tmp_path / "four.jsonl"
    code, text, err = run_cli("selfplay", "--players", "4", "--games", "40", "--seed", "3", "--out", str(out))
    assert code == 0 and "mean score seat 3" in text
    lines = out.read_text().splitlines()
    assert len(lines) == 40 and all(json.loads(line)["rules"]["players"] == 4 for line in lines)
    code, text, err = run_cli("replay", str(out))
    assert code == 0 and "40 (40 played out" in text and "seat 3" in text
    code, text, err = run_cli("moves", "--players", "4", "--count", "33333BBRR")
    assert code == 0 and int(text.split()[-1]) == ddz.count_legal_moves("33333BBRR", None, FOUR)
    code, text, err = run_cli("selfplay", "--players", "4", "--bots", "greedy,random,random", "--games", "1")
    assert code == 2 and "4 players" in err
    code, text, err = run_cli("perft", "--players", "4", "--seed", "3", "--depth", "2")
    assert code == 0 and "perft(2) =" in text


def test_cli_refuses_a_fourth_seat_in_the_three_player_game(run_cli):
    code, text, err = run_cli("play", "--seat", "3")
    assert code == 2 and "no seat of a 3-player game" in err


def test_players_must_be_an_int():
    import numpy as np
    for bad in (3.0, 4.0, np.float64(4), "4", True, None):
        with pytest.raises(DdzError, match="players"):
            Rules(players=bad)
    r = Rules(players=np.int64(4))
    assert r.players == 4 and type(r.players) is int and r == FOUR
    json.dumps(_play_out(r, 1).to_record())
    g = Game(FOUR, seed=1)
    g.step(3)
    g.step(False)
    with pytest.raises(DdzError, match="depth"):
        ddz.perft(g, 2 ** 63)
