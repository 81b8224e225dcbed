"""ddz.interop against the real DouZero, RLCard and OpenSpiel packages (each skipped
cleanly when absent; rlcard is in the test extra, douzero and open_spiel are optional)."""

import os

import numpy as np
import pytest

import ddz
from ddz import interop
from ddz.game.actions import ActionSpace, encode_cards
from conftest import RLCardPlayer, deals

REPEAT = ddz.REPEAT_KICKERS


# -- pure conversions (no other package needed) ------------------------------------------

def test_douzero_round_trip_hands_and_plays():
    assert interop.to_douzero("3TJQKA2BR") == [3, 10, 11, 12, 13, 14, 17, 20, 30]
    assert interop.to_douzero(ddz.PASS) == [] and interop.douzero_play([]) == ddz.PASS
    for hand, _, _ in deals(20, seed=0):
        cards = interop.to_douzero(hand)
        assert cards == sorted(cards) and len(cards) == hand.sum()
        assert interop.douzero_counts(cards).tolist() == hand.tolist()
    for play in ActionSpace(REPEAT):
        assert interop.douzero_play(interop.to_douzero(play)) == play


def test_rlcard_strings_round_trip():
    assert interop.to_rlcard("333444+56") == "33344456" and interop.to_rlcard(ddz.PASS) == "pass"
    for play in ActionSpace(REPEAT):
        assert interop.rlcard_play(interop.to_rlcard(play)) == play
    assert interop.rlcard_counts("33BR").tolist() == ddz.parse_cards("33BR").tolist()


def test_openspiel_round_trip_and_errors():
    for rules in (ddz.STANDARD, REPEAT):
        n = 0
        for play in ActionSpace(rules):
            if play.type in (ddz.PlayType.FOUR_TWO_SINGLES, ddz.PlayType.FOUR_TWO_PAIRS):
                with pytest.raises(interop.NotExpressibleError, match="four-with-two"):
                    interop.to_openspiel(play, rules)
                continue
            a = interop.to_openspiel(play, rules)
            assert 0 <= a < interop.OPENSPIEL_NUM_ACTIONS and a not in (1, 2, 3)
            assert interop.openspiel_play(a, rules) == play
            n += 1
        assert n == len(ActionSpace(rules)) - sum(
            p.type in (ddz.PlayType.FOUR_TWO_SINGLES, ddz.PlayType.FOUR_TWO_PAIRS) for p in ActionSpace(rules))
    with pytest.raises(interop.NotExpressibleError, match="bid"):
        interop.openspiel_play(2)
    with pytest.raises(interop.NotExpressibleError):
        interop.openspiel_play(interop.OPENSPIEL_NUM_ACTIONS)
    assert interop.openspiel_play(0) == ddz.PASS and interop.to_openspiel("pass") == 0


def test_bad_input_errors():
    assert issubclass(interop.NotExpressibleError, ddz.DdzError)
    with pytest.raises(ddz.NotationError, match="DouZero"):
        interop.douzero_counts([3, 15])
    with pytest.raises(ddz.ImpossibleHandError):
        interop.douzero_counts([3] * 5)
    with pytest.raises(ddz.InvalidPlayError):
        interop.douzero_play([3, 4])
    with pytest.raises(ddz.NotationError, match="RLCard"):
        interop.rlcard_counts("33X")
    with pytest.raises(ddz.InvalidPlayError):
        interop.rlcard_play("33344455", ddz.STANDARD)
    with pytest.raises(ddz.InvalidPlayError):
        interop.to_openspiel("33334444")
    with pytest.raises(interop.NotExpressibleError, match="not a play under"):
        interop.openspiel_play(interop.to_openspiel("333444+55", REPEAT), ddz.STANDARD)


# -- against the real packages --------------------------------------------------------------

def test_rlcard_action_table_and_id_map():
    utils = pytest.importorskip("rlcard.games.doudizhu.utils")
    space = ActionSpace(REPEAT)
    to_rl, from_rl = interop.rlcard_id_map(space)
    assert len(utils.ID_2_ACTION) == len(space) == 27472
    assert sorted(to_rl.tolist()) == list(range(27472))
    assert np.array_equal(from_rl[to_rl], np.arange(27472))
    for i, play in enumerate(space):
        assert utils.ID_2_ACTION[to_rl[i]] == interop.to_rlcard(play)
    to_d, from_d = interop.rlcard_id_map(ddz.STANDARD)
    assert (to_d >= 0).all() and (from_d >= 0).sum() == 12655
    assert from_d[utils.ACTION_2_ID["33344455"]] == -1


