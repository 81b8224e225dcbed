"""Checked by mypy --strict (tests/test_typing.py), never run: each line marked
``# E: code`` must be reported as an error of that code, and no other line may be. A
public function whose type fell back to ``Any`` would let these through."""

from typing import List

import ddz

x: int = ddz.classify("33")  # E: assignment
n: str = ddz.count_legal_moves("33344455")  # E: assignment
moves: List[int] = ddz.legal_moves("33344455")  # E: assignment
won: str = ddz.beats("3333", "4444+56")  # E: assignment
ddz.legal_moves("33", to_beat=3.5)  # E: arg-type
ddz.classify("33", rules="repeat")  # E: arg-type
ddz.Game(seed=1).action_space.no_such_method()  # E: attr-defined
ids: List[int] = ddz.Game(seed=1).legal_action_ids()  # E: assignment
v: int = ddz.version_info().version  # E: assignment
table: int = ddz.Game(seed=1).render(seat=0)  # E: assignment
ddz.Game(seed=1).render(seat="0")  # E: arg-type
ddz.SolverBot(samples="4")  # E: arg-type
