"""Game records (docs/records.md): round trips, replay checks, worked games built by hand."""

import copy
import json
import pathlib
import pickle

import pytest

import ddz
from ddz import Game, Phase, Play, RecordError, Rules
from ddz.search.bots import RandomBot, play_hand

from conftest import record

# RULES.md-style worked games, as records written by hand (seats 0, 1, 2; seat 0 is
# the first bidder and bids 3, so it is the landlord).

TRIOS_DEAL = ("333466889TJQKKK2B", "34567799TTJJQAAA2", "4455567789TJQKA22", "8QR")
PAIRS_DEAL = ("33456789TJQKA22BR", "33445566789TJKKAA", "778899TTJJQQQKA22", "456")


def test_worked_game_trios():
    # The landlord plays 3339, the next player passes, the third plays 5557, the landlord
    # KKKJ, the next AAA3; the other two pass; that player now leads any play (a single 4).
    actions = [(0, "3"), (0, "333+9"), (1, "pass"), (2, "555+7"), (0, "KKK+J"),
               (1, "AAA+3"), (2, "pass"), (0, "pass")]
    g = Game.from_record(record(TRIOS_DEAL, actions))
    assert g.phase is Phase.PLAYING and g.current_player == 1
    assert g.to_beat is None
    legal = g.legal_actions()
    assert ddz.PASS not in legal and Play.parse("4") in legal
    assert len(legal) > 10        # any play: singles, pairs, straights, ...
    g.step("4")
    assert g.to_beat == Play.parse("4") and g.current_player == 2
    assert g.cards_left == (20 - 8, 17 - 5, 17 - 4)
    # the same game written with plain card notation (no '+') replays identically
    plain = [(s, a.replace("+", "")) for s, a in actions]
    assert Game.from_record(record(TRIOS_DEAL, plain)).plays == g.plays[:-1]


def test_worked_game_straights_and_pairs():
    # Player 1 (landlord) plays 56789; player 2 789TJ; player 3 passes; player 1 passes;
    # player 2 leads a pair 44; player 3 QQ; player 1 22; both pass; player 1 leads.
    actions = [(0, "3"), (0, "56789"), (1, "789TJ"), (2, "pass"), (0, "pass"),
               (1, "44"), (2, "QQ"), (0, "22"), (1, "pass"), (2, "pass")]
    g = Game.from_record(record(PAIRS_DEAL, actions))
    assert g.current_player == 0 and g.to_beat is None
    assert ddz.PASS not in g.legal_actions()
    assert g.observation(2).plays[1] == (1, Play.parse("789TJ"))


def test_worked_game_illegal_step_named_by_index_and_seat():
    # after 56789, player 2 may not answer with a 6-card straight
    actions = [(0, "3"), (0, "56789"), (1, "6789TJ")]
    with pytest.raises(RecordError, match=r"action 2 \(seat 1"):
        Game.from_record(record(PAIRS_DEAL, actions))
    actions = [(0, "3"), (0, "56789"), (1, "pass"), (2, "pass"), (0, "pass")]
    with pytest.raises(RecordError, match=r"action 4 \(seat 0.*cannot pass"):
        Game.from_record(record(PAIRS_DEAL, actions))


def test_worked_game_spring_record_with_result():
    deal = ("3456789TJJJJKKKKB", "33344455566677788", "8999TTTQQQAAA2222", "QAR")
    actions = [(0, "3")]
    for play in ("3456789T", "Q", "A", "JJJJ", "KKKK"):
        actions += [(0, play), (1, "pass"), (2, "pass")]
    actions.append((0, "BR"))
    g = Game.from_record(record(deal, actions))
    assert g.result.scores == (96, -48, -48) and g.result.spring
    rec = g.to_record()
    assert rec["result"]["score"] == 48 and rec["result"]["multiplier"] == 16
    # a record whose stated result is wrong is rejected
    bad = record(deal, actions, result=dict(rec["result"], scores=[48, -24, -24]))
    with pytest.raises(RecordError, match="result"):
        Game.from_record(bad)


def play_out(rules, seed, legacy=False):
    """A hand played out by random bots; ``legacy``: dealt as ddz dealt before records of
    version 5 (``random.Random``), so that its record is a true version 4 (or older) one."""
    g = Game(rules, seed=seed, _legacy=legacy)
    return play_hand(g, [RandomBot(seed), RandomBot(seed + 1), RandomBot(seed + 2)])


