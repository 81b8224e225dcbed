"""``Rules.banned`` (禁手): a move option that costs one field, honoured by the reference,
the core, the action space, the game and the command line."""

import json

import numpy as np
import pytest

import ddz
from ddz import DdzError, IllegalActionError, InvalidPlayError, PlayType, Rules
from ddz.game.actions import ActionSpace
from ddz.core.tables import table

from conftest import CARDS, DECK

T = PlayType
BANNED_SETS = [
    Rules(banned={T.TRIO_PAIR, T.FOUR_TWO_SINGLES, T.FOUR_TWO_PAIRS}),
    Rules(kickers="repeat", banned={"BOMB", "AIRPLANE_SINGLES"}),
    Rules(banned={T.ROCKET, T.STRAIGHT, T.PAIR}),
]
IDS = ["trio-pair-fours", "repeat-bomb-wings", "rocket-straight-pair"]


def test_banned_is_normalised_and_validated():
    r = Rules(banned=["trio_pair", T.BOMB, int(T.ROCKET)])
    assert r.banned == frozenset({T.TRIO_PAIR, T.BOMB, T.ROCKET})
    assert all(type(t) is T for t in r.banned)
    assert r == Rules(banned={T.ROCKET, T.BOMB, T.TRIO_PAIR}) and hash(r) == hash(Rules(banned=r.banned))
    assert eval(repr(r), vars(ddz)) == r
    for bad, match in [({T.SINGLE}, "cannot hold SINGLE"), ({T.PASS}, "cannot hold PASS"),
                       ({"KICKER"}, "not a play type"), ("BOMB", "set of PlayType"), (5, "set of PlayType"),
                       ({True}, "not a play type"), ({99}, "not a play type")]:
        with pytest.raises(DdzError, match=match):
            Rules(banned=bad)


def test_banned_decides_moves_but_not_ids():
    r = Rules(banned={T.BOMB}, doubling=True)
    assert r.move_rules == Rules(banned={T.BOMB}) and r.move_rules is Rules(banned={"BOMB"}).move_rules
    assert r.universe_rules is ddz.STANDARD.move_rules
    assert [f.name for f in Rules.move_fields()] == ["kickers", "banned", "players", "straights", "wings",
                                                      "four_with_two", "airplane_rank", "beat_reading",
                                                      "chain_from_four", "bomb_on_rocket"]
    assert Rules(banned={T.BOMB}).move_options.allowed == (1 << 15) - 1 - (1 << T.BOMB)


@pytest.mark.parametrize("rules", BANNED_SETS, ids=IDS)
def test_all_plays_leave_out_banned_types(impl, rules):
    full = impl.all_plays(rules.universe_rules)
    got = impl.all_plays(rules)
    assert got == [p for p in full if p.type not in rules.banned]
    assert len(got) < len(full)
    for p in full:
        if p.type in rules.banned:
            with pytest.raises(InvalidPlayError):
                impl.classify(p.counts, rules)
            assert impl.readings(p.counts, rules) == []
            break


@pytest.mark.parametrize("rules", BANNED_SETS, ids=IDS)
def test_legal_moves_are_the_unbanned_ones_filtered(impl, rules):
    rng = np.random.default_rng(7)
    free = rules.universe_rules
    plays = impl.all_plays(free)
    for _ in range(150):
        hand = np.bincount(rng.permutation(CARDS)[:int(rng.integers(1, 21))], minlength=15).astype(np.uint8)
        beat = None
        if rng.random() < 0.6:
            for _ in range(20):
                cand = plays[int(rng.integers(len(plays)))]
                if cand.type not in rules.banned and np.all(hand + np.array(cand.counts) <= DECK):
                    beat = cand
                    break
        want = [m for m in impl.legal_moves(hand, beat, free) if m.type not in rules.banned]
        assert impl.legal_moves(hand, beat, rules) == want
        assert impl.count_legal_moves(hand, beat, rules) == len(want)


@pytest.mark.parametrize("rules", BANNED_SETS, ids=IDS)
def test_a_banned_play_cannot_be_the_play_to_beat(impl, rules):
    banned = next(p for p in impl.all_plays(rules.universe_rules) if p.type in rules.banned)
    with pytest.raises(InvalidPlayError):
        impl.legal_moves("3", banned, rules)
    with pytest.raises(InvalidPlayError):
        impl.beats(banned, banned, rules)


