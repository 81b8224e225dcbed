"""Bad input gives the documented error class, from every implementation (DESIGN.md)."""

import numpy as np
import pytest

import ddz
from ddz import (DdzError, HandError, ImpossibleHandError, InvalidPlayError, NotationError,
                 Play, Rules)


def test_hierarchy():
    for cls in (NotationError, HandError, ImpossibleHandError, InvalidPlayError, ddz.NotInHandError):
        assert issubclass(cls, DdzError)
    assert issubclass(DdzError, ValueError)
    assert issubclass(ImpossibleHandError, HandError)


@pytest.mark.parametrize("hand, to_beat, err, text", [
    ("333334", None, ImpossibleHandError, "5 copies"),
    ("3X", None, NotationError, "'X'"),
    ("BJ", None, NotationError, "ambiguous"),
    ([1] * 14, None, HandError, "shape"),
    (np.ones((2, 15), dtype=np.uint8), None, HandError, "shape"),
    (np.array([0.5] * 15), None, HandError, "integer dtype"),
    (np.ones(15), None, HandError, "integer dtype"),
    ([-1] + [0] * 14, None, HandError, "negative"),
    ([9] + [0] * 14, None, ImpossibleHandError, "9 copies"),
    ([4] * 13 + [1, 1], None, ImpossibleHandError, "54 cards"),
    (None, None, HandError, "None"),
    ("2222", "33334444", InvalidPlayError, "33334444"),
    ("2222", "pass", InvalidPlayError, "pass"),
    ("2222", ddz.PASS, InvalidPlayError, "pass"),
    ("2222", "3X", NotationError, "3X"),
    ("2222", 33, InvalidPlayError, "33"),
    ("2222", "2", ImpossibleHandError, "together"),
    ("34", Play.parse("444455", Rules(kickers="repeat")), InvalidPlayError, "4444\\+55"),
])
def test_legal_moves_errors(impl, hand, to_beat, err, text):
    with pytest.raises(err, match=text):
        impl.legal_moves(hand, to_beat)
    with pytest.raises(err):
        impl.count_legal_moves(hand, to_beat)


@pytest.mark.parametrize("cards, err", [
    ("33334444", InvalidPlayError), ("", NotationError), ("3X", NotationError), ("33333", ImpossibleHandError),
    ([0] * 15, None), ([1] * 16, HandError),
])
def test_classify_errors(impl, cards, err):
    if err is None:
        assert impl.classify(cards) == ddz.PASS
        return
    with pytest.raises(err):
        impl.classify(cards)
    if err is not InvalidPlayError and cards != "":   # readings("") is [PASS]: a multiset
        with pytest.raises(err):
            impl.readings(cards)


@pytest.mark.parametrize("rules", ["repeat", None, {"kickers": "repeat"}])
def test_bad_rules_argument(impl, rules):
    with pytest.raises(DdzError, match="Rules"):
        impl.legal_moves("3", None, rules)


def test_bad_rules_values():
    with pytest.raises(DdzError, match="kickers"):
        Rules(kickers="many")


def test_input_not_modified(impl):
    hand = np.array([1] * 13 + [1, 1], dtype=np.uint8)
    hand[:5] = 2
    before = hand.copy()
    impl.legal_moves(hand)
    assert np.array_equal(hand, before)


def test_errors_leave_the_engine_working(impl):
    with pytest.raises(DdzError):
        impl.legal_moves("333334")
    assert impl.count_legal_moves("33344455") == 18


def test_boundary_errors_found_by_a_fresh_user():
    """Bad arguments that used to escape as AttributeError/TypeError or be taken silently."""
    import numpy as np

    import ddz
    for bad in ("repeat", 1, {"kickers": "repeat"}, None):
        if bad is not None:
            with pytest.raises(ddz.DdzError, match="rules must be a ddz.Rules"):
                ddz.Play.parse("333+4", bad)
        with pytest.raises(ddz.DdzError, match="rules must be a ddz.Rules"):
            ddz.core.tables.table(bad)
    for impl in (ddz.core.reference, ddz):
        with pytest.raises(ddz.HandError, match="bools"):
            impl.classify([True] + [0] * 14)
        with pytest.raises(ddz.HandError, match="bools"):
            impl.legal_moves([0] * 14 + [np.bool_(True)])