def test_legal_moves_match_rlcard():
    pytest.importorskip("rlcard")
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards

    space = ActionSpace(REPEAT)
    for hand, other, rng in deals(25, seed=1):
        ours = {interop.to_rlcard(space.play(i)) for i in space.legal_ids(hand)}
        assert ours == set(DoudizhuJudger.playable_cards_from_hand(ddz.format_cards(hand)))
        tb = int(rng.choice(space.legal_ids(other)))
        ours = {interop.to_rlcard(space.play(i)) for i in space.legal_ids(hand, tb)}
        theirs = get_gt_cards(RLCardPlayer(hand), RLCardPlayer(other, interop.to_rlcard(space.play(tb))))
        assert ours == set(theirs)


def test_encode_cards_matches_douzero():
    env = pytest.importorskip("douzero.env.env")
    for hand, _, _ in deals(30, seed=2):
        theirs = env._cards2array(interop.to_douzero(hand))
        assert np.array_equal(encode_cards(hand), theirs.astype(np.uint8))
    assert np.array_equal(encode_cards(np.zeros(15, np.uint8)), env._cards2array([]))


def test_leads_match_douzero_except_joker_pair_kickers():
    gen = pytest.importorskip("douzero.env.move_generator")
    space = ActionSpace(REPEAT)
    for hand, _, _ in deals(25, seed=3):
        ours = {tuple(interop.to_douzero(space.play(i))) for i in space.legal_ids(hand)}
        theirs = {tuple(sorted(m)) for m in gen.MovesGener(interop.to_douzero(hand)).gen_moves()}
        # DouZero lets both jokers be kickers (3333+BR, 333444+BR); RULES.md §2.1 rule 2 does not.
        theirs = {m for m in theirs if not (20 in m and 30 in m and len(m) > 2)}
        assert ours == theirs


def _openspiel_string(play):
    """OpenSpiel's action_to_string of a play."""
    name = {"B": "(BWJ)", "R": "(CJ)"}
    if play.type in (ddz.PlayType.AIRPLANE_SINGLES, ddz.PlayType.AIRPLANE_PAIRS):
        body, kick = str(play).split("+")
        text = body + "-" + kick
    else:
        text = ddz.format_cards(play.counts)
    return "".join(name.get(ch, ch) for ch in text)


def test_openspiel_action_strings():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("dou_dizhu")
    assert game.num_distinct_actions() == interop.OPENSPIEL_NUM_ACTIONS
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(3)  # bid 3
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    plays, _ = interop._openspiel_tables()
    for a, play in enumerate(plays, start=4):
        assert state.action_to_string(player, a) == _openspiel_string(play)
    assert state.action_to_string(player, 0) == "Pass"


@pytest.mark.parametrize("bad", [None, 1.5, object(), True])
def test_wrong_types_are_ddz_errors(bad):
    for f in (interop.douzero_counts, interop.douzero_play, interop.to_douzero, interop.to_rlcard,
              interop.rlcard_counts, interop.rlcard_play, interop.to_openspiel, interop.openspiel_play):
        with pytest.raises(ddz.DdzError):
            f(bad)
    with pytest.raises(ddz.HandError, match="DouZero card list must be a list of ints"):
        interop.douzero_play(bad)
    for f, arg in ((interop.douzero_play, [3]), (interop.to_rlcard, "3"), (interop.rlcard_play, "3"),
                   (interop.to_openspiel, "3"), (interop.openspiel_play, 4)):
        with pytest.raises(ddz.DdzError, match="rules must be a ddz.Rules"):
            f(arg, "standard")


def test_not_expressible_error_is_public_and_trio_wings_are_refused():
    assert "NotExpressibleError" in interop.__all__
    plays, index = interop._openspiel_tables()
    a = next(i for i, p in enumerate(plays, start=4) if str(p) == "333444555+666")
    with pytest.raises(interop.NotExpressibleError, match="trio next to the chain"):
        interop.openspiel_play(a, REPEAT)


# -- RLCard's own engine (moved here from the core cross-check: it needs rlcard) -----------

def _rlcard_action_space():
    import zipfile
    rlcard = pytest.importorskip("rlcard")
    path = os.path.join(os.path.dirname(rlcard.__file__), "games", "doudizhu", "jsondata.zip")
    with zipfile.ZipFile(path) as z:
        return z.read("jsondata/action_space.txt").decode().split()


@pytest.mark.parametrize("engine", ["reference", "active"])
def test_repeat_universe_is_rlcard_action_space(engine):
    actions = _rlcard_action_space()
    assert len(actions) == 27472 and "pass" in actions
    plays = (ddz.core.reference if engine == "reference" else ddz).all_plays(REPEAT)
    ours = [ddz.format_cards(p.counts) for p in plays]
    assert len(set(ours)) == len(ours) == 27471
    assert set(ours) == set(actions) - {"pass"}


