"""Type stubs of the action-space kernels (ddz/_actions.pyx). Inputs are trusted:
ddz.ActionSpace validates every row first. ``tables`` is a ``ddz.actions._Tables``."""

from typing import Any, Tuple

import numpy as np
import numpy.typing as npt

OPENMP: bool

def legal_ids_one(tables: Any, hand: npt.NDArray[np.uint8], tb: int,
                  repeat: bool) -> npt.NDArray[np.int32]: ...
def legal_masks(tables: Any, hands: npt.NDArray[np.uint8], tbs: npt.NDArray[np.int32],
                repeat: bool, mask_arr: npt.NDArray[np.bool_], threads: int) -> None: ...
def legal_ids_csr(tables: Any, hands: npt.NDArray[np.uint8], tbs: npt.NDArray[np.int32],
                  repeat: bool, threads: int) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]: ...
def rows_ok(hands: npt.NDArray[np.uint8], tbs: npt.NDArray[np.int32],
            play_counts: npt.NDArray[np.uint8], limit: npt.NDArray[np.uint8], max_hand: int) -> bool: ...