ALL_RULES = [ddz.STANDARD, Rules(kickers="repeat"), Rules(bidding="rob"),
             Rules(doubling=True, bottom_bonus=True), Rules(bidding="rob", doubling=True)]


@pytest.mark.parametrize("rules", [ALL_RULES[0], ALL_RULES[4]], ids=str)
def test_record_round_trip(rules):
    # two rule sets: the golden files (tests/game/test_golden.py) freeze the records of
    # 500 hands over seven more
    for seed in range(10):
        g = play_out(rules, seed)
        rec = g.to_record()
        text = json.dumps(rec)
        again = Game.from_record(json.loads(text))
        assert again.to_record() == rec
        assert again.result == g.result and again.deals == g.deals


def test_record_format_fields():
    g = play_out(Rules(bidding="rob", doubling=True), 5)
    rec = g.to_record()
    assert rec["format"] == "ddz-record" and rec["version"] == 5
    assert rec["rules"] == {"kickers": "distinct", "banned": [], "bidding": "rob", "doubling": True,
                            "bottom_bonus": False, "players": 3, "straights": True, "doubling_bombs": "all",
                            "all_pass": "redeal", "max_redeals": 10, "first_bidder": "random",
                            "bid_rounds": "once", "wings": "standard",
                            "four_with_two": True, "airplane_rank": "chain", "beat_reading": "play",
                            "chain_from_four": True, "bomb_on_rocket": False}
    assert rec["seed"] == 5 and rec["dealt_from_seed"] is True
    deal = rec["deals"][0]
    assert len(deal["hands"]) == 3 and len(deal["bottom"].split()) == 3
    assert all(len(h.split()) == 17 for h in deal["hands"])   # suited cards
    phases = [a["phase"] for a in rec["actions"]]
    assert phases == sorted(phases, key=["bidding", "doubling", "playing"].index)
    words = {a["action"] for a in rec["actions"] if a["phase"] == "bidding"}
    assert words <= {"pass", "call", "rob"} and "call" in words
    assert {a["action"] for a in rec["actions"] if a["phase"] == "doubling"} <= {"pass", "double", "redouble"}


def test_unfinished_game_record():
    g = Game(seed=3)
    g.step(3)
    g.step(g.legal_actions()[0])
    rec = g.to_record()
    assert rec["result"] is None
    again = Game.from_record(rec)
    assert again.phase is Phase.PLAYING and again.plays == g.plays


def test_redeal_records_replay_with_and_without_the_seed():
    g = Game(seed=77)
    for _ in range(3):
        g.step(0)
    play_hand(g, [RandomBot(1), RandomBot(2), RandomBot(3)])
    rec = g.to_record()
    assert len(rec["deals"]) == 2
    assert Game.from_record(rec).result == g.result
    # a given deal: the redeal comes from the record, not from the generator
    given = dict(rec, dealt_from_seed=False, seed=123)
    assert Game.from_record(given).result == g.result
    # a seeded record whose deals the seed does not deal is rejected
    wrong = dict(rec, deals=[rec["deals"][0], Game(seed=1).deal.to_json()])
    with pytest.raises(RecordError, match="seed"):
        Game.from_record(wrong)


def tampered(rec, index, **change):
    rec = copy.deepcopy(rec)
    rec["actions"][index].update(change)
    rec["result"] = None
    return rec


def test_replay_names_the_first_bad_action():
    g = play_out(ddz.STANDARD, 8)
    rec = g.to_record()
    plays = [i for i, a in enumerate(rec["actions"]) if a["phase"] == "playing"]
    i = plays[0]
    seat = rec["actions"][i]["seat"]
    with pytest.raises(RecordError, match=rf"action {i} \(seat {seat}.*pass"):
        Game.from_record(tampered(rec, i, action="pass"))   # the leader may not pass
    with pytest.raises(RecordError, match=rf"action {i}: recorded for seat {(seat + 1) % 3}"):
        Game.from_record(tampered(rec, i, seat=(seat + 1) % 3))
    with pytest.raises(RecordError, match=rf"action {i} \(seat {seat}.*does not hold"):
        hand = g.deal.hands[seat]
        missing = next(r for r in range(13) if not hand[r] and not g.deal.bottom[r])
        Game.from_record(tampered(rec, i, action=ddz.core.cards.RANK_CHARS[missing]))
    with pytest.raises(RecordError, match=rf"action {i} \(seat {seat}.*not a play"):
        Game.from_record(tampered(rec, i, action="3456"))
    with pytest.raises(RecordError, match=r"action 0 .*phase 'playing'"):
        Game.from_record(tampered(rec, 0, phase="playing"))
    extra = copy.deepcopy(rec)
    extra["actions"].append({"seat": 0, "action": "pass"})
    with pytest.raises(RecordError, match=rf"action {len(rec['actions'])} .*after the hand is over"):
        Game.from_record(extra)


