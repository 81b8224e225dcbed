"""The vectorised game in C (``ddz.envs._vector`` behind ``ddz.envs.CVectorGame``) against its
pure-Python reference ``PyVectorGame`` (its lockstep with independent ``ddz.Game`` objects
is ``tests/test_envs.py``): identical hands, legal ids, observations, rewards and ends,
for every rule set (the covering array of the hand's options is
``test_hand_lockstep.py``); the built-in policies in C against their Python twin; bad input; seeds."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import ddz
from ddz import DdzError, IllegalActionError, Rules
from ddz.core.implementation import NO_EXTENSIONS
from ddz.core.parallel import usable_cpus
from ddz.game.actions import ActionIdError
from ddz.envs import VectorGame, encode_observation, env_actions
from ddz.envs.core import _c_encoder, encode_observation_py
from ddz.envs.vector import CVectorGame, PyVectorGame
from dealspec import spec_hand_seed

needs_core = pytest.mark.skipif(NO_EXTENSIONS, reason="DDZ_NO_EXTENSIONS=1: the C VectorGame is absent")

C_RULES = [ddz.STANDARD,
           Rules(bidding="rob", doubling=True),
           Rules(bid_rounds="until_passes", kickers="repeat", doubling_bombs="beating"),
           Rules(all_pass="void", doubling_bombs="six_plus", banned={"TRIO_PAIR"}, straights=False),
           Rules(max_redeals=0, doubling=True, wings="trios", kickers="repeat", four_with_two=False),
           Rules.four_player(),
           Rules(bottom_bonus=True, first_bidder="face_up", doubling=True)]
C_IDS = ["standard", "rob-doubling", "until-passes-repeat-beating", "void-six-plus-banned", "no-redeal-openspiel",
         "four-player", "bonus-face-up"]


def threaded(vg, k):
    """``vg`` stepping on ``k`` threads whatever the CPUs: ``threads=`` is capped at the usable
    CPUs (ddz.core.parallel), the shards are tested beyond them (the pure twin keeps one)."""
    if isinstance(vg, CVectorGame):
        vg._core.num_threads = k
    return vg


def random_actions(vg, rng):
    ids, offsets = vg.legal_ids()
    return ids[offsets[:-1] + rng.integers(0, np.diff(offsets))]


def assert_same_state(a, b):
    ia, oa = a.legal_ids()
    ib, ob = b.legal_ids()
    np.testing.assert_array_equal(oa, ob)
    np.testing.assert_array_equal(ia, ib)
    np.testing.assert_array_equal(a.observations, b.observations)
    np.testing.assert_array_equal(a.current_players, b.current_players)
    np.testing.assert_array_equal(a.seeds, b.seeds)
    for i in range(a.num_envs):
        np.testing.assert_array_equal(a.hands(i), b.hands(i))
    np.testing.assert_array_equal(a.legal_masks(), b.legal_masks())


@needs_core
@pytest.mark.parametrize("rules", C_RULES, ids=C_IDS)
def test_c_and_python_vector_games_step_identically(rules):
    n = 8
    c, py = CVectorGame(n, rules, seed=11, reward_scale=0.5), PyVectorGame(n, rules, seed=11, reward_scale=0.5)
    rng = np.random.default_rng(4)
    assert_same_state(c, py)
    ends = 0
    for _ in range(250):
        actions = random_actions(py, rng)
        oc, rc, dc = c.step(actions)
        op, rp, dp = py.step(actions)
        np.testing.assert_array_equal(dc, dp)
        np.testing.assert_array_equal(rc, rp)
        ends += int(dc.sum())
        assert_same_state(c, py)
    assert ends >= 10                 # hands ended and were dealt again on both sides


@needs_core
@pytest.mark.parametrize("policy", ["random", "most_cards"])
def test_built_in_policies_in_c_match_their_python_twin(policy):
    rules = Rules(bidding="rob", doubling=True)
    n, steps = 6, 120
    c, py = CVectorGame(n, rules, seed=21), PyVectorGame(n, rules, seed=21)
    rec_c, rec_p = np.zeros((steps, n), np.int32), np.zeros((steps, n), np.int32)
    fc, tc = c.play(steps, policy, record=rec_c)
    fp, tp = py.play(steps, policy, record=rec_p)
    np.testing.assert_array_equal(rec_c, rec_p)
    assert fc == fp and fc > 0
    np.testing.assert_array_equal(tc, tp)
    assert tc.sum() == 0              # zero-sum scores
    assert_same_state(c, py)
    # the policy's generator goes on where it stopped, and stepping goes on from there
    assert c.play(30, policy)[1].tolist() == py.play(30, policy)[1].tolist()
    actions = random_actions(py, np.random.default_rng(0))
    np.testing.assert_array_equal(c.step(actions)[1], py.step(actions)[1])
    if policy == "most_cards":        # issue 42: "greedy" is its old name, the same rule
        old, new = np.zeros((20, n), np.int32), np.zeros((20, n), np.int32)
        CVectorGame(n, rules, seed=3).play(20, "greedy", record=old)
        CVectorGame(n, rules, seed=3).play(20, "most_cards", record=new)
        np.testing.assert_array_equal(old, new)
    assert_same_state(c, py)


@needs_core
def test_recorded_random_play_replays_through_step():
    n, steps = 5, 80
    a, b = CVectorGame(n, seed=8), CVectorGame(n, seed=8)
    record = np.zeros((steps, n), np.int32)
    a.play(steps, record=record)
    for t in range(steps):
        b.step(record[t])
    assert_same_state(a, b)


@needs_core
def test_seed_decides_everything():
    a, b, other = CVectorGame(16, seed=5), CVectorGame(16, seed=5), CVectorGame(16, seed=6)
    assert not np.array_equal(a.observations, other.observations)
    rng = np.random.default_rng(2)
    for _ in range(60):
        actions = random_actions(a, rng)
        ra = a.step(actions)[1].copy()
        rb = b.step(actions)[1]
        np.testing.assert_array_equal(ra, rb)
    assert_same_state(a, b)
    seeds = a.seeds.copy()
    a.reset()
    assert not np.array_equal(seeds, a.seeds)      # reset deals the next hands


@pytest.mark.parametrize("cls, threads", [(CVectorGame, 1), (CVectorGame, 3), (PyVectorGame, 1)])
def test_hands_are_dealt_from_the_documented_seeds(cls, threads):
    """Hand j of VectorGame(n, rules, seed) is Game(seed=vector_hand_seed(seed, j)) (ddz.game.deal,
    rewritten in tests/dealspec.py), counting the games at reset, then each step's ended hands
    in game order, on any number of threads; hands of reset(seeds=...) are not counted."""
    if cls is CVectorGame and NO_EXTENSIONS:
        pytest.skip("DDZ_NO_EXTENSIONS=1: the C VectorGame is absent")
    seed, n = 2 ** 64 - 1, 9
    vg = threaded(cls(n, seed=seed), threads)
    assert vg.seeds.tolist() == [spec_hand_seed(seed, j) for j in range(n)] and vg.hands_started == n
    vg.reset(seeds=range(n))
    assert vg.hands_started == n
    j, rng, ended = n, np.random.default_rng(4), 0
    for _ in range(200):
        dones = vg.step(random_actions(vg, rng))[2]
        for i in np.flatnonzero(dones):
            assert vg.seeds[i] == spec_hand_seed(seed, j)
            j += 1
        ended += int(dones.sum())
    assert ended >= 10 and vg.hands_started == j
    for bad in (-1, 2 ** 64, 1.5, True):
        with pytest.raises(DdzError, match="seed"):
            cls(2, seed=bad)


@needs_core
def test_vector_game_is_the_c_one_for_every_rule_set():
    for rules in [ddz.STANDARD, Rules.four_player(doubling_bombs="six_plus"), Rules(bottom_bonus=True),
                  Rules.profile("openspiel")]:
        vg = VectorGame(2, rules)
        assert isinstance(vg, CVectorGame) and isinstance(vg, VectorGame)


@pytest.mark.parametrize("cls", [CVectorGame, PyVectorGame])
def test_reset_with_chosen_seeds_replays_those_hands(cls):
    if cls is CVectorGame and NO_EXTENSIONS:
        pytest.skip("DDZ_NO_EXTENSIONS=1: the C VectorGame is absent")
    rules = Rules.four_player(first_bidder="face_up")
    vg = cls(3, rules, seed=1)
    seeds = [5, 2 ** 63 - 1, 0]
    obs = vg.reset(seeds=np.array(seeds))
    assert vg.seeds.tolist() == seeds
    vg.reset(seeds=range(3))
    assert vg.seeds.tolist() == [0, 1, 2]
    obs = vg.reset(seeds=seeds)
    for i, s in enumerate(seeds):
        game = ddz.Game(rules, seed=s)
        assert vg.current_players[i] == game.current_player
        np.testing.assert_array_equal(obs[i], encode_observation_py(game, game.current_player))
        np.testing.assert_array_equal(vg.hands(i), [game.hand(x) for x in range(4)])
    later = vg.seeds.copy()
    vg.reset()                      # the stream goes on: hands other than the chosen ones
    assert vg.seeds.tolist() != later.tolist()
    vg.reset(seeds=[np.int64(4), np.uint64(2 ** 63 - 1), 6])     # numpy would make floats of this mix
    assert vg.seeds.tolist() == [4, 2 ** 63 - 1, 6]
    kept = vg.seeds.copy()
    for bad in ([1, 2], [1, 2, -1], [1, 2, 2 ** 63], [1.0, 2.0, 3.0], "123", [True, False, True], 7,
                [[1], 2, 3], np.array([1, 2, 3], np.float64), np.zeros((3, 1), np.int64)):
        with pytest.raises(DdzError, match="seeds"):
            vg.reset(seeds=bad)
    assert vg.seeds.tolist() == kept.tolist()     # nothing was dealt


@needs_core
def test_c_vector_game_is_not_picklable():
    vg = CVectorGame(2)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(vg)
    with pytest.raises(TypeError, match="cannot be pickled"):
        copy.deepcopy(vg)


@needs_core
def test_c_vector_game_bad_input():
    vg = CVectorGame(4, seed=3)
    with pytest.raises(ActionIdError):
        vg.step(np.zeros((4, 1), np.int32))
    ids, offsets = vg.legal_ids()
    actions = ids[offsets[:-1]].copy()
    actions[3] = len(vg.actions.space) + 4          # "double": not a bidding action
    with pytest.raises(IllegalActionError, match=r"actions\[3\] = .*double.* game 3 \(phase bidding"):
        vg.step(actions)
    strided = np.zeros(8, np.int32)[::2]
    strided[:] = ids[offsets[:-1]]
    vg.step(strided)                                  # a non-contiguous int32 array is converted
    for bad in [dict(steps=-1), dict(steps=2, policy="smart"), dict(steps=2, record=np.zeros((2, 4), np.int64)),
                dict(steps=2, record=np.zeros((3, 4), np.int32))]:
        with pytest.raises(DdzError):
            vg.play(**bad)
    with pytest.raises(DdzError):
        vg.legal_masks(out=np.zeros((4, vg.num_actions), np.int8)[:, ::-1])
    for bad in [-1, 4, 1.0, True]:
        with pytest.raises(DdzError):
            vg.hands(bad)


_WITHOUT_CORE = """
import pytest
from ddz.errors import DdzError
from ddz.envs.vector import CVectorGame, PyVectorGame, VectorGame
assert isinstance(VectorGame(2), PyVectorGame)
with pytest.raises(DdzError, match="compiled core"):
    CVectorGame(2)
