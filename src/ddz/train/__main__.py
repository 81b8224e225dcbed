"""``python -m ddz.train OUT_DIR --frames N``: DouZero's Deep Monte-Carlo on the vector
(:func:`ddz.train.dmc`; its arguments as options). Resumes from ``OUT_DIR/dmc_state.pt``
(or ``--state``) when it exists."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from ..errors import DdzError
from .dmc import DEFAULTS, dmc


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ddz.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", help="folder of the <position>_weights_<frames>.ckpt files")
    ap.add_argument("--frames", type=int, required=True, help="train until this many frames in all")
    ap.add_argument("--state", default=None, help="the training state file (default OUT_DIR/dmc_state.pt)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--num-envs", type=int, default=DEFAULTS["num_envs"])
    ap.add_argument("--batch-size", type=int, default=DEFAULTS["batch_size"])
    ap.add_argument("--epsilon", type=float, default=DEFAULTS["epsilon"])
    ap.add_argument("--lr", type=float, default=DEFAULTS["lr"])
    ap.add_argument("--objective", choices=("wp", "adp"), default=DEFAULTS["objective"])
    ap.add_argument("--save-every", type=int, default=200_000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=None, help="stop (and save) after this long")
    ap.add_argument("--init", default=None,
                    help="a DouZero model folder whose weights start the networks when there is no "
                         "state to resume (e.g. src/ddz/neural/models/neural, the shipped model)")
    a = ap.parse_args(argv)
    try:
        r = dmc(a.out_dir, a.frames, state_path=a.state, seed=a.seed, num_envs=a.num_envs, batch_size=a.batch_size,
                epsilon=a.epsilon, lr=a.lr, objective=a.objective, save_every=a.save_every, threads=a.threads,
                seconds=a.seconds, init=a.init,
                log=lambda line: print(line, flush=True))
    except DdzError as e:
        print(f"ddz.train: {e}", file=sys.stderr)
        return 2
    print(f"{r['frames']:,} frames, {r['hands']:,} hands, {r['frames_per_second']:,.0f} frames/s this run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