@pytest.mark.parametrize("mutate, match", [
    (lambda r: r.update(format="other"), "not a ddz-record"),
    (lambda r: r.update(version=6), "version"),
    (lambda r: r.update(version=0), "version"),
    (lambda r: r.pop("deals"), "lacks"),
    (lambda r: r.update(rules={"kickers": "many"}), "rules"),
    (lambda r: r.update(rules={"colour": "red"}), "rules"),
    (lambda r: r.update(deals=[]), "no deals"),
    (lambda r: r.update(deals=[{"hands": ["3", "4", "5"], "bottom": "6"}], dealt_from_seed=False), "header"),
    (lambda r: r.update(actions="3 pass"), "list"),
    (lambda r: r["actions"].__setitem__(0, "3"), "action 0"),
    (lambda r: r["actions"].__setitem__(0, {"seat": 0, "action": [3]}), "action 0"),
    (lambda r: r.update(dealt_from_seed="yes"), "dealt_from_seed"),
])
def test_malformed_records(mutate, match):
    g = Game(seed=1)
    g.step(3)
    rec = g.to_record()
    mutate(rec)
    with pytest.raises(RecordError, match=match):
        Game.from_record(rec)


def test_record_must_be_a_mapping():
    with pytest.raises(RecordError):
        Game.from_record("{}")
    assert issubclass(RecordError, ddz.DdzError)


def test_self_play_records_replay_cleanly():
    """A few hundred hands under every rule set, each record replayed and checked."""
    n = 0
    for rules in ALL_RULES:
        for seed in range(60):
            g = play_out(rules, 1000 + seed)
            rec = json.loads(json.dumps(g.to_record()))
            assert Game.from_record(rec).to_record() == rec
            assert sum(g.result.scores) == 0
            n += 1
    assert n == 300


# -- fixes from the tester's report ------------------------------------------------------

def _header_record():
    g = Game(seed=1, first_bidder=0)
    g.step(3)
    return g.to_record()


@pytest.mark.parametrize("field, value, match", [
    ("version", True, "version True"),
    ("version", 1.0, "version 1.0"),
    ("first_bidder", 0.0, "first_bidder"),
    ("first_bidder", True, "first_bidder"),
    ("first_bidder", None, "first_bidder must be a seat 0..2, got None"),
    ("first_bidder", 3, "first_bidder must be a seat 0..2, got 3"),
    ("first_bidder", -1, "first_bidder must be a seat"),
    ("seed", 1.0, "seed"),
    ("seed", True, "seed"),
])
def test_record_header_ints_must_be_ints(field, value, match):
    rec = _header_record()
    rec[field] = value
    with pytest.raises(RecordError, match=match):
        Game.from_record(rec)


def test_record_seat_and_action_must_not_be_bools():
    rec = _header_record()
    rec["first_bidder"] = 1
    rec["actions"][0]["seat"] = True
    with pytest.raises(RecordError, match=r"action 0: 'seat' must be an int .*bool: True"):
        Game.from_record(rec)
    rec = _header_record()
    rec["actions"][0]["seat"] = 0.0
    with pytest.raises(RecordError, match=r"action 0: 'seat' must be an int"):
        Game.from_record(rec)
    rec = _header_record()
    rec["actions"][0]["action"] = True
    with pytest.raises(RecordError, match=r"action 0 \(seat 0\): 'action' must be action text"):
        Game.from_record(rec)


