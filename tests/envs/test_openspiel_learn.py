"""Tabular Q-learning (OpenSpiel's QLearner) on python_ddz from open endgames: its greedy
policy wins exactly where ddz.solve says the side wins (issue 45 item 3)."""

import pytest

pytest.importorskip("pyspiel")

from ddz.envs.openspiel_learn import q_learning, greedy_wins_everywhere  # noqa: E402


@pytest.mark.parametrize("start, landlord_wins", [("33K/4Q/5J", True), ("55A/2/KK", False)])
def test_q_learning_wins_where_the_solver_says(start, landlord_wins):
    game, agents = q_learning(start, episodes=1200, seed=0)
    solved, greedy_wins = greedy_wins_everywhere(game, agents)
    assert solved is landlord_wins
    assert greedy_wins


def test_untrained_learners_do_not_pass_the_check():
    game, agents = q_learning("33K/4Q/5J", episodes=0, seed=0)
    assert greedy_wins_everywhere(game, agents) == (True, False)
