"""python_ddz against OpenSpiel's dou_dizhu and a do-nothing Python game (issue 45).

One run times, per decision (every step, chance nodes included, driven from Python:
chance_outcomes or legal_actions, a uniform pick, apply_action), a random game of
``python_ddz`` (default rules), of ``python_ddz`` under ``profile=openspiel``, of
OpenSpiel's own ``dou_dizhu`` (C++), and of ``python_nothing``: a registered Python
game that does nothing but has the same shape (55 chance nodes whose outcomes shrink
from 54 as a deal's do, then 60 decisions of 8 legal actions); and ``clone()`` of a
state in the play phase. Medians of rounds, alternating the games.

    PYTHONPATH=src python bench/bench_openspiel.py [--games 200] [--rounds 5]
"""

import argparse
import random
import statistics
import time
import timeit

import pyspiel

import ddz.envs.openspiel  # noqa: F401  (registers python_ddz)

_T = pyspiel.GameType(
    short_name="python_nothing", long_name="do-nothing game of python_ddz's shape",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION, utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=3, min_num_players=3,
    provides_information_state_string=False, provides_information_state_tensor=False,
    provides_observation_string=False, provides_observation_tensor=False, parameter_specification={})
_I = pyspiel.GameInfo(num_distinct_actions=100, max_chance_outcomes=54, num_players=3, min_utility=-1.0,
                      max_utility=1.0, utility_sum=0.0, max_game_length=200)
_LEGAL = list(range(8))


class NothingGame(pyspiel.Game):
    def __init__(self, params=None):
        super().__init__(_T, _I, params or {})

    def new_initial_state(self):
        return NothingState(self)


class NothingState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.n = 0

    def current_player(self):
        return -1 if self.n < 55 else (-4 if self.n >= 115 else self.n % 3)

    def _legal_actions(self, player):
        return list(_LEGAL)

    def chance_outcomes(self):
        k = 54 - min(self.n, 53)
        p = 1.0 / k
        return [(i, p) for i in range(k)]

    def _apply_action(self, action):
        self.n += 1

    def is_terminal(self):
        return self.n >= 115

    def returns(self):
        return [0.0, 0.0, 0.0]

    def _action_to_string(self, player, action):
        return str(action)

    def __str__(self):
        return str(self.n)


pyspiel.register_game(_T, NothingGame)


def per_decision(game, games, seed):
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                o = s.chance_outcomes()
                a = o[rng.randrange(len(o))][0]
            else:
                la = s.legal_actions()
                a = la[rng.randrange(len(la))]
            s.apply_action(a)
            steps += 1
    return (time.perf_counter() - start) / steps * 1e6, steps / games


def play_phase_state(game, seed=1):
    rng = random.Random(seed)
    s = game.new_initial_state()
    while s.is_chance_node() or s.ddz_game.phase.value != "playing" or len(s.history()) < 70:
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            s = game.new_initial_state()
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    games = {"python_ddz": pyspiel.load_game("python_ddz"),
             "python_ddz openspiel": pyspiel.load_game("python_ddz", {"profile": "openspiel"}),
             "dou_dizhu": pyspiel.load_game("dou_dizhu"),
             "python_nothing": pyspiel.load_game("python_nothing")}
    times = {name: [] for name in games}
    lengths = {}
    for r in range(args.rounds):
        for name, game in games.items():
            us, length = per_decision(game, args.games, seed=r)
            times[name].append(us)
            lengths[name] = length
    med = {name: statistics.median(v) for name, v in times.items()}
    for name in games:
        print(f"{name:22s} {med[name]:6.2f} us/decision  ({lengths[name]:.0f} steps a game)")
    for name in ("python_ddz", "python_ddz openspiel"):
        print(f"{name}: {med[name] / med['dou_dizhu']:.2f}x dou_dizhu, {med[name] / med['python_nothing']:.2f}x "
              f"python_nothing")
    s = play_phase_state(games["python_ddz"])
    clone = statistics.median(timeit.repeat(s.clone, number=2000, repeat=args.rounds)) / 2000 * 1e6
    n = pyspiel.load_game("python_nothing").new_initial_state()
    nclone = statistics.median(timeit.repeat(n.clone, number=2000, repeat=args.rounds)) / 2000 * 1e6
    print(f"clone(): python_ddz {clone:.2f} us, python_nothing {nclone:.2f} us")


if __name__ == "__main__":
    main()
