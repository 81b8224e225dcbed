"""``ddz solve`` and ``ddz solve-many``: the endgame solver on the command line."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Optional

from ..errors import DdzError
from .options import _ray_workers, _rules, _solve_kwargs


def _solution_json(pos, sol, interrupted_after: Optional[int] = None) -> dict:
    """``ddz solve --json``'s object; ``sol=None`` with ``interrupted_after=N``: Ctrl-C
    stopped the search after about N positions (no answer, no ``seconds``)."""
    if sol is None:
        return {"position": str(pos), "exact": False, "interrupted": True, "landlord_wins": None,
                "win": None, "moves": [], "pv": [], "value": None, "nodes": interrupted_after}
    return {"position": str(pos), "exact": sol.exact, "interrupted": False, "landlord_wins": sol.landlord_wins,
            "win": sol.win, "moves": [str(m) for m in sol.moves],
            "pv": [str(m) for m in sol.pv], "value": sol.value, "nodes": sol.nodes,
            "seconds": round(sol.seconds, 6)}


def cmd_solve_many(args) -> int:
    """`ddz solve-many FILE`: solve a file of positions (issue 13), one output line each,
    in the order of the file. Returns the exit status."""
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    from ..distributed import solve_many
    from ..game.position import Position
    workers = _ray_workers(args)
    try:
        if args.file == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(args.file, encoding="utf-8") as f:
                lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DdzError(f"cannot read {args.file!r}: {getattr(exc, 'strerror', None) or exc}") from None
    positions = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            positions.append(Position.parse(text))
        except DdzError as exc:
            raise type(exc)(f"{args.file} line {number}: {exc}") from None
    if not positions:
        raise DdzError(f"{args.file} holds no position (one per line, e.g. 'KK5543/225543')")
    start = time.perf_counter()
    sols = solve_many(positions, workers=workers, ray=args.ray, **_solve_kwargs(args))
    elapsed = time.perf_counter() - start
    for pos, sol in zip(positions, sols):
        if args.json:
            print(json.dumps(_solution_json(pos, sol), ensure_ascii=False))
            continue
        if not sol.exact:
            answer = f"unknown (stopped after {sol.nodes:,} positions)"
        else:
            side = "landlord" if pos.to_move == pos.landlord else "farmer"
            answer = f"the {side} to move {'wins' if sol.win else 'loses'}"
            if sol.value is not None:
                answer += f", score {sol.value:+d}"
            if sol.moves:
                answer += ("; best moves " if args.all else "; best move ") + ", ".join(map(str, sol.moves))
        print(f"{pos}: {answer}")
    if not args.json:
        print(f"{len(sols)} positions, {sum(s.nodes for s in sols):,} nodes searched, {elapsed:.3f} s"
              + (f" (Ray, {workers or os.cpu_count()} workers)" if args.ray else ""), file=sys.stderr)
    return 0


PROGRESS_AFTER = 1.0
"""`ddz solve` shows its progress line on stderr (when it is a terminal) once a solve has
run this many seconds."""


def _solve_position(args):
    """The position of ``ddz solve``'s arguments: hands one per argument with the options,
    or the one-line form that ``--json`` prints and ``solve-many`` reads
    (``KK5543/225543 landlord=1``, quoted or not), whose fields then come from the text
    only; rule options still apply when the text names no rule."""
    from ..game.position import Position    # start-up time: the game only when solving
    if not any("/" in h for h in args.hands):
        return Position(args.hands, landlord=0 if args.landlord is None else args.landlord, to_move=args.to_move,
                        to_beat=args.to_beat, last_player=args.last, rules=_rules(args))
    given = [o for o, v in (("--landlord", args.landlord is not None), ("--to-move", args.to_move is not None),
                            ("--to-beat", args.to_beat is not None), ("--last", args.last is not None)) if v]
    if given:
        raise DdzError(f"give the position as hands with options or as one line "
                       f"(HAND/HAND[/HAND] key=value ...), not both: {', '.join(given)} with {' '.join(args.hands)!r}")
    pos = Position.parse(" ".join(args.hands))
    rules = _rules(args)
    if rules == pos.rules:
        return pos
    if pos.rules != type(rules)():
        raise DdzError(f"the position's text names its rules ({pos.rules!r}); give rule options "
                       "or rule fields in the text, not both")
    return Position(pos.hands, landlord=pos.landlord, to_move=pos.to_move,
                    to_beat=None if pos.to_beat is None else str(pos.to_beat), last_player=pos.last_player,
                    rules=rules, base=pos.base, multiplier=pos.multiplier,
                    landlord_plays=pos.landlord_plays, farmers_played=pos.farmers_played)


def cmd_solve(args) -> int:
    """`ddz solve`: solve a perfect-information endgame (issue 12). Returns the exit status:
    0, or 130 when Ctrl-C stopped the search (then it prints ``interrupted: no answer (not
    exact) after about N positions`` on stderr, and under ``--json`` an object with
    ``"interrupted": true`` on stdout)."""
    from .. import cli   # looked up per call on the package (tests replace its helpers); at the top: a cycle
    from ..search.solver import solve
    pos = _solve_position(args)
    shown = [False]
    seen = [0]
    redraw = cli._isatty(sys.stderr)        # a redrawn line (\r) only on a terminal: in a log it is noise

    def progress(nodes, seconds):
        seen[0] = nodes
        if redraw and seconds >= PROGRESS_AFTER:
            shown[0] = True
            print(f"\rsolving: {nodes:,} positions, {seconds:.1f} s", end="", file=sys.stderr, flush=True)

    try:
        try:
            sol = solve(pos, progress=progress, **_solve_kwargs(args))
        finally:
            if shown[0]:
                print(file=sys.stderr)
    except KeyboardInterrupt as exc:
        # Ctrl-C: the search has stopped (ddz.solve cancelled it); no answer, no traceback
        nodes = getattr(exc, "nodes", seen[0])
        if args.json:
            print(json.dumps(_solution_json(pos, None, nodes), ensure_ascii=False))
        print(f"interrupted: no answer (not exact) after about {nodes:,} positions", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(_solution_json(pos, sol), ensure_ascii=False))
        return 0
    print(f"position: {pos}")
    if not sol.exact:
        print(f"unknown: stopped by the limit after {sol.nodes:,} positions ({sol.seconds:.3f} s)")
        return 0
    print(f"seat {pos.to_move} ({'the landlord' if pos.to_move == pos.landlord else 'a farmer'}) to move "
          f"{'wins' if sol.win else 'loses'}; the landlord {'wins' if sol.landlord_wins else 'loses'}")
    if sol.value is not None:
        print(f"score: {sol.value:+d} (landlord's side); settlement {' '.join(f'{v:+d}' for v in sol.scores)}")
    if sol.moves:
        print(("best moves: " if args.all else "best move: ") + ", ".join(str(m) for m in sol.moves))
    print("line: " + " ".join(str(m) for m in sol.pv))
    print(f"{sol.nodes:,} positions, {sol.seconds:.3f} s")
    return 0
