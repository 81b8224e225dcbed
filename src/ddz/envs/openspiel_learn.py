"""An OpenSpiel learner on ``python_ddz``: tabular Q-learning on an open endgame, checked
against the exact solver (issue 45 item 3; docs/openspiel.md).

:func:`q_learning` trains one OpenSpiel ``QLearner`` per seat in self-play on
``pyspiel.load_game("python_ddz", {"start": ...})`` through OpenSpiel's
``rl_environment`` (observations: every hand, the play to beat, who leads; the position
is Markov). :func:`greedy_wins_everywhere` then plays the side that :func:`ddz.solve`
says wins with the learners' greedy policies against every defence of the other side.

For the whole game, OpenSpiel's deep learners take the same environment (its
``legal_actions`` give the action masks): ``open_spiel.python.pytorch.ppo`` or
``open_spiel.python.pytorch.nfsp`` on ``rl_environment.Environment(pyspiel.load_game(
"python_ddz"))`` with ``info_state`` observations (docs/openspiel.md).
"""

from __future__ import annotations

from typing import Any, List, Tuple

__all__ = ["q_learning", "greedy_action", "greedy_wins_everywhere"]


def q_learning(start: str, episodes: int = 3000, seed: int = 0, epsilon: float = 0.3,
               step_size: float = 0.5) -> Tuple[Any, List[Any]]:
    """Train a tabular ``QLearner`` per seat in self-play from the open endgame ``start``.

    :param start: a :class:`ddz.Position` text (three hands, one deck).
    :param episodes: hands played from ``start``. :param seed: seeds numpy's and the
        environment's draws. :param epsilon: exploration. :param step_size: Q's step.
    :returns: ``(game, agents)``: the ``python_ddz`` game and one learner per seat.
    """
    import numpy as np   # numpy's global generator: the learners' epsilon-greedy draws
    import pyspiel   # optional dependency (open_spiel)
    from open_spiel.python import rl_environment, rl_tools   # optional dependency (open_spiel)
    from open_spiel.python.algorithms import tabular_qlearner   # optional dependency (open_spiel)
    from . import openspiel  # noqa: F401  (registers python_ddz)
    np.random.seed(seed)
    game = pyspiel.load_game("python_ddz", {"start": start})
    env = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION, seed=seed)
    n = env.action_spec()["num_actions"]

    class Learner(tabular_qlearner.QLearner):
        """OpenSpiel's QLearner, drawing its epsilon-greedy action among the legal ids
        only (the same distribution; OpenSpiel's draw goes over all 12,661 ids, some
        milliseconds a step)."""

        def _epsilon_greedy(self, info_state, legal_actions, eps):
            q = self._q_values[info_state]
            best = max(q[a] for a in legal_actions)
            greedy = [a for a in legal_actions if q[a] == best]
            probs = np.zeros(self._num_actions)
            probs[legal_actions] = eps / len(legal_actions)
            probs[greedy] += (1 - eps) / len(greedy)
            if np.random.random() < eps:
                action = legal_actions[np.random.randint(len(legal_actions))]
            else:
                action = greedy[np.random.randint(len(greedy))]
            return action, probs

    agents = [Learner(p, n, step_size=step_size, epsilon_schedule=rl_tools.ConstantSchedule(epsilon))
              for p in range(game.num_players())]
    for _ in range(episodes):
        step = env.reset()
        acted = set()
        while not step.last():
            p = step.observations["current_player"]
            acted.add(p)
            out = agents[p].step(step)
            step = env.step([out.action])
        for p in acted:             # each learner that acted sees the end of the hand
            agents[p].step(step)
    return game, agents


def greedy_action(agent: Any, state: Any) -> int:
    """The learner's greedy action (highest Q, ties to the lowest id) in ``state``."""
    p = state.current_player()
    key = str(state.observation_tensor(p))
    q = agent._q_values[key]   # the learner's table (OpenSpiel's QLearner keeps no public view)
    legal = state.legal_actions()
    return max(legal, key=lambda a: (q[a], -a))


def greedy_wins_everywhere(game: Any, agents: List[Any]) -> Tuple[bool, bool]:
    """``(landlord_wins_by_solve, greedy_wins)``: the side that :func:`ddz.solve` says
    wins the start, and whether that side's greedy policies win against every defence
    of the other side (all its moves, at every turn)."""
    from ..search.solver import solve   # the exact solver, beside its one use
    start = game.conf.start
    landlord_wins = solve(start).win == (start.to_move == start.landlord)
    winners_landlord = landlord_wins

    def wins(state) -> bool:
        if state.is_terminal():
            r = state.returns()
            return (r[start.landlord] > 0) == winners_landlord
        p = state.current_player()
        mine = (p == start.landlord) == winners_landlord
        if mine:
            child = state.child(greedy_action(agents[p], state))
            return wins(child)
        return all(wins(state.child(a)) for a in state.legal_actions())

    return landlord_wins, wins(game.new_initial_state())