@pytest.mark.parametrize("rules, match", [
    ({}, r"lack field\(s\) \['kickers', 'bidding', 'doubling', 'bottom_bonus'\]"),
    ({"kickers": "distinct", "bidding": "points", "doubling": False}, r"lack field\(s\) \['bottom_bonus'\]"),
    ({"kickers": "distinct", "bidding": "points", "doubling": False, "bottom_bonus": False, "foo": 1},
     r"unknown field\(s\) \['foo'\]"),
    ("standard", "must be a JSON object"),
])
def test_record_rules_hold_exactly_every_field(rules, match):
    rec = _header_record()
    rec["version"] = 1  # version 1 records have no "banned" (it takes its default)
    rec["rules"] = rules
    with pytest.raises(RecordError, match=match):
        Game.from_record(rec)


def test_record_with_unsuited_redeal_and_bottom_bonus_is_rejected_up_front():
    g = Game(seed=1, first_bidder=0)
    for _ in range(3):
        g.step(0)
    rec = g.to_record()
    suited = [d for d in rec["deals"]]
    rec["dealt_from_seed"] = False
    rec["rules"]["bottom_bonus"] = True
    Game.from_record(rec)  # suited deals: fine
    unsuited = ddz.game.Deal.parse(suited[1])
    rec["deals"][1] = {"hands": [ddz.format_cards(h) for h in unsuited.hands],
                       "bottom": ddz.format_cards(unsuited.bottom)}
    with pytest.raises(RecordError, match="deal 1: .*suits"):
        Game.from_record(rec)


@pytest.mark.parametrize("rules, match", [
    ({"kickers": "distinct", "bidding": "points", "doubling": False, "bottom_bonus": False},
     r"lack field\(s\) \['banned'\]"),
    ({"kickers": "distinct", "banned": "TRIO_PAIR", "bidding": "points", "doubling": False,
      "bottom_bonus": False}, "list of distinct play type names"),
    ({"kickers": "distinct", "banned": [13], "bidding": "points", "doubling": False,
      "bottom_bonus": False}, "list of distinct play type names"),
    ({"kickers": "distinct", "banned": ["bomb"], "bidding": "points", "doubling": False,
      "bottom_bonus": False}, "list of distinct play type names"),
    ({"kickers": "distinct", "banned": ["BOMB", "BOMB"], "bidding": "points", "doubling": False,
      "bottom_bonus": False}, "list of distinct play type names"),
    ({"kickers": "distinct", "banned": ["SINGLE"], "bidding": "points", "doubling": False,
      "bottom_bonus": False}, "cannot hold SINGLE"),
])
def test_version_2_records_hold_banned(rules, match):
    rec = _header_record()
    rec["version"] = 2
    rec["rules"] = rules
    with pytest.raises(RecordError, match=match):
        Game.from_record(rec)


def test_version_1_records_still_replay_and_banned_round_trips():
    rec = play_out(Rules(), 3, legacy=True).to_record()
    old = dict(rec, version=1, rules={k: v for k, v in rec["rules"].items()
                                      if k not in ddz.game.records._RULES_ADDED[1]},
               result={k: v for k, v in rec["result"].items() if k not in ("void", "open_play")})
    assert Game.from_record(old).result == Game.from_record(rec).result
    banned = Rules(banned={"TRIO_PAIR", "FOUR_TWO_SINGLES"})
    g = play_out(banned, 4)
    again = Game.from_record(json.loads(json.dumps(g.to_record())))
    assert again.rules == banned and again.to_record() == g.to_record()
    assert g.to_record()["rules"]["banned"] == ["FOUR_TWO_SINGLES", "TRIO_PAIR"]


def test_version_1_record_with_banned_and_a_null_seed_are_refused():
    rec = play_out(Rules(), 2).to_record()
    old = dict(rec, version=1, rules={k: v for k, v in rec["rules"].items()
                                      if k not in ddz.game.records._RULES_ADDED[2]})  # still holds "banned": []
    with pytest.raises(RecordError, match=r"version 1 record has no field\(s\) \['banned'\]"):
        Game.from_record(old)
    with pytest.raises(RecordError, match="seed must be an integer"):
        Game.from_record(dict(rec, seed=None))