@pytest.mark.parametrize("decks", ["x", 0, 9, True, 2.0, None])
def test_parse_cards_checks_decks(decks):
    with pytest.raises(HandError, match="decks must be a whole number"):
        ddz.parse_cards("334", decks=decks)


def test_parse_cards_takes_numpy_deck_counts():
    assert ddz.parse_cards("3333 3333", decks=np.int64(2))[0] == 8


def test_unknown_rules_field_is_named():
    with pytest.raises(DdzError, match="no field 'bogus'.*kickers"):
        Rules(bogus=1)
    with pytest.raises(DdzError, match="no field 'nope'"):
        Rules.profile("rlcard", nope=2)
    with pytest.raises(DdzError, match="no field 'x'"):
        Rules.four_player(x=1)


def _playing(rules, seed=1):
    game = ddz.Game(rules, seed=seed)
    while game.phase is not ddz.Phase.PLAYING:
        game.step(game.legal_moves[-1])     # the highest bid ends the auction
    return game


def test_legal_moves_refuse_a_bool_index():
    moves = _playing(Rules()).legal_moves
    assert moves[1] == list(moves)[1]
    with pytest.raises(DdzError, match="not True"):
        moves[True]


def test_four_player_half_rocket_names_the_rules():
    game = _playing(Rules.four_player())
    with pytest.raises(InvalidPlayError, match=r"'BR' is not a play under Rules\(players=4\)"):
        game.step("BR")


# -- issue 24: errors that were not DdzErrors, and nonsense that was accepted ------------

def _raises(call, err=DdzError, match=None):
    with pytest.raises(err, match=match):
        call()


@pytest.mark.parametrize("bad", [None, 5, b"3S", ["3S"]])
def test_parse_suited_refuses_what_is_not_text(bad):
    _raises(lambda: ddz.core.cards.parse_suited(bad), NotationError, "must be a str")


def test_card_helpers_refuse_bad_arguments():
    from ddz.core.cards import Card, cards_to_counts, deck_counts, format_ranks, full_deck
    for decks in (None, 0, 9, True, 1.0, 2 ** 70):
        _raises(lambda: full_deck(decks), HandError, "decks")      # 2**70 decks used to hang
        _raises(lambda: deck_counts(decks), HandError, "decks")
    assert list(deck_counts(np.int64(2))) == [8] * 13 + [2, 2]
    for ranks in (None, "33", [0, 15], [-1], [True], [1.0]):
        _raises(lambda: format_ranks(ranks), HandError)            # [-1] was 'R'
    assert format_ranks((14, 0, 0)) == "33R"
    for suit in (4, -1, "S", 1.5, True, np.array([1, 2])):
        _raises(lambda: Card(0, suit), NotationError, "suit")
    _raises(lambda: Card(True, 0), NotationError, "rank")          # was the 4 of spades
    for cards in (None, "3S", [None], [3]):
        _raises(lambda: cards_to_counts(cards), HandError)
    _raises(lambda: cards_to_counts([Card(0, 0)] * 300), ddz.ImpossibleHandError)   # uint8 wrapped to 44
    assert cards_to_counts(iter([Card(0, 0), Card(14)]))[[0, 14]].tolist() == [1, 1]


