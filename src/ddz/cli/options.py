"""The options the commands share (rules, seeds, files, bots, solver limits, Ray) and the
checks of their values: bad input is an argparse error (exit status 2)."""

from __future__ import annotations

import argparse
import dataclasses
from typing import List, Optional, TextIO

from ..core.parallel import DEFAULT_TABLE_MB, table_mb_option
from ..core.rules import PROFILES, Rules
from ..errors import DdzError
from ..search import registry    # the bots' names and grammar: it imports nothing of the game


EXAMPLE_HAND = "3334445567899TJQKA22"  # a 20-card landlord hand: trios, chains, a pair of 2s


class _Version(argparse.Action):
    """``--version``: print :func:`ddz.version.version_text` on one line (argparse's own
    version action would wrap it) and exit 0."""

    def __call__(self, parser, namespace, values, option_string=None):
        from ..version import version_text   # start-up time: the version and the engine it names, for --version only
        print(version_text())
        parser.exit()


def _rules(args) -> Rules:
    """The Rules of the parsed options.

    The rule options have no argparse default (``argparse.SUPPRESS``): only the options
    given on the command line reach ``args``, and every other field keeps its default.
    With ``--profile NAME`` the rule set is ``Rules.profile(NAME)`` (RULES.md §2.5) and
    the options given explicitly override the profile's values, the move options it fixes
    included (``--profile openspiel --four-with-two``), so a profile is a starting point.

    :raises DdzError: a bad combination (e.g. a three-player option with ``--players 4``).
    """
    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(Rules) if hasattr(args, f.name)}
    name = getattr(args, "profile", None)
    if name is None:
        return Rules(**given)
    fixed = {k: given.pop(k) for k in list(given) if k in PROFILES[name]}
    return dataclasses.replace(Rules.profile(name, **given), **fixed)


class _Union(argparse.Action):
    """Each use of the option adds its set to the sets given before (not replacing them)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, frozenset(getattr(namespace, self.dest, None) or ()) | values)


def _play_types(text: str):
    """An argparse type: comma-separated play type names (``TRIO_PAIR,BOMB``)."""
    names = [t.strip().upper() for t in text.split(",") if t.strip()]
    try:
        return Rules(banned=names).banned
    except DdzError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_game_options(p: argparse.ArgumentParser) -> None:
    _add_rules_options(p)
    p.add_argument("--bidding", choices=("points", "rob"), default=argparse.SUPPRESS,
                   help="points: bid 1-3 (default); rob: call and rob (RULES.md §3)")
    p.add_argument("--doubling", action="store_true", default=argparse.SUPPRESS,
                   help="farmers may double, the landlord redouble (RULES.md §4)")
    p.add_argument("--bottom-bonus", action="store_true", default=argparse.SUPPRESS,
                   help="the bottom cards multiply the score (RULES.md §6)")
    p.add_argument("--first-bidder", choices=("random", "face_up"), default=argparse.SUPPRESS,
                   help="who bids first: drawn (default) or whoever receives the card turned face up (RULES.md §3)")
    p.add_argument("--bid-rounds", choices=("once", "until_passes"), default=argparse.SUPPRESS,
                   help="each player bids once (default), or round and round until two pass in a row after a bid")
    p.add_argument("--doubling-bombs", choices=("all", "beating", "six_plus"), default=argparse.SUPPRESS,
                   help="which played bombs double the score: all (default), beating (only one "
                        "played on another play) or six_plus (the rocket and bombs of 6+ cards) (RULES.md §6)")
    p.add_argument("--all-pass", choices=("redeal", "void"), default=argparse.SUPPRESS,
                   help="when everybody passes the auction: redeal (default, up to "
                        "--max-redeals times in a row, then the hand is void) or void at once "
                        "(RULES.md §3)")
    p.add_argument("--max-redeals", type=_int_at_least(0, "an integer >= 0"), default=argparse.SUPPRESS, metavar="N",
                   help="redeals in a row before a hand everybody passes is void (default 10)")


def _seed(text: str) -> int:
    """An argparse type: a seed, an integer 0 .. 2**64 - 1 (as ``ddz.Game`` takes: the deal
    stream's key, ``ddz.game.deal``)."""
    from ..core.arguments import seed_arg   # start-up time: ddz.core loads the compiled core; --help needs none
    try:
        return seed_arg(int(text))
    except (ValueError, DdzError):      # DdzError is a ValueError: both name the bound
        raise argparse.ArgumentTypeError(f"a seed is an integer 0 .. 2**64 - 1, got {text!r}") from None


def _out_file(text: str) -> str:
    """An argparse type: a file name to write, or ``-`` (never empty: an empty name
    used to be ignored silently)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"a file name is needed ('-' for standard output), got {text!r}")
    return text


def _open_output(path: str, flag: str, mode: str) -> TextIO:
    """Open ``path`` for writing (``mode`` ``"w"`` or ``"a"``) before any work starts, so
    that a file that cannot be written is refused at once, not after the hands are played.

    :raises DdzError: naming the option (``flag``) and the reason.
    """
    try:
        return open(path, mode, encoding="utf-8")
    except OSError as exc:
        raise DdzError(f"cannot write {flag} {path!r}: {exc.strerror or exc}") from None


def _seat_option(seat: int, flag: str, rules: Rules) -> int:
    """A seat option (``--seat``, ``--landlord``) checked against the number of players.

    :raises DdzError: not a seat of the game, naming ``flag``.
    """
    if not 0 <= seat < rules.seats:
        raise DdzError(f"{flag} {seat} is no seat of a {rules.seats}-player game (0..{rules.seats - 1})")
    return seat


def _save_file(text: str) -> str:
    """An argparse type: a file name to append records to (not empty)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"a file name is needed, got {text!r}")
    return text