@pytest.mark.parametrize("rules", BANNED_SETS, ids=IDS)
def test_action_space_keeps_ids_and_never_allows_banned(rules):
    space, free = ActionSpace(rules), ActionSpace(rules.universe_rules)
    assert len(space) == len(free) and list(space) == list(free)
    banned_ids = np.array([i for i, p in enumerate(space) if p.type in rules.banned])
    assert banned_ids.size
    banned_play = space.play(int(banned_ids[0]))
    assert space.id(banned_play) == banned_ids[0] and space.id(str(banned_play)) == banned_ids[0]
    rng = np.random.default_rng(3)
    hands = np.stack([np.bincount(rng.permutation(CARDS)[:20], minlength=15) for _ in range(64)]).astype(np.uint8)
    tbs = np.zeros(64, np.int32)
    for impl_name in ["reference"] + ([] if ddz.game.actions.IMPLEMENTATION == "reference" else ["kernel"]):
        s = ActionSpace(rules, implementation=impl_name)
        masks = s.legal_masks(hands, tbs)
        assert masks.any(axis=1).all() and not masks[:, banned_ids].any()
        ids, off = s.legal_ids_batch(hands, tbs)
        assert not np.isin(ids, banned_ids).any()
        want = free.legal_masks(hands, tbs)
        want[:, banned_ids] = False
        assert np.array_equal(masks, want)
        one = s.legal_ids(hands[0])
        assert np.array_equal(one, np.flatnonzero(want[0]))
        with pytest.raises(InvalidPlayError, match="banned|not a play"):
            s.legal_masks(np.zeros((1, 15), np.uint8), np.array([banned_ids[0]], np.int32))
        with pytest.raises(InvalidPlayError):
            s.legal_ids("3", int(banned_ids[0]))


def test_tables_share_plays_and_ids_with_the_unbanned_rules():
    t, free = table(BANNED_SETS[1]), table(BANNED_SETS[1].universe_rules)
    assert t is not free and t.base is free and t.plays is free.plays and t.codes is free.codes
    assert table(Rules(kickers="repeat", banned={"BOMB", "AIRPLANE_SINGLES"}, doubling=True)) is t


@pytest.mark.parametrize("rules", BANNED_SETS, ids=IDS)
def test_game_never_offers_or_accepts_a_banned_play(rules):
    seen = 0
    for seed in range(6):
        game = ddz.Game(rules, seed=seed)
        rng = np.random.default_rng(seed)
        while game.result is None:
            legal = game.legal_actions()
            if game.phase is ddz.Phase.PLAYING:
                assert not any(isinstance(a, ddz.Play) and a.type in rules.banned for a in legal)
                ids = game.legal_action_ids()
                assert all(game.action_space.play(int(i)).type not in rules.banned for i in ids)
                hand = game.hand(game.current_player)
                for p in ddz.core.reference.legal_moves(hand, game.to_beat, rules.universe_rules):
                    if p.type in rules.banned:
                        before = game.to_record()
                        with pytest.raises((IllegalActionError, InvalidPlayError)):
                            game.step(p)
                        assert game.to_record() == before
                        seen += 1
                        break
            game.step(legal[int(rng.integers(len(legal)))])
    assert seen > 0


def test_cli_takes_banned(capsys):
    from ddz.cli import main
    assert main(["moves", "33355", "--banned", "trio_pair,BOMB", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    moves = out["moves"] if isinstance(out, dict) else out
    assert "333+55" not in json.dumps(moves) and "333+5" in json.dumps(moves)
    with pytest.raises(SystemExit):
        main(["moves", "33355", "--banned", "SINGLE"])


def test_errors_say_the_type_is_banned(impl):
    rules = Rules(banned={"TRIO_PAIR", "BOMB"})
    for cards in ("333+44", "33344", [3] + [2] + [0] * 13):
        with pytest.raises(InvalidPlayError, match="banned type TRIO_PAIR"):
            impl.classify(cards, rules)
    with pytest.raises(InvalidPlayError, match="banned type BOMB"):
        impl.legal_moves("3", "2222", rules)
    game = ddz.Game(rules, seed=1)
    while game.phase is not ddz.Phase.PLAYING:
        game.step(game.legal_actions()[-1])
    for action in ("3333", ddz.Play(T.BOMB, 0, 1)):
        with pytest.raises(InvalidPlayError, match="banned type BOMB"):
            game.step(action)


def test_banned_refuses_mappings_and_takes_numpy_integers():
    with pytest.raises(DdzError, match="set of PlayType"):
        Rules(banned={"BOMB": False})
    assert Rules(banned=[np.int64(5), np.uint8(13)]).banned == {T.TRIO_PAIR, T.BOMB}
