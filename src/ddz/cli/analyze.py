"""``ddz analyze``: a deal's value table, or where a recorded hand was lost (issue 41 item 4)."""

from __future__ import annotations

import argparse
import dataclasses
import json

from ..core.parallel import DEFAULT_TABLE_MB, table_mb_option
from ..core.rules import Rules
from ..errors import DdzError
from .options import _add_rules_options, _int_at_least, _non_negative, _positive, _rules


SHOWN_MOVES = 8
"""The table of ``--all-moves`` names this many plays per seat, then counts the rest (``--json``
lists every one)."""


def _positive_seconds(text: str) -> float:
    """An argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def add_parser(sub) -> None:
    """Register ``ddz analyze`` on the sub-parsers ``sub``."""
    p = sub.add_parser(
        "analyze", help="a deal's open-card value for each seat as landlord, or where a recorded hand was lost",
        description="For a deal before bidding (a seed, or the three hands and the bottom), solve the "
                    "open-card game with each seat as landlord (it takes the bottom cards and leads): "
                    "does the landlord win with every card face up, with which first play, and with "
                    "--score for what score (base 1, no bids or doubles; RULES.md §6). A seat not "
                    "solved within the limit is shown as unknown, never guessed. With --record FILE: "
                    "for every hand of a record file (ddz selfplay --out, ddz play --save), the first "
                    "move after which the landlord's open-card result changed.")
    p.add_argument("deal", nargs="*", metavar="SEED|DEAL",
                   help="a seed (as ddz selfplay/play --seed deal it), or the deal: four parts "
                        "HAND0 HAND1 HAND2 BOTTOM, or one HAND0/HAND1/HAND2/BOTTOM (rank or suited notation)")
    p.add_argument("--record", metavar="FILE", default=None,
                   help="analyse the hands of a record file instead (JSON, JSON list or JSON lines; - for "
                        "standard input): where each was lost by the open-card result")
    p.add_argument("--score", action="store_true", help="the score under best play too (costs 10-100x)")
    p.add_argument("--all-moves", action="store_true",
                   help="every winning first play proven within the limit (marked partial when the limit "
                        "stopped before every play was decided)")
    p.add_argument("--time-limit", type=_positive_seconds, default=None, metavar="S",
                   help="seconds per seat (default 10); with --record, per position searched (default 0.5)")
    p.add_argument("--budget", type=_positive_seconds, default=None, metavar="S",
                   help="with --record: seconds per hand in all (default 5)")
    p.add_argument("--node-limit", type=_positive, default=None, metavar="N",
                   help="positions per seat (with --record: per position searched)")
    p.add_argument("--threads", type=_non_negative, default=1, metavar="T",
                   help="threads per search (default 1; 0: every usable CPU)")
    p.add_argument("--table-mb", type=table_mb_option, default=DEFAULT_TABLE_MB, metavar="MB",
                   help=f"the most the transposition table grows to, MiB (default {DEFAULT_TABLE_MB}, "
                        "within the memory the system can give; shared by the threads)")
    p.add_argument("--json", action="store_true",
                   help="machine-readable output: one object (ddz.DealAnalysis.to_dict); with --record one "
                        "object per hand and line (ddz.RecordAnalysis.to_dict)")
    p.add_argument("--hand", type=_int_at_least(1, "a hand number >= 1"), default=None, metavar="K",
                   help="with --record: only the K-th hand of the file (1 = the first)")
    _add_rules_options(p)
    p.add_argument("--bottom-bonus", action="store_true", default=argparse.SUPPRESS,
                   help="the bottom cards multiply the score (RULES.md §6; needs a suited deal)")
    p.add_argument("--doubling-bombs", choices=("all", "beating", "six_plus"), default=argparse.SUPPRESS,
                   help="which played bombs double (RULES.md §6; --score needs all, the default)")
    p.set_defaults(func=cmd_analyze)


def _deal_arg(parts):
    """A seed (int) or the deal's parts of the positional arguments."""
    if len(parts) == 1 and "/" in parts[0]:
        parts = parts[0].split("/")
    if len(parts) == 1:
        try:
            seed = int(parts[0])
        except ValueError:
            raise DdzError(f"give a seed (an integer >= 0) or the deal (HAND0 HAND1 HAND2 BOTTOM, or "
                           f"HAND0/HAND1/HAND2/BOTTOM), not {parts[0]!r}") from None
        if seed < 0:
            raise DdzError(f"a seed is an integer >= 0, got {seed}")
        return seed
    if len(parts) != 4:
        raise DdzError(f"a deal is four parts (three hands and the bottom), got {len(parts)}: {' '.join(parts)!r}")
    return tuple(p.strip() for p in parts)


def _yes_no(wins) -> str:
    return "unknown" if wins is None else ("yes" if wins else "no")