print("ok")
"""


def test_vector_game_without_the_core_is_the_python_one():
    """Under ``DDZ_NO_EXTENSIONS=1`` (in a child process when this one has the core),
    ``VectorGame`` is the Python one and ``CVectorGame`` refuses with a clear error."""
    if NO_EXTENSIONS:
        exec(_WITHOUT_CORE, {})
        return
    import os
    import subprocess
    import sys
    env = dict(os.environ, DDZ_NO_EXTENSIONS="1")
    out = subprocess.run([sys.executable, "-c", _WITHOUT_CORE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


ENCODER_RULES = C_RULES + [Rules(all_pass="void", doubling=True), Rules(bidding="rob", kickers="repeat",
                                                                      doubling_bombs="beating")]


@needs_core
@pytest.mark.parametrize("rules", ENCODER_RULES, ids=C_IDS + ["void-doubling", "rob-repeat"])
def test_c_encoder_of_one_game_matches_the_python_one(rules):
    """``encode_observation`` (the C encoder, for the PettingZoo and Gymnasium envs) gives
    the reference's array for every seat, in every phase, over and void hands included."""
    assert _c_encoder(rules) is not None
    acts = env_actions(rules)
    rng = np.random.default_rng(7)
    out = np.zeros(len(encode_observation_py(ddz.Game(rules, seed=0), 0)), np.float32)
    phases = set()
    for seed in range(12):
        game = ddz.Game(rules, seed=seed)
        while True:
            phases.add(game.phase.value)
            for seat in range(rules.seats):
                want = encode_observation_py(game, seat)
                np.testing.assert_array_equal(encode_observation(game, seat), want)
                np.testing.assert_array_equal(encode_observation(game, seat, out), want)
            if game.result is not None:
                break
            ids = acts.legal_ids(game)
            acts.step(game, int(ids[rng.integers(len(ids))]))
    assert {"bidding", "playing", "over"} <= phases
    assert ("doubling" in phases) == rules.doubling
    with pytest.raises(DdzError):
        encode_observation(ddz.Game(rules, seed=1), rules.seats)


