"""Game's id path and push/pop (issue "Every speed fast"): ``step_id`` plays as ``step``,
refuses bad ids and leaves the state; ``push``/``pop`` undo plays."""

import numpy as np
import pytest

import ddz
from ddz import Game, IllegalActionError, Phase


def _to_play_phase(game):
    while game.phase is not Phase.PLAYING and game.result is None:
        game.step(game.legal_actions()[-1])


@pytest.mark.parametrize("rules", [ddz.Rules(), ddz.Rules(kickers="repeat"), ddz.Rules(banned={"BOMB"})],
                         ids=["distinct", "repeat", "banned"])
def test_step_id_plays_like_step(rules):
    for seed in range(4):
        a, b = Game(rules, seed=seed), Game(rules, seed=seed)
        rng = np.random.default_rng(seed)
        _to_play_phase(a)
        _to_play_phase(b)
        space = a.action_space
        while a.result is None:
            ids = a.legal_action_ids()
            assert [space.play(int(i)) for i in ids] == a.legal_actions()
            i = ids[int(rng.integers(len(ids)))]          # a numpy integer
            a.step_id(i)
            b.step(space.play(int(i)))
            assert a.to_record() == b.to_record()
        assert a.result == b.result and a.result is not None


def test_step_id_refuses_bad_ids_and_leaves_the_state():
    g = Game(seed=3)
    with pytest.raises(IllegalActionError, match="bidding phase"):
        g.step_id(1)                                    # a play's id in the auction
    _to_play_phase(g)
    space = g.action_space
    before = g.to_record()
    legal = set(g.legal_action_ids().tolist())
    illegal = next(i for i in range(1, len(space)) if i not in legal)
    # issue 42: len(space) is the env id of bid 1, an id of the auction, not out of range
    for bad, error in [(illegal, (IllegalActionError, ddz.NotInHandError)), (len(space), IllegalActionError),
                       (len(space) + 6, ddz.ActionIdError),
                       (-1, ddz.ActionIdError), (1.0, ddz.ActionIdError), (True, ddz.ActionIdError),
                       ("1", ddz.ActionIdError), (0, IllegalActionError)]:   # 0: the pass, when leading
        with pytest.raises(error):
            g.step_id(bad)
        assert g.to_record() == before
    ids = g.legal_action_ids()
    ids[:] = 0                                          # a copy: the game's cache is untouched
    assert set(g.legal_action_ids().tolist()) == legal


def test_push_and_pop_undo_plays():
    g = Game(seed=5)
    _to_play_phase(g)
    with pytest.raises(IllegalActionError, match="nothing to pop"):
        g.pop()
    start = (g.observation(), g.legal_actions(), g.cards_left)
    played = []
    for _ in range(12):
        if g.result is not None:
            break
        move = g.legal_actions()[-1]
        g.push(move)
        played.append(move)
    for move in reversed(played):
        assert g.pop() == move
    assert (g.observation(), g.legal_actions(), g.cards_left) == start
    g.push(g.legal_actions()[0])
    g.step(g.legal_actions()[0])                        # a step ends the push history
    with pytest.raises(IllegalActionError):
        g.pop()


def test_push_refuses_what_is_not_a_legal_play_and_a_failed_step_keeps_the_history():
    g = Game(seed=7)
    with pytest.raises(IllegalActionError, match="play phase"):
        g.push(ddz.Play.parse("3"))                       # still bidding
    with pytest.raises(IllegalActionError, match="play phase"):
        g.legal_action_ids()
    _to_play_phase(g)
    before = g.to_record()
    hand = g.hand(g.current_player)
    absent = next(p for p in ddz.all_plays() if any(c > h for c, h in zip(p.counts, hand)))
    for bad in ("3", 1, None, ddz.PASS, absent):           # PASS: the player leads
        with pytest.raises(IllegalActionError, match="legal_actions"):
            g.push(bad)
        assert g.to_record() == before
    g.push(g.legal_actions()[0])
    hand = g.hand(g.current_player)
    absent = next(p for p in ddz.all_plays() if any(c > h for c, h in zip(p.counts, hand)))
    for bad_step in (lambda: g.step(absent), lambda: g.step_id(-1), lambda: g.step_id(ddz.PlayType.BOMB)):
        with pytest.raises(ddz.DdzError):
            bad_step()
    g.pop()                                                # the failed steps kept the history
    assert g.to_record() == before
    while g.result is None:
        g.step(g.legal_actions()[0])
    with pytest.raises(IllegalActionError):
        g.push(ddz.PASS)