def test_version_3_records_still_replay_without_the_version_4_fields():
    """Version 4 added ``beat_reading``, ``chain_from_four`` and ``bomb_on_rocket``
    (RULES.md §2.5): a version 3 record lacks them and replays with their defaults; a
    version 3 record that holds one is refused."""
    rec = play_out(Rules(kickers="repeat", wings="trios"), 6, legacy=True).to_record()
    assert set(ddz.game.records._RULES_ADDED[3]) == {"beat_reading", "chain_from_four", "bomb_on_rocket"}
    old = dict(rec, version=3, rules={k: v for k, v in rec["rules"].items() if k not in ddz.game.records._RULES_ADDED[3]})
    again = Game.from_record(json.loads(json.dumps(old)))
    assert again.rules == Rules(kickers="repeat", wings="trios") and again.result == Game.from_record(rec).result
    old["rules"]["bomb_on_rocket"] = False
    with pytest.raises(RecordError, match=r"version 3 record has no field\(s\) \['bomb_on_rocket'\]"):
        Game.from_record(old)
    # a version 4 record of a profile round-trips its new fields
    g = play_out(Rules.profile("openspiel", first_bidder="random", all_pass="redeal"), 7)
    again = Game.from_record(json.loads(json.dumps(g.to_record())))
    assert again.rules == g.rules and again.to_record() == g.to_record()


def test_a_given_face_up_card_decides_the_first_bidder_and_replays():
    rules = Rules.profile("openspiel")
    g0 = Game(rules, seed=9)
    hands = [ddz.format_cards(h) for h in g0.deal.hands] + [ddz.format_cards(g0.deal.bottom)]
    card = ddz.format_cards(g0.deal.hands[2])[0]
    g = Game(rules, seed=9, deal=hands, face_up=(2, card))
    assert g.face_up == (2, card) and g.first_bidder == g.current_player == 2
    g = play_hand(g, [RandomBot(1), RandomBot(2), RandomBot(3)])
    again = Game.from_record(json.loads(json.dumps(g.to_record())))
    assert again.face_up == (2, card) and again.result == g.result
    with pytest.raises(ddz.DdzError, match="not in seat 1's dealt hand"):
        Game(rules, deal=hands, face_up=(1, "X"))
    with pytest.raises(ddz.DdzError, match="not both"):
        Game(rules, deal=hands, face_up=(2, card), first_bidder=2)
    with pytest.raises(ddz.DdzError, match="only Rules\\(first_bidder='face_up'\\)"):
        Game(Rules(), deal=hands, face_up=(2, card))
    with pytest.raises(ddz.DdzError, match="pair"):
        Game(rules, deal=hands, face_up=2)


# -- issue 24: one rule for unknown fields (docs/records.md), and copied deals -----------

@pytest.mark.parametrize("where", ["top", "rules", "action", "result", "face_up", "deal"])
def test_an_unknown_field_anywhere_in_a_record_is_named(where):
    g = play_out(Rules(first_bidder="face_up"), 5)
    rec = json.loads(json.dumps(g.to_record()))
    target = {"top": rec, "rules": rec["rules"], "action": rec["actions"][1], "result": rec["result"],
              "face_up": rec["face_up"], "deal": rec["deals"][0]}[where]
    target["comment"] = "hello"
    with pytest.raises(RecordError, match=r"unknown field|exactly the keys") as err:
        Game.from_record(rec)
    assert "comment" in str(err.value) and "differs" not in str(err.value)
    del target["comment"]
    assert Game.from_record(rec).result == g.result


def test_a_recorded_result_that_is_not_an_object_is_named():
    rec = play_out(Rules(), 2).to_record()
    for bad in (5, "landlord", [1]):
        rec["result"] = bad
        with pytest.raises(RecordError, match="result must be an object or null"):
            Game.from_record(rec)


def test_version_3_results_without_open_play_still_replay():
    rec = play_out(Rules(), 6, legacy=True).to_record()
    del rec["result"]["open_play"]       # version 3 records written before the four-player game
    rec["version"] = 3
    rec["rules"] = {k: v for k, v in rec["rules"].items() if k not in ddz.game.records._RULES_ADDED[3]}
    assert Game.from_record(rec).result is not None
    rec["version"] = 4
    rec["rules"] = play_out(Rules(), 6, legacy=True).to_record()["rules"]
    with pytest.raises(RecordError, match="differs"):
        Game.from_record(rec)


OLD_RECORDS = json.loads((pathlib.Path(__file__).parent.parent / "data" / "records_v4.json").read_text())