def test_deal_arguments_are_checked():
    import random
    deck = ddz.core.cards.full_deck()
    random.Random(3).shuffle(deck)
    assert sum(map(sum, ddz.Deal.from_shuffle(deck).hands)) == 51
    for bad in (None, deck[:-1], deck[:-1] + deck[:1], [str(c) for c in deck], "3S"):
        _raises(lambda: ddz.Deal.from_shuffle(bad), ddz.DealError, "deck")
    for rules in (None, "four", 4):
        _raises(lambda: ddz.Deal.from_shuffle(deck, rules), DdzError, "rules must be a ddz.Rules")
        _raises(lambda: ddz.Deal.parse(ddz.Game(seed=1).deal.to_json(), rules), DdzError, "rules must be a ddz.Rules")


def test_douzero_reading_needs_readings_of_one_card_set():
    from ddz import interop
    readings = ddz.readings("333444555666", interop.DOUZERO)
    assert interop.douzero_reading(readings) == readings[0]
    for bad in ([], None, (), "333", [None], [Play.parse("3"), Play.parse("4")]):
        _raises(lambda: interop.douzero_reading(bad), InvalidPlayError, "non-empty list of plays")


@pytest.mark.parametrize("text", ["33333", "BB", "RR", "BBRR", "555+BB", "33333333"])
def test_four_player_plays_are_not_expressible_in_three_player_engines(text):
    from ddz import interop
    play = Play.parse(text, Rules.four_player())
    _raises(lambda: interop.to_douzero(play), interop.NotExpressibleError, "DouZero cannot express")
    _raises(lambda: interop.to_rlcard(play), interop.NotExpressibleError, "RLCard cannot express")
    _raises(lambda: interop.to_openspiel(play), InvalidPlayError)


def test_plays_of_other_wings_are_not_rlcard_actions():
    from ddz import interop
    for text in ("4444+BR", "333444+BR", "333444555+666"):     # DouZero's and OpenSpiel's wings
        play = Play.parse(text, interop.DOUZERO)
        if text == "333444555+666":      # its cards are RLCard's airplane 333444555666
            assert interop.to_rlcard(play) == "333444555666"
        else:
            _raises(lambda: interop.to_rlcard(play), interop.NotExpressibleError, "RLCard")
        assert interop.to_douzero(play)   # every one is a DouZero move
    assert interop.to_douzero("33334444") == [3] * 4 + [4] * 4   # a hand, not a play


def test_interop_refuses_the_four_player_rules():
    from ddz import interop
    four = Rules.four_player()
    calls = [lambda: interop.openspiel_id_map(four), lambda: interop.openspiel_id_map(ddz.ActionSpace(four)),
             lambda: interop.douzero_plays(four), lambda: interop.douzero_play([3], four),
             lambda: interop.to_rlcard("3", four), lambda: interop.rlcard_play("3", four),
             lambda: interop.rlcard_id_map(four), lambda: interop.to_openspiel("3", four),
             lambda: interop.openspiel_play(4, four)]
    for call in calls:
        _raises(call, DdzError, r"three-player one-deck game: Rules\(players=4\)")


def test_rlcard_play_refuses_what_is_not_text():
    from ddz import interop
    for bad in (np.array([1, 2]), None, 33):
        _raises(lambda: interop.rlcard_play(bad), NotationError, "must be a str")