def cmd_analyze(args) -> int:
    """`ddz analyze`: print a deal's value table, or the lost-at analysis of a record file.
    Returns the exit status (0; bad input raises DdzError: exit 2)."""
    # start-up time: `ddz` builds every command's parser; the solver and the game load only when run
    from ..search.analyze import analyze_deal
    if args.record is not None:
        return _cmd_record(args)
    if args.budget is not None or args.hand is not None:
        raise DdzError("--budget and --hand go with --record FILE")
    if not args.deal:
        raise DdzError("give a seed or a deal (HAND0 HAND1 HAND2 BOTTOM), or --record FILE")
    rules = _rules(args)
    result = analyze_deal(_deal_arg(args.deal), rules, score=args.score, all_moves=args.all_moves,
                          time_limit=10.0 if args.time_limit is None else args.time_limit,
                          node_limit=args.node_limit, threads=args.threads, table_mb=args.table_mb)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return 0
    d = result.deal.to_json()
    print(("seed " + str(result.seed) + ": " if result.seed is not None else "deal: ")
          + " / ".join(d["hands"]) + f"; bottom {d['bottom']}")
    if result.score:
        print(f"values: base 1, multiplier {result.multiplier} (no bids or doubles; a bid b with d doublings "
              f"scores value x b x 2**d)")
    head = ["seat", "landlord wins?", "best first play" if result.score else "first winning play"]
    head += ["value"] if result.score else []
    head += ["exact", "time"]
    rows = []
    for r in result.rows:
        play = r.move or "-"
        if result.all_moves and r.moves:
            shown = r.moves[:SHOWN_MOVES]
            more = f" and {len(r.moves) - len(shown)} more" if len(r.moves) > len(shown) else ""
            play = ", ".join(shown) + more + (" (partial)" if r.partial else "")
        elif result.all_moves and r.partial:
            play = "- (partial)"
        row = [str(r.seat), _yes_no(r.landlord_wins), play]
        row += ["-" if r.value is None else f"{r.value:+d}"] if result.score else []
        row += ["yes" if r.exact else "no", f"{r.seconds:.2f} s"]
        rows.append(row)
    widths = [max(len(x[i]) for x in [head] + rows) for i in range(len(head))]
    for row in [head] + rows:
        print("  ".join(x.ljust(w) for x, w in zip(row, widths)).rstrip())
    return 0


def _cmd_record(args) -> int:
    # start-up time: the solver, the game and the record reader load only when run
    from ..search.analyze import DEFAULT_MOVE_TIME_LIMIT, DEFAULT_RECORD_BUDGET, lost_at
    from .replay import _load_records
    if args.deal:
        raise DdzError(f"give a deal or --record FILE, not both ({' '.join(args.deal)!r} with --record)")
    given = [f.name for f in dataclasses.fields(Rules) if hasattr(args, f.name)]
    if given or args.profile is not None or args.score or args.all_moves:
        extra = [f"--{g.replace('_', '-')}" for g in given] + (["--profile"] if args.profile else [])
        extra += [o for o, v in (("--score", args.score), ("--all-moves", args.all_moves)) if v]
        raise DdzError(f"--record takes its rules from the record and finds the open-card result only; "
                       f"drop {', '.join(extra)}")
    if args.threads != 1:
        raise DdzError("--record searches one position at a time on one thread; drop --threads")
    hands = []
    for i, rec in enumerate(_load_records(args.record), 1):
        if isinstance(rec, dict) and rec.get("format") == "ddz-match" and isinstance(rec.get("games"), list):
            hands += [(f"record {i} hand {j}", g) for j, g in enumerate(rec["games"], 1)]
        else:
            hands.append((f"record {i}", rec))
    if args.hand is not None:
        if args.hand > len(hands):
            raise DdzError(f"--hand {args.hand}: {args.record!r} holds {len(hands)} hand(s)")
        hands = [hands[args.hand - 1]]
    for label, rec in hands:
        try:
            result = lost_at(rec, time_limit=args.time_limit or DEFAULT_MOVE_TIME_LIMIT,
                             budget=args.budget or DEFAULT_RECORD_BUDGET, node_limit=args.node_limit,
                             table_mb=args.table_mb)
        except DdzError as exc:
            raise type(exc)(f"{label}: {exc}") from None
        if args.json:
            print(json.dumps(dict(result.to_dict(), label=label), ensure_ascii=False))
            continue
        searched = sum(m.seconds for m in result.moves)
        print(f"{label}: landlord seat {result.landlord}, {len(result.moves) - 1} moves, "
              f"{len(result.moves) - len(result.unknown)} of {len(result.moves)} positions known "
              f"({searched:.2f} s searched)")
        print("  " + result.summary())
    return 0
