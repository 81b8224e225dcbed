"""openspiel-mcts and openspiel-ismcts (issue 45 item 2): they see only their seat's
information state, and play every rule set legally."""

import random
import sys

import pytest

import ddz
import ddz.envs
from ddz.arena.openspiel import OpenSpielISMCTS, make_openspiel_bot, register_bots
from ddz.search.bots import RandomBot, play_hand


def _twin_games(seed):
    """Two games in the play phase where the seat to act knows the same (same
    observation) but the other hands differ."""
    pyspiel = pytest.importorskip("pyspiel")
    import ddz.envs.openspiel  # noqa: F401  (registers python_ddz; needs pyspiel, checked above)
    game = pyspiel.load_game("python_ddz")
    rng = random.Random(seed)
    state = game.new_initial_state()
    plays = 0
    while True:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        g = state.ddz_game
        if g.phase is ddz.Phase.PLAYING and plays == 6 and len(state.legal_actions()) > 2:
            break
        if g.phase is ddz.Phase.PLAYING:
            plays += 1
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    for _ in range(50):
        other = state.resample_from_infostate(seat, rng)
        if other.ddz_game.hand((seat + 1) % 3) != g.hand((seat + 1) % 3):
            return seat, g, other.ddz_game
    raise AssertionError("no resample with other hidden cards")


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_same_information_state_same_action(kind):
    seat, a, b = _twin_games(4)
    oa, ob = a.observation(seat), b.observation(seat)
    assert oa == ob
    assert a.hand((seat + 1) % 3) != b.hand((seat + 1) % 3)
    acts = {repr(make_openspiel_bot(kind, seed=7, simulations=30).act(g.observation(seat), g.legal_actions()))
            for g in (a, b)}
    assert len(acts) == 1, acts


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
@pytest.mark.parametrize("rules", [ddz.Rules(), ddz.Rules(bidding="rob", doubling=True, first_bidder="face_up"),
                                   ddz.Rules.four_player()], ids=["default", "rob", "four"])
def test_plays_a_hand_legally(kind, rules):
    pytest.importorskip("pyspiel")
    bots = [make_openspiel_bot(kind, seed=1, simulations=8)] + [RandomBot(s) for s in range(rules.players - 1)]
    game = ddz.Game(rules, seed=11)
    play_hand(game, bots)
    assert game.phase is ddz.Phase.OVER


class _Registry(dict):
    def register(self, name, factory):
        self[name] = factory


def test_bad_options_and_registration_need_no_openspiel():
    """A bad kind, option or budget is refused before OpenSpiel is loaded, and the names
    are registered without it."""
    with pytest.raises(ddz.DdzError):
        make_openspiel_bot("alphazero")
    with pytest.raises(ddz.DdzError):
        make_openspiel_bot("mcts", budget=1)
    with pytest.raises(ddz.DdzError):
        make_openspiel_bot("mcts", seconds=-1)
    reg = _Registry()
    register_bots(reg)
    assert sorted(reg) == ["openspiel-ismcts", "openspiel-mcts"]


def test_a_bot_without_openspiel_is_a_named_error(monkeypatch):
    """Where open_spiel is not installed (simulated: pyspiel blocked, python_ddz's module
    unloaded), making a bot is a DdzError that says what to install."""
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "ddz.envs.openspiel", raising=False)
    monkeypatch.delattr(ddz.envs, "openspiel", raising=False)
    with pytest.raises(ddz.DdzError, match="openspiel-ismcts needs OpenSpiel: pip install open_spiel"):
        make_openspiel_bot("openspiel-ismcts", seed=3)


def test_factories_and_registration():
    pytest.importorskip("pyspiel")
    bot = make_openspiel_bot("openspiel-ismcts", seed=3, seconds="0.02")
    assert bot.kind == "ismcts" and bot.seconds == 0.02
    assert OpenSpielISMCTS(seed=1).kind == "ismcts"
    reg = _Registry()
    register_bots(reg)
    assert reg["openspiel-mcts"](seed=2, seconds="0.5").seconds == 0.5