def test_observation_helpers_check_their_arguments():
    from ddz.envs import core
    game = ddz.Game(seed=1)
    size = core.observation_size(Rules())
    for f in (core.encode_observation, core.encode_observation_py):
        for bad in (None, 0, "game", ddz.Match()):
            _raises(lambda: f(bad, 0), DdzError, "game must be a ddz.Game")
        _raises(lambda: f(game, None), DdzError, "seat")
        for out in (np.zeros(5, np.float32), np.zeros(size, np.float16), np.zeros(size, np.int8), [0.0] * size,
                    np.zeros((size, 1), np.float32), np.zeros(size, np.float32)[None]):
            _raises(lambda: f(game, 0, out), DdzError, "out must be a writeable float32")
        view = np.zeros(2 * size, np.float32)[::2]       # a strided view is filled (the reference's path)
        assert f(game, 0, view) is view and np.array_equal(view, core.encode_observation_py(game, 0))
    for f in (core.env_actions, core.observation_layout, core.observation_size, core.observation_high,
              core.EnvActions):
        for bad in (None, "rules", [], {}):
            _raises(lambda: f(bad), DdzError, "rules must be a ddz.Rules")
    acts = core.env_actions(Rules())
    for f in (acts.legal_ids, acts.mask, lambda g: acts.game_action(g, 0)):
        _raises(lambda: f(None), DdzError, "game must be a ddz.Game")
    _raises(lambda: acts.mask(game, np.zeros(3, np.int8)), DdzError, "out must be")
    for bad in (None, True, 1.5, "1", np.array([1, 2])):
        _raises(lambda: acts.describe(bad), ddz.ActionIdError)
    assert acts.describe(np.int64(0)) == "pass"
    assert acts.env_id(ddz.Phase.BIDDING, 3) == acts.plays + 2 and acts.env_id(ddz.Phase.DOUBLING, True) == acts.double_id
    for phase, action in ((ddz.Phase.BIDDING, 5), (ddz.Phase.BIDDING, True), (ddz.Phase.BIDDING, np.array([1, 2])),
                          (ddz.Phase.DOUBLING, 1), (ddz.Phase.PLAYING, 1), (float("nan"), 1), ("bidding", 1)):
        _raises(lambda: acts.env_id(phase, action), ddz.IllegalActionError)


@pytest.mark.parametrize("scale", [float("nan"), float("inf"), -float("inf"), 0, -1.0, 1e300, 1e-300, True, "1", None])
def test_reward_scale_is_a_finite_positive_number(scale):
    from ddz.envs import CVectorGame, PyVectorGame, VectorGame
    from ddz.envs.vector import _vector
    makers = [VectorGame, PyVectorGame] + ([CVectorGame] if _vector is not None else [])
    for make in makers:
        _raises(lambda: make(2, reward_scale=scale), DdzError, "reward_scale")
    try:
        from ddz.envs.gymnasium import DouDizhuEnv
    except ImportError:
        pass
    else:
        _raises(lambda: DouDizhuEnv(reward_scale=scale), DdzError, "reward_scale")
    try:
        from ddz.envs import pettingzoo as pz
    except ImportError:
        pass
    else:
        _raises(lambda: pz.raw_env(reward_scale=scale), DdzError, "reward_scale")
        _raises(lambda: pz.env(reward_scale=scale), DdzError, "reward_scale")


def test_reward_scale_range_is_taken():
    from ddz.envs import VectorGame
    assert VectorGame(1, reward_scale=1e12).reward_scale == 1e12
    assert VectorGame(1, reward_scale=np.float32(0.5)).reward_scale == 0.5


def test_gymnasium_illegal_reward_is_finite():
    gym = pytest.importorskip("gymnasium")
    from ddz.envs.gymnasium import DouDizhuEnv
    assert gym is not None and DouDizhuEnv(illegal_reward=-5).illegal_reward == -5.0
    for bad in (float("nan"), float("inf"), None, True):
        _raises(lambda: DouDizhuEnv(illegal_reward=bad), DdzError, "illegal_reward")


@pytest.mark.parametrize("action", [True, False, 1.5, "x", None, [1], np.array([1, 2]), -1, 10 ** 30])
def test_wrapped_pettingzoo_env_refuses_bad_actions_with_a_ddz_error(action):
    pytest.importorskip("pettingzoo")
    from ddz.envs import pettingzoo as pz
    for make in (pz.env, pz.raw_env):
        e = make()
        e.reset(seed=1)
        _raises(lambda: e.step(action), ddz.ActionIdError)
        e.step(0)               # the env still works: a pass in the auction
        assert e.agent_selection != "seat_never"


