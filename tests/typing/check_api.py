"""Checked by mypy --strict (tests/test_typing.py), never run: the public API has real
types. ``assert_type`` fails when an expression's type is not exactly the one named, so a
function that falls back to ``Any`` (the chooser hides its choice from a type checker)
is an error here, and so is a narrowed or widened return type."""

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

import ddz
from ddz.game.actions import ActionSpace

# -- the rules functions (ddz.core, the chooser) ------------------------------------------
repeat = ddz.Rules(kickers="repeat")
assert_type(ddz.classify("33344456"), ddz.Play)
assert_type(ddz.classify([0] * 15, repeat), ddz.Play)
assert_type(ddz.beats("3333", "4444+56"), bool)
assert_type(ddz.beats(ddz.Play.parse("3333"), ddz.classify("44445"), rules=repeat), bool)
assert_type(ddz.legal_moves("BR", to_beat="2222"), List[ddz.Play])
assert_type(ddz.legal_moves(ddz.parse_cards("33344455"), None, repeat), List[ddz.Play])
assert_type(ddz.count_legal_moves("33344455", rules=repeat), int)
assert_type(ddz.legal_moves_array(ddz.parse_cards("33344455")), npt.NDArray[np.int64])
assert_type(ddz.readings("3334"), List[ddz.Play])
assert_type(ddz.all_plays(repeat), List[ddz.Play])
assert_type(ddz.IMPLEMENTATION, str)

# -- values ----------------------------------------------------------------------------
play = ddz.Play.parse("333+4")
assert_type(play, ddz.Play)
assert_type(play.type, ddz.PlayType)
assert_type(ddz.Play.from_code(play.code), ddz.Play)
assert_type(ddz.PASS, ddz.Play)
assert_type(ddz.format_cards(ddz.parse_cards("BR")), str)

# -- the game and the action space -----------------------------------------------------
game = ddz.Game(repeat, seed=7)
space = game.action_space
assert_type(space, ActionSpace)
assert_type(space, ddz.ActionSpace)
assert_type(len(space), int)
assert_type(space.id("BR"), int)
assert_type(space.play(0), ddz.Play)
hand = game.hand(0)
assert_type(space.legal_ids(hand), npt.NDArray[np.int32])
assert_type(space.legal_mask(hand, None), npt.NDArray[np.bool_])
hands = np.zeros((4, 15), np.uint8)
to_beat = np.zeros(4, np.int32)
assert_type(space.legal_masks(hands, to_beat, threads=2), npt.NDArray[np.bool_])
assert_type(space.legal_ids_batch(hands, to_beat),
            Tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]])
assert_type(ddz.encode_cards(hand), npt.NDArray[np.uint8])
assert_type(ddz.encode_actions([0, 1], repeat), npt.NDArray[np.uint8])
assert_type(game.legal_action_ids(), npt.NDArray[np.int32])
game.step_id(int(game.legal_action_ids()[0]))
game.step_id(np.int64(0))
game.step(3)
game.step("333+4")
assert_type(game.result, Optional[ddz.Result])
assert_type(game.clone(), ddz.Game)
assert_type(game.to_record(), Dict[str, Any])
assert_type(ddz.Game.from_record(game.to_record()), ddz.Game)
assert_type(ddz.perft(game, 2), int)
assert_type(str(game), str)
assert_type(game.render(seat=0), str)
assert_type(game.render(), str)

# -- bots -------------------------------------------------------------------------------
solver_bot = ddz.SolverBot(threshold=12, samples=4, seed=1)
assert_type(solver_bot, ddz.SolverBot)
assert_type(solver_bot.act(game.observation(0), game.legal_actions()), Any)
bot: ddz.Bot = solver_bot
bot = ddz.GreedyBot()

# -- version -----------------------------------------------------------------------------
info = ddz.version_info()
assert_type(info, ddz.VersionInfo)
assert_type(info.version, str)
assert_type(info.openmp, Optional[bool])
assert_type(ddz.__version__, str)