@pytest.mark.parametrize("k", range(len(OLD_RECORDS["hands"])))
def test_records_written_before_the_deal_stream_replay_and_stay_version_4(k):
    """tests/data/records_v4.json holds hands written by ddz before records of version 5
    (seeded deals of random.Random): standard, face-up with the bottom bonus, rob with
    doubling, four players, a redeal. Each replays, checked against its seed's legacy deal,
    and is written back unchanged; the same seed deals otherwise now."""
    rec = OLD_RECORDS["hands"][k]
    assert rec["version"] == 4 and rec["dealt_from_seed"] is True
    g = Game.from_record(json.loads(json.dumps(rec)))
    assert g.to_record() == rec
    assert g.clone().to_record() == rec and pickle.loads(pickle.dumps(g)).to_record() == rec
    assert Game(g.rules, seed=rec["seed"]).deal != g.deals[0]
    moved = dict(rec, seed=rec["seed"] + 1)
    with pytest.raises(RecordError, match="not what seed"):
        Game.from_record(moved)
    as_new = dict(rec, version=5)        # the same deals claimed as the deal stream's
    with pytest.raises(RecordError, match="deals with the deal stream of a version 5 record|not what seed .* turns"):
        Game.from_record(as_new)
    as_old = dict(Game(g.rules, seed=rec["seed"]).to_record(), version=4)      # and the other way round
    with pytest.raises(RecordError, match="random.Random, as in a record of version 4|not what seed .* turns"):
        Game.from_record(as_old)


def test_a_replayed_old_hand_redeals_from_its_own_generator():
    """A hand of an old record replayed to a pass-out redeals as the old version did."""
    rec = next(r for r in OLD_RECORDS["hands"] if len(r["deals"]) > 1)
    g = Game(Rules.from_json(rec["rules"]), seed=rec["seed"], _legacy=True)
    for _ in range(3):
        g.step(0)
    assert [d.to_json() for d in g.deals] == rec["deals"][:2]


@pytest.mark.parametrize("copies", [12, 100_000])
def test_copied_deals_are_refused_before_they_are_parsed(copies):
    rec = play_out(Rules(), 3).to_record()
    rec["deals"] = rec["deals"] * copies
    with pytest.raises(RecordError, match=f"has {copies} deals; its rules allow at most 11"):
        Game.from_record(rec)
    rec["rules"]["all_pass"] = "void"
    with pytest.raises(RecordError, match="allow at most 1 in a hand"):
        Game.from_record(rec)


def test_a_hand_of_every_allowed_redeal_still_replays():
    from test_game_void import AlwaysPass
    g = play_hand(Game(Rules(max_redeals=2), seed=11), [AlwaysPass()] * 3)
    rec = json.loads(json.dumps(g.to_record()))
    assert len(rec["deals"]) == 3 and Game.from_record(rec).result.void


def test_meta_is_the_one_field_for_a_tools_notes():
    """docs/records.md: ``meta`` (an object) is kept out of replay; anything else there, or
    any other unknown field, is refused."""
    import ddz
    game = ddz.Game(seed=3)
    ddz.search.bots.play_hand(game, [ddz.GreedyBot(), ddz.GreedyBot(), ddz.GreedyBot()])
    rec = game.to_record()
    assert "meta" not in rec
    rec["meta"] = {"arena": {"deal": 1}, "anything": [1, 2]}
    assert ddz.Game.from_record(rec).result == game.result
    for bad in ([1], "x", None):
        rec["meta"] = bad
        with pytest.raises(ddz.RecordError, match="meta"):
            ddz.Game.from_record(rec)


def test_what_a_game_was_given_and_how_it_ended_is_read_only():
    """Issue 42: ``seed``, ``rules``, ``landlord``... are properties (``g.seed = 3`` raises;
    ``result`` stays a plain attribute, read at every decision of RL loops); a game pickled
    before, with them in its ``__dict__``, still unpickles."""
    import ddz
    g = ddz.Game(seed=3)
    for name in ("seed", "rules", "seats", "landlord", "first_bidder"):
        with pytest.raises(AttributeError):
            setattr(g, name, 5)
    old = {(k[1:] if k[1:] in ("seed", "rules", "seats", "landlord", "first_bidder") else k): v
           for k, v in g.__getstate__().items()}
    assert "seed" in old and "_seed" not in old
    h = ddz.Game.__new__(ddz.Game)
    h.__setstate__(old)
    assert (h.seed, h.first_bidder, h.to_record()) == (3, g.first_bidder, g.to_record())