def test_wrapped_pettingzoo_env_wants_none_after_the_end():
    pytest.importorskip("pettingzoo")
    from ddz.envs import pettingzoo as pz
    e = pz.env(rules=Rules(all_pass="void"))
    e.reset(seed=1)
    for _ in range(3):
        e.step(0)               # everybody passes: the hand ends void
    agent = e.agent_selection
    assert e.terminations[agent]
    _raises(lambda: e.step(0), ddz.ActionIdError, "only action is None")
    e.step(None)


@pytest.mark.parametrize("options, named", [
    ({"kickers": "repeat"}, "kickers='repeat'"),
    ({"kickers": "repeat", "wings": "any"}, "wings='any'"),
    ({"four_with_two": False}, "four_with_two=False"),
    ({"airplane_rank": "trios"}, "airplane_rank='trios'"),
    ({"beat_reading": "cards"}, "beat_reading='cards'"),
    ({"banned": {"TRIO_SINGLE", "BOMB"}}, "TRIO_SINGLE"),
    ({"banned": {"FOUR_TWO_PAIRS"}}, "FOUR_TWO_PAIRS"),
])
def test_four_player_refuses_options_that_change_nothing(options, named):
    with pytest.raises(DdzError, match=named.replace("(", r"\(")):
        Rules.four_player(**options)
    with pytest.raises(DdzError, match="RULES.md §7"):
        Rules(players=4, **options)
    assert Rules(**options).players == 3           # they mean something there


def test_four_player_keeps_the_options_that_mean_something():
    for options in ({"straights": False}, {"chain_from_four": False}, {"bomb_on_rocket": True},
                    {"banned": {"BOMB", "TRIO_PAIR"}}, {"doubling_bombs": "six_plus"}, {"first_bidder": "face_up"}):
        rules = Rules.four_player(**options)
        assert rules.players == 4 and rules != Rules.four_player()
    with pytest.raises(DdzError, match="changes nothing"):
        Rules.profile("openspiel", players=4)


@pytest.mark.parametrize("field", ["kickers", "bidding", "max_redeals", "players", "wings"])
def test_rules_refuse_an_array_for_a_field(field):
    with pytest.raises(DdzError, match=f"Rules.{field}"):
        Rules(**{field: np.array([1, 2])})


def test_vector_game_says_how_much_memory_it_needs_before_allocating(monkeypatch):
    from ddz.envs import CVectorGame, PyVectorGame, VectorGame, VectorMemoryError, vector
    assert issubclass(VectorMemoryError, DdzError) and issubclass(VectorMemoryError, MemoryError)
    monkeypatch.setattr(vector, "_available_bytes", lambda: 10 << 20)          # 10 MiB
    makers = [VectorGame, PyVectorGame] + ([CVectorGame] if vector._vector is not None else [])
    for make in makers:
        with pytest.raises(VectorMemoryError, match=r"\(10,000\) needs at least [\d.]+ MiB .* and 10.0 MiB is "
                                                    r"available: choose a smaller num_envs"):
            make(10_000)
        assert make(8).num_envs == 8
    monkeypatch.setattr(vector, "_available_bytes", lambda: None)              # unknown: not checked
    assert VectorGame(3).num_envs == 3


def test_vector_game_turns_an_allocation_failure_into_a_ddz_error(monkeypatch):
    from ddz.envs import PyVectorGame, VectorMemoryError, vector

    def no_memory(*args, **kwargs):
        raise MemoryError()

    if vector._vector is not None:
        monkeypatch.setattr(vector._vector, "VectorCore", no_memory)
        with pytest.raises(VectorMemoryError, match=r"CVectorGame\(4\) needs at least"):
            vector.CVectorGame(4)
    monkeypatch.setattr(vector.np, "zeros", no_memory)
    with pytest.raises(VectorMemoryError, match=r"PyVectorGame\(4\) needs at least"):
        PyVectorGame(4)


def test_available_memory_is_read_on_this_machine():
    from ddz.envs import vector
    available = vector._available_bytes()
    assert available is None or available > 0
    if vector._vector is not None:
        assert vector._vector.game_bytes(610, 3) > 4 * 610       # the structs besides the row