def test_legal_moves_equal_rlcards_judger():
    pytest.importorskip("rlcard")
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards

    from conftest import deal, play_from
    rng = np.random.default_rng(17)
    for i in range(300):
        hand, rest = deal(rng, 17 if i % 2 else 20)
        text = ddz.format_cards(hand)
        ours = {ddz.format_cards(p.counts) for p in ddz.legal_moves(hand, None, REPEAT)}
        assert ours == DoudizhuJudger.playable_cards_from_hand(text), text
        beat = play_from(rng, rest, REPEAT)
        ours = [ddz.format_cards(p.counts) if p else "pass" for p in ddz.legal_moves(hand, beat, REPEAT)]
        theirs = get_gt_cards(RLCardPlayer(text), RLCardPlayer(played=ddz.format_cards(beat.counts)))
        assert sorted(ours) == sorted(theirs), (text, str(beat))


def test_openspiel_helpers_default_to_repeat_kickers():
    """OpenSpiel's single kickers may share a rank: its helpers default to its rules."""
    a = interop.to_openspiel("333444+55")            # a play only with kickers="repeat"
    assert interop.openspiel_play(a) == ddz.Play.parse("333444+55", REPEAT)
    assert interop.to_openspiel("333444+55") == interop.to_openspiel("333444+55", REPEAT)
    with pytest.raises(ddz.InvalidPlayError):
        interop.to_openspiel("333444+55", ddz.STANDARD)


# -- exact id maps of the profiles (issue 14) ---------------------------------------------

def test_openspiel_id_map_is_a_bijection_over_every_id():
    rules = ddz.Rules.profile("openspiel")
    assert interop.OPENSPIEL == rules
    space = ActionSpace(rules)
    to_os, from_os = interop.openspiel_id_map()
    assert to_os.dtype == from_os.dtype == np.int32 and not to_os.flags.writeable
    assert len(space) == 26054 and len(from_os) == interop.OPENSPIEL_NUM_ACTIONS
    assert from_os[[1, 2, 3]].tolist() == [-1, -1, -1]
    plays = [i for i in range(interop.OPENSPIEL_NUM_ACTIONS) if i not in (1, 2, 3)]
    assert sorted(to_os.tolist()) == plays                      # onto every play id, once
    assert np.array_equal(from_os[to_os], np.arange(len(space)))
    assert np.array_equal(to_os[from_os[plays]], np.array(plays))
    for i, play in enumerate(space):
        a = interop.to_openspiel(play)
        assert a == to_os[i] and interop.openspiel_play(a) == play
    # both readings of one card set are two actions and two plays
    a1, a2 = interop.to_openspiel("333444555+666"), interop.to_openspiel("444555666+333")
    assert a1 != a2 and interop.openspiel_play(a1).counts == interop.openspiel_play(a2).counts
    assert interop.openspiel_id_map(space)[0] is to_os


def test_openspiel_id_map_under_other_rules_marks_what_is_missing():
    to_r, from_r = interop.openspiel_id_map(REPEAT)
    space = ActionSpace(REPEAT)
    missing = [i for i in range(len(space)) if to_r[i] < 0]
    assert {space.play(i).type for i in missing} == {ddz.PlayType.FOUR_TWO_SINGLES, ddz.PlayType.FOUR_TWO_PAIRS}
    trio_wings = (from_r[4:] < 0).sum()
    assert trio_wings == 26053 - (len(space) - 1 - len(missing))     # OpenSpiel's plays REPEAT lacks


def test_douzero_card_lists_convert_one_to_one():
    rules = ddz.Rules.profile("douzero")
    table = interop.douzero_plays()
    assert len(table) == len({p.counts for p in ddz.all_plays(rules)}) == 29984
    for cards, play in table.items():
        assert tuple(interop.to_douzero(play)) == cards
        assert interop.douzero_play(list(cards)) == play
    for play in ddz.all_plays(rules):            # every play, each reading: back to its card set
        assert interop.douzero_play(interop.to_douzero(play)).counts == play.counts
    assert interop.douzero_play([3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6]) == ddz.Play.parse("333444555666", rules)
    assert interop.douzero_play([]) == ddz.PASS


def test_rlcard_id_map_defaults_to_the_profile():
    pytest.importorskip("rlcard")
    to_rl, from_rl = interop.rlcard_id_map()
    assert interop.RLCARD.move_rules == REPEAT.move_rules and to_rl is interop.rlcard_id_map(REPEAT)[0]
    assert sorted(to_rl.tolist()) == list(range(27472)) and np.array_equal(to_rl[from_rl], np.arange(27472))