def _int_at_least(low: int, name: str):
    """An argparse type: an integer >= ``low`` (``name`` describes it in errors)."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            n = low - 1
        if n < low:
            raise argparse.ArgumentTypeError(f"expected {name}, got {text!r}")
        return n
    return parse


_positive = _int_at_least(1, "a positive integer")
_non_negative = _int_at_least(0, "an integer >= 0")


def _add_rules_options(p: argparse.ArgumentParser) -> None:
    """``--profile`` and one option per move-deciding field of Rules (declared in its
    metadata), so a new move option reaches every command that computes moves. None has
    an argparse default: :func:`_rules` sees only what was given."""
    p.add_argument("--profile", type=str.lower, choices=Rules.profiles(), default=None, metavar="NAME",
                   help=f"start from another engine's rules, Rules.profile(NAME): "
                        f"{', '.join(Rules.profiles())} (RULES.md §2.5); the rule options given "
                        f"explicitly override the profile's values")
    for f in Rules.move_fields():
        flag = "--" + f.name.replace("_", "-")
        if "choices" in f.metadata:
            choices = f.metadata["choices"]
            p.add_argument(flag, choices=choices, default=argparse.SUPPRESS, type=type(choices[0]),
                           help=f"{f.metadata['help']}: {' or '.join(map(str, choices))} (default {f.default})")
        elif isinstance(f.default, bool):   # on/off: both spellings, so either overrides a profile
            p.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS,
                           help=f"{f.metadata['help']} (default {'on' if f.default else 'off'})")
        else:  # a set of play types: repeated options add up
            p.add_argument(flag, type=_play_types, default=argparse.SUPPRESS, metavar="TYPE[,TYPE]",
                           action=_Union,
                           help=f"{f.metadata['help']}, e.g. TRIO_PAIR,FOUR_TWO_SINGLES; may be "
                                f"repeated (default none)")


def split_bot_specs(text: str) -> List[str]:
    """One bot spec per seat from ``--bots``' text: specs separated by commas, where a piece
    ``key=value`` with no ``:`` continues the options of the spec before it
    (``expert:samples=4,threshold=20,greedy,random`` is three bots)."""
    specs: List[str] = []
    for piece in text.split(","):
        piece = piece.strip()
        if specs and "=" in piece and ":" not in piece.partition("=")[0]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def _one_bot(text: str) -> str:
    """A bot spec of ``--bot``/``--bots`` (read, not yet imported: ddz.search.registry)."""
    try:
        spec = registry.parse_spec(text)
    except DdzError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if spec.kind == "protocol":
        raise argparse.ArgumentTypeError(f"{text!r}: protocol programs play in ddz arena; here give a bot "
                                         f"name ({', '.join(registry.names())}) or py:module:Class")
    return spec.text


def _bot_names(text: str) -> List[str]:
    specs = split_bot_specs(text)
    if len(specs) not in (1, 3, 4):
        raise argparse.ArgumentTypeError(
            f"--bots takes one bot for every seat, or one per seat (3, or 4 with --players 4) separated by commas: "
            f"{', '.join(registry.names())}, with options as name:key=value, or py:module:Class; got {text!r}")
    return [_one_bot(t) for t in specs]


def bot_names_help() -> str:
    """The registered names for a help text."""
    names = registry.names()
    return f"{', '.join(names[:-1])} or {names[-1]}"


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _add_ray_options(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--ray", action="store_true",
                   help=f"fan the {what} out over Ray tasks (pip install 'ddz[ray]'); the output "
                        "is the same as without it")
    p.add_argument("--workers", type=_non_negative, default=None, metavar="N",
                   help="with --ray: Ray workers, at most N tasks at a time (default or 0: every "
                        "usable CPU; at most the work there is); a local cluster of N CPUs (at most "
                        "this machine's) is started unless Ray runs already")


def _add_solve_options(p: argparse.ArgumentParser, each: str, threads_help: str, json_help: str) -> None:
    """The options of ``ddz solve`` and ``ddz solve-many`` (``each``: whose limits)."""
    p.add_argument("--score", action="store_true", help="the score under best play (bombs, spring)")
    p.add_argument("--all", action="store_true", help="every winning (best) move, not only one")
    p.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help=f"stop{each} after S seconds (answer: unknown)")
    p.add_argument("--node-limit", type=_positive, default=None, metavar="N",
                   help=f"stop{each} after N positions searched")
    p.add_argument("--threads", type=_non_negative, default=1, metavar="T", help=threads_help)
    p.add_argument("--table-mb", type=table_mb_option, default=DEFAULT_TABLE_MB, metavar="MB",
                   help=f"the most the transposition table grows to, MiB (default {DEFAULT_TABLE_MB}, "
                        "within the memory the system can give; shared by the threads)")
    p.add_argument("--json", action="store_true", help=json_help)


def _solve_kwargs(args) -> dict:
    """The keywords of :func:`ddz.solve` that the options of :func:`_add_solve_options` give."""
    return dict(score=args.score, all_moves=args.all, node_limit=args.node_limit,
                time_limit=args.time_limit, threads=args.threads, table_mb=args.table_mb)


def _ray_workers(args) -> Optional[int]:
    """The ``workers`` of :mod:`ddz.distributed` for ``--ray``/``--workers`` (with
    ``ray=args.ray``; ``None`` with ``--ray``: the CPU count)."""
    if args.workers is not None and not args.ray:
        raise DdzError("--workers needs --ray (without it everything runs in this process)")
    return args.workers if args.ray else None