def test_bots_check_what_they_are_given():
    from ddz.search.bots import GreedyBot, RandomBot, SolverBot, hand_strength, make_bot
    game = ddz.Game(seed=2)
    obs, legal = game.observation(game.current_player), game.legal_actions()
    for bot in (RandomBot(1), GreedyBot()):
        assert bot.act(obs, legal) in legal
        _raises(lambda: bot.act(obs, []), ddz.IllegalActionError, "no legal action")
        for bad in (None, 3, "pass"):
            _raises(lambda: bot.act(obs, bad), DdzError, "list of legal actions")
    for bad in (None, 3, obs._asdict()):
        _raises(lambda: GreedyBot().act(bad, legal), DdzError, "ddz.Observation")
    for seed in (True, 1.5, float("nan"), -1, "x", [1], np.array([1, 2])):
        _raises(lambda: SolverBot(seed=seed), DdzError, "SolverBot seed")
        _raises(lambda: RandomBot(seed), DdzError, "RandomBot seed")
    assert SolverBot(seed=np.int64(3)).act(obs, legal) in legal
    for name in (np.array([1, 2]), None, 3):
        _raises(lambda: make_bot(name), DdzError, "bot name")
    assert hand_strength("BR2222") == hand_strength(tuple(int(c) for c in ddz.parse_cards("BR2222"))) == 21
    for bad in (None, [], "3X", [1] * 14):
        _raises(lambda: hand_strength(bad), DdzError)


def test_game_helpers_refuse_bad_indices_and_seats():
    game = ddz.Game(seed=1)
    assert game.legal_moves[np.int64(0)] == 0 and game.legal_moves[:2] == [0, 1]
    for bad in (None, 1.5, "0", [0], np.array([1, 2])):
        _raises(lambda: game.legal_moves[bad], DdzError, "indexed by an int or a slice")
    position = ddz.Position(("33", "44", "55"), landlord=0)
    assert position.is_landlord_side(0) and not position.is_landlord_side(np.int64(1))
    for bad in (True, 3, -1, 1.0, float("nan"), None):
        _raises(lambda: position.is_landlord_side(bad), DdzError, "seat")
    assert ddz.Result.voided("no bids", np.int64(4)).scores == (0, 0, 0, 0)
    for reason, seats in (("x", None), ("x", 2), ("x", True), ("", 3), (None, 3), ("x", np.array([3, 4]))):
        _raises(lambda: ddz.Result.voided(reason, seats), DdzError, "void result")


def test_vector_play_checks_steps_and_policy():
    from ddz.envs import PyVectorGame, VectorGame
    for make in (VectorGame, PyVectorGame):
        vec = make(2)
        _raises(lambda: vec.play(2 ** 70), DdzError, "steps")
        _raises(lambda: vec.play(1, np.array([1, 2])), DdzError, "policy")
        assert vec.play(1)[0] >= 0


def test_one_seed_check_and_one_bound_everywhere():
    """Issue 42: every seed of ddz is an int 0 .. 2**64 - 1, checked by one function
    (``ddz.core.arguments.seed_arg``): the game, the match, the bots, the vector, the envs."""
    from ddz.core.arguments import SEED_LIMIT, seed_arg
    from ddz.envs.vector import PyVectorGame
    takers = [lambda s: ddz.Game(seed=s), lambda s: ddz.Match(seed=s), lambda s: ddz.RandomBot(s),
              lambda s: PyVectorGame(1, seed=s)]
    for take in takers:
        take(SEED_LIMIT - 1)
        for bad in (-1, SEED_LIMIT, 1.5, True, "3"):
            with pytest.raises(ddz.DdzError, match=r"is an int 0 \.\. 2\*\*64 - 1"):
                take(bad)
    assert seed_arg(np.uint64(SEED_LIMIT - 1)) == SEED_LIMIT - 1
