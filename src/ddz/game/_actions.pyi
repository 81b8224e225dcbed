"""Type stubs of the action-space kernels (ddz/_actions.pyx). Each function checks every
row itself (shape, dtype, id range, possible hands) and raises a ddz.DdzError subclass."""

from typing import Any, Tuple

import numpy as np
import numpy.typing as npt

from ._core import RuleTable

OPENMP: bool

def legal_ids_one(table: RuleTable, hand: npt.NDArray[np.uint8], to_beat_id: int) -> npt.NDArray[np.int32]: ...
def legal_mask_one(table: RuleTable, hand: npt.NDArray[np.uint8], to_beat_id: int) -> npt.NDArray[np.bool_]: ...
def legal_masks(table: RuleTable, hands: npt.NDArray[np.uint8], tbs: npt.NDArray[np.int32],
                mask_arr: npt.NDArray[np.bool_], threads: int) -> None: ...
def legal_ids_csr(table: RuleTable, hands: npt.NDArray[np.uint8], tbs: npt.NDArray[np.int32],
                  threads: int) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]: ...