def test_encoder_takes_an_out_buffer_it_cannot_fill_to_the_reference():
    game = ddz.Game(seed=3)       # an out buffer the C encoder cannot take: float64
    out = np.zeros(len(encode_observation(game, 0)), np.float64)
    np.testing.assert_array_equal(encode_observation(game, 0, out), encode_observation_py(game, 0))


@pytest.mark.parametrize("cls", [VectorGame, PyVectorGame])
def test_observe_false_skips_only_the_observations(cls):
    a, b = cls(6, seed=9), cls(6, seed=9, observe=False)
    assert not b.observations.any() and a.observations.any()
    rng = np.random.default_rng(5)
    for _ in range(80):
        actions = random_actions(a, rng)
        ra, da = [x.copy() for x in a.step(actions)[1:]]
        ob, rb, db = b.step(actions)
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(da, db)
        np.testing.assert_array_equal(a.legal_ids()[0], b.legal_ids()[0])
        assert not ob.any()
    b.observe = True                  # from the next step on
    actions = random_actions(a, rng)
    np.testing.assert_array_equal(a.step(actions)[0], b.step(actions)[0])
    with pytest.raises(DdzError):
        cls(2, observe="yes")


@needs_core
@pytest.mark.parametrize("threads", [1, 2])
def test_a_long_play_stops_at_ctrl_c_between_two_steps(threads):
    """``play(2**62)`` runs until interrupted: Ctrl-C (SIGINT) raises KeyboardInterrupt
    within a chunk of steps, and the games are left between two steps, usable."""
    import signal
    import subprocess
    import sys
    import time
    script = ("import numpy as np\n"
              "from ddz.envs.vector import CVectorGame\n"
              f"v = CVectorGame(3, threads={threads})\n"
              "print('ready', flush=True)\n"
              "try:\n"
              "    v.play(2 ** 62)\n"
              "except KeyboardInterrupt:\n"
              "    ids, off = v.legal_ids()\n"
              "    np.testing.assert_array_equal(np.flatnonzero(v.legal_masks()[0]), ids[off[0]:off[1]])\n"
              "    v.step(ids[off[:-1]])\n"
              "    print('interrupted', v.hands_started > 3, flush=True)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert out.strip() == "interrupted True"


@pytest.mark.parametrize("cls", [CVectorGame, PyVectorGame])
def test_observe_and_wide_action_ids_are_checked_alike(cls):
    """``observe`` takes a bool in both implementations; a uint64 id beyond 2**63 - 1 is
    named as it was given, not as its int64 wrap-around."""
    if cls is CVectorGame and NO_EXTENSIONS:
        pytest.skip("DDZ_NO_EXTENSIONS=1: the C VectorGame is absent")
    vg = cls(3)
    for bad in (2, "yes", None):
        with pytest.raises(DdzError, match="observe must be True or False"):
            vg.observe = bad
    assert vg.observe is True
    vg.observe = np.bool_(False)
    assert vg.observe is False
    with pytest.raises(ActionIdError, match=f"actions\\[0\\] = {2 ** 63} is out of range"):
        vg.step(np.full(3, 2 ** 63, np.uint64))


@needs_core
def test_games_step_in_threads_as_they_do_alone():
    """Stepping releases the GIL: two vectors stepped in two threads at once end exactly
    as when stepped one after the other; a second call into a vector that is being
    stepped is refused (RuntimeError), never interleaved."""
    import threading

    def run(vg, out):
        out.append(vg.play(150))
        out.append(vg.observations.copy())

    alone = []
    for seed in (1, 2):
        run(CVectorGame(64, seed=seed), alone)
    together = [[], []]
    a, b = CVectorGame(64, seed=1), CVectorGame(64, seed=2)
    threads = [threading.Thread(target=run, args=(vg, out)) for vg, out in zip((a, b), together)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        try:
            a.legal_masks()
        except RuntimeError as exc:
            assert "another thread" in str(exc)
    for t in threads:
        t.join()
    for k, out in enumerate(together):
        (f_alone, t_alone), obs_alone = alone[2 * k], alone[2 * k + 1]
        (f_thread, t_thread), obs_thread = out
        assert f_alone == f_thread > 0
        np.testing.assert_array_equal(t_alone, t_thread)
        np.testing.assert_array_equal(obs_alone, obs_thread)


@needs_core
@pytest.mark.parametrize("rules", [ddz.STANDARD, Rules.four_player()], ids=["standard", "four-player"])
def test_threads_step_the_same_games(rules):
    """``threads=k`` (issue 30): the same observations, rewards, ends, legal ids and
    seeds as one thread, for shards of unequal sizes too (3 threads, 23 games)."""
    n = 23
    cpus = usable_cpus()
    vgs = [CVectorGame(n, rules, seed=9, threads=k) for k in (1, 2, 3)]
    assert [vg.threads for vg in vgs] == [1, min(2, cpus), min(3, cpus)]      # at most the usable CPUs
    assert CVectorGame(2, threads=0).threads == min(2, cpus)                 # every CPU, at most the games
    vgs = [threaded(vg, k) for vg, k in zip(vgs, (1, 2, 3))]
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(150):
        actions = random_actions(vgs[0], rng)
        outs = [vg.step(actions) for vg in vgs]
        for vg, out in zip(vgs[1:], outs[1:]):
            for x, y in zip(out, outs[0]):
                np.testing.assert_array_equal(x, y)
            assert_same_state(vg, vgs[0])
        ends += int(outs[0][2].sum())
    assert ends >= 10
    vgs[1].threads = 1                    # settable; still the same games
    actions = random_actions(vgs[0], rng)
    np.testing.assert_array_equal(vgs[1].step(actions)[0], vgs[0].step(actions)[0])
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(DdzError, match="threads must be an int >= 0"):
            CVectorGame(2, threads=bad)
        with pytest.raises(DdzError, match="threads must be an int >= 0"):
            vgs[0].threads = bad
    with pytest.warns(DeprecationWarning, match="now called threads"):       # the old name
        old = ddz.envs.VectorGame(2, num_threads=2)
    with pytest.warns(DeprecationWarning):
        assert old.num_threads == old.threads == min(2, cpus)
    with pytest.raises(DdzError, match="not both"), pytest.warns(DeprecationWarning):
        CVectorGame(2, threads=2, num_threads=2)


@needs_core
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_play_on_threads_plays_the_same_games(policy):
    """``play`` on k threads (issue 30): the same records, totals, seeds, observations and
    legal ids for k = 1, 2, 3 (shards of unequal sizes), as the pure-Python twin, with a
    reward scale that is not a power of two; and its stream goes on alike."""
    rules, n, steps = Rules(doubling=True), 23, 90
    vgs = [threaded(CVectorGame(n, rules, seed=4, reward_scale=0.1), k) for k in (1, 2, 3)]
    py = PyVectorGame(n, rules, seed=4, reward_scale=0.1)
    outs, records = [], []
    for vg in vgs + [py]:
        rec = np.zeros((steps, n), np.int32)
        outs.append(vg.play(steps, policy, record=rec))
        records.append(rec)
    for (f, tot), rec, vg in zip(outs[1:], records[1:], vgs[1:] + [py]):
        assert f == outs[0][0] > 10
        assert tot.tolist() == outs[0][1].tolist()
        np.testing.assert_array_equal(rec, records[0])
        assert_same_state(vg, vgs[0])
    assert [vg.hands_started for vg in vgs] == [py.hands_started] * 3
    again = [vg.play(7, policy)[1].tolist() for vg in vgs + [py]]
    assert again[1:] == again[:1] * 3
    for vg in vgs[1:] + [py]:
        assert_same_state(vg, vgs[0])


@pytest.mark.parametrize("rules", [ddz.STANDARD, Rules(bottom_bonus=True, doubling=True, bidding="rob"),
                                   Rules.four_player()], ids=["standard", "bonus-doubling-rob", "four-player"])
def test_compact_observations_are_the_float_ones_compacted(rules):
    """``obs_dtype=np.uint8`` (issue 30): the C rows equal ``compact_observation`` of the
    float32 rows, step by step, and the pure-Python vector's too; the ×3 of open play gives
    quarter steps in ``log2_multiplier``."""
    from ddz.envs.core import compact_observation, observation_layout
    n = 12
    vgs = [PyVectorGame(n, rules, seed=4, obs_dtype=np.uint8)]
    if not NO_EXTENSIONS:
        vgs += [CVectorGame(n, rules, seed=4), CVectorGame(n, rules, seed=4, obs_dtype="uint8", threads=2)]
    ref = PyVectorGame(n, rules, seed=4)
    at = {name: start for name, start, _ in observation_layout(rules)}["log2_multiplier"]
    rng = np.random.default_rng(8)
    fractions = set()
    for _ in range(120):
        actions = random_actions(ref, rng)
        want = ref.step(actions)[0]
        for vg in vgs:
            obs = vg.step(actions)[0]
            np.testing.assert_array_equal(obs if obs.dtype == np.float32 else compact_observation(want, rules),
                                          want if obs.dtype == np.float32 else obs)
        fractions |= set((compact_observation(want, rules)[:, at] % 4).tolist())
    assert vgs[0].observations.dtype == np.uint8
    if rules.players == 4:
        assert fractions - {0}              # open play: a multiplier with a ×3 (log2 not whole)
    for bad in (np.float64, np.int8, "x", "Packed", "bits", True, None, np.zeros(3)):
        with pytest.raises(DdzError, match="obs_dtype"):
            VectorGame(2, rules, obs_dtype=bad)
    with pytest.raises(DdzError, match="float32"):
        compact_observation(np.zeros(3), rules)


def spec_packed(obs, rules):
    """Packed rows as ``pack_observations``'s docstring describes them, written from it
    alone: 0/1 feature ``i`` as bit ``i % 8`` of byte ``i // 8``, then the counts as bytes."""
    from ddz.envs.core import compact_observation, observation_layout
    from ddz.envs.packed import packed_size
    compact = compact_observation(obs, rules)
    size = obs.shape[1]
    out = np.zeros((obs.shape[0], packed_size(rules)), np.uint8)
    tail = -(-size // 8)
    counts = [i for name, start, stop in observation_layout(rules) if name in ("cards_left", "robs", "log2_multiplier")
              for i in range(start, stop)]
    for g in range(obs.shape[0]):
        for i in range(size):
            if i not in counts and compact[g, i]:
                assert compact[g, i] == 1
                out[g, i // 8] |= 1 << (i % 8)
        out[g, tail:tail + len(counts)] = compact[g, counts]
    return out


@pytest.mark.parametrize("rules", [ddz.STANDARD, Rules(bottom_bonus=True, doubling=True, bidding="rob",
                                                       first_bidder="face_up"),
                                   Rules.four_player()], ids=["standard", "bonus-doubling-rob-face-up", "four-player"])
def test_packed_observations_are_the_documented_bits(rules):
    """``obs_dtype="packed"`` (issue 30): the C rows (one thread and two) and the pure-Python
    vector's are the float32 rows packed as documented, step by step through whole hands;
    ``unpack_observations`` gives the compact ``uint8`` rows back."""
    from ddz.envs.core import compact_observation
    from ddz.envs.packed import pack_observations, packed_size, unpack_observations
    n = 8
    vgs = [PyVectorGame(n, rules, seed=5, obs_dtype="packed")]
    if not NO_EXTENSIONS:
        vgs += [CVectorGame(n, rules, seed=5, obs_dtype="packed"),
                CVectorGame(n, rules, seed=5, obs_dtype="packed", threads=2)]
    ref = PyVectorGame(n, rules, seed=5)
    rng = np.random.default_rng(9)
    ends = 0
    for t in range(150):
        actions = random_actions(ref, rng)
        want, _, dones = ref.step(actions)
        ends += int(dones.sum())
        packed = pack_observations(want, rules)
        if t % 10 == 0:
            np.testing.assert_array_equal(spec_packed(want, rules), packed)
        np.testing.assert_array_equal(unpack_observations(packed, rules), compact_observation(want, rules))
        np.testing.assert_array_equal(pack_observations(compact_observation(want, rules), rules), packed)
        for vg in vgs:
            obs = vg.step(actions)[0]
            assert obs.dtype == np.uint8 and obs.shape == (n, packed_size(rules))
            np.testing.assert_array_equal(obs, packed)
    assert ends >= 4                        # hands ended and were dealt again within the steps
    assert packed_size(rules) == (88 if rules.players == 3 else 184)
    for bad in (np.zeros((2, packed_size(rules)), np.int8), np.zeros((2, 5), np.uint8), [1, 2], None):
        with pytest.raises(DdzError, match="packed"):
            unpack_observations(bad, rules)
    for bad in (np.zeros((2, 5), np.float32), np.zeros((2, want.shape[1]), np.int64), "x"):
        with pytest.raises(DdzError, match="obs must be"):
            pack_observations(bad, rules)
