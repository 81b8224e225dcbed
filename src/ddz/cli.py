"""The ``ddz`` command line (argparse).

Each sub-command is a function ``cmd_NAME(args) -> int`` registered in :func:`build_parser`.
Bad input prints ``ddz: error: ...`` to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
from typing import List, Optional, TextIO

from ._info import version_text
from .errors import DdzError
from .rules import _PROFILES, Rules

EXAMPLE_HAND = "3334445567899TJQKA22"  # a 20-card landlord hand: trios, chains, a pair of 2s


class _Version(argparse.Action):
    """``--version``: print :func:`ddz._info.version_text` on one line (argparse's own
    version action would wrap it) and exit 0."""

    def __call__(self, parser, namespace, values, option_string=None):
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
    fixed = {k: given.pop(k) for k in list(given) if k in _PROFILES[name]}
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
    """An argparse type: a seed, an integer >= 0 (as ``ddz.Game`` takes: a negative seed
    would deal what its opposite deals)."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is an integer >= 0, got {text!r}") from None
    if seed < 0:
        raise argparse.ArgumentTypeError(f"a seed is an integer >= 0, got {text!r}")
    return seed


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


def cmd_moves(args) -> int:
    """`ddz moves`: list (or count) the legal moves of a hand (RULES.md §2.3). Returns the exit status."""
    from . import moves
    rules = _rules(args)
    hand = args.hand if args.hand is not None else EXAMPLE_HAND
    if args.hand is None and not args.json:
        # a notice, not output: stdout stays machine-readable (e.g. with --count)
        print(f"(no HAND given: using the example hand {hand})", file=sys.stderr)
    if args.count:
        n = moves.count_legal_moves(hand, args.to_beat, rules)
        print(json.dumps(n) if args.json else n)
        return 0
    found = moves.legal_moves(hand, args.to_beat, rules)
    if args.json:
        print(json.dumps([{"play": str(p), "type": p.type.name, "rank": p.rank,
                           "length": p.length} for p in found]))
        return 0
    width = max((len(p.type.name) for p in found), default=4)
    for p in found:
        print(f"{p.type.name:<{width}}  {p}")
    print(f"{len(found)} legal move{'s' if len(found) != 1 else ''}")
    return 0


def cmd_classify(args) -> int:
    """`ddz classify`: name the play some cards form (RULES.md §2). Returns the exit status."""
    from . import moves
    play = moves.classify(args.cards, _rules(args))
    if args.json:
        print(json.dumps({"play": str(play), "type": play.type.name, "rank": play.rank,
                          "length": play.length}))
    else:
        print(f"{play.type.name} {play}")
    return 0


def cmd_beats(args) -> int:
    """`ddz beats`: does one play beat another (RULES.md §2.2)? Returns the exit status."""
    from . import moves
    from .play import Play
    rules = _rules(args)
    answer = moves.beats(args.play, args.other, rules)  # checks both plays (exit 2 if bad)
    if args.json:
        print(json.dumps({"play": str(Play.parse(args.play, rules)),
                          "other": str(Play.parse(args.other, rules)), "beats": answer}))
    else:
        print("yes" if answer else "no")
    return 0


# -- the game: selfplay, play, replay, perft -------------------------------------------

def _bot_names(text: str) -> List[str]:
    from .bots import BOTS
    names = [t.strip().lower() for t in text.split(",")]
    if len(names) not in (3, 4) or any(n not in BOTS for n in names):
        raise argparse.ArgumentTypeError(
            f"--bots takes one name per seat (3, or 4 with --players 4) from {', '.join(BOT_NAMES)} "
            f"separated by commas, got {text!r}")
    return names


BOT_NAMES = ("greedy", "random", "solver")
"""The bots that ``--bots``/``--bot`` offer: the names of ``ddz.bots.BOTS`` (a test checks
that they agree; written out so that building the parser imports no game code)."""


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def cmd_selfplay(args) -> int:
    """`ddz selfplay`: bots play N hands; print a summary. Returns the exit status (130
    after Ctrl-C, with the hands finished so far written and summarised).

    The hands are :func:`ddz.distributed.selfplay`'s: hand ``i`` depends only on the seed
    and ``i``, so ``--ray --workers N`` writes the same records as one process."""
    from ._compiled import engine_note
    from .distributed import _iter_units
    from .terminal import progress_bar
    rules = _rules(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    names = args.bots or ["greedy"] + ["random"] * (rules.seats - 1)
    if len(names) != rules.seats:
        raise DdzError(f"--bots names {len(names)} bots, but {rules.seats} players play (--players {rules.seats})")
    args.bots = names
    workers = _ray_workers(args)
    records = _iter_units(args.games, seed, workers, names, rules, None, args.match, args.ray,
                          "summary" if args.out is None else "line")
    out = None
    to_stdout = args.out == "-"        # records on stdout, so the summary goes to stderr
    if to_stdout:
        out = sys.stdout
    elif args.out is not None:
        out = _open_output(args.out, "--out", "w")
    n = args.games
    done = hands = wins = voids = redeals = bombs = rockets = springs = antis = 0
    totals = [0] * rules.seats
    match_wins = [0] * rules.seats      # matches won outright
    match_shared = [0] * rules.seats    # tied matches in which the seat shared the top total
    ties = 0
    interrupted = False
    progress = progress_bar(n, "selfplay", sys.stderr, not args.quiet and _isatty(sys.stderr))
    start = time.perf_counter()
    try:
        for line, summary in records:
            if out is not None:
                try:
                    out.write(line + "\n")  # one write per record: Ctrl-C never splits a line
                except OSError as exc:
                    raise DdzError(f"cannot write --out {args.out!r}: {exc.strerror or exc}") from None
            done += 1                   # right after the write: the file holds `done` records
            n_hands, n_wins, n_voids, n_redeals, n_bombs, n_rockets, n_springs, n_antis, scores, winners = summary
            hands += n_hands
            wins += n_wins
            voids += n_voids
            redeals += n_redeals
            bombs += n_bombs
            rockets += n_rockets
            springs += n_springs
            antis += n_antis
            for s_, v in enumerate(scores):
                totals[s_] += v
            if len(winners) == 1:
                match_wins[winners[0]] += 1
            elif winners:               # the highest total shared: a tie, no seat's win
                ties += 1
                for s_ in winners:
                    match_shared[s_] += 1
            progress.advance()
    except KeyboardInterrupt:           # Ctrl-C: keep what is finished, and summarise it
        interrupted = True
    finally:
        records.close()                 # with Ray: cancels the tasks still running
        progress.close()
        if out is not None and not to_stdout:
            try:
                out.close()
            except OSError as exc:
                raise DdzError(f"cannot write --out {args.out!r}: {exc.strerror or exc}") from None
    elapsed = time.perf_counter() - start
    per = max(hands, 1)
    unit_name = "matches" if args.match else "hands"
    rows = [
        (unit_name, f"{done}" + (f" of {n} (interrupted)" if interrupted else "")
         + (f" of {args.match} hands each ({hands} hands)" if args.match else "")),
        ("seed", f"{seed}"),
        ("rules", _rules_summary(rules)),
        ("engine", engine_note() + (f"; Ray, {workers or os.cpu_count()} workers" if args.ray else "")),
        ("landlord win rate", f"{wins / per:.1%}"),
    ]
    for s_ in range(rules.seats):
        rows.append((f"mean score seat {s_} ({args.bots[s_]})", f"{totals[s_] / per:+.3f}"))
    rows += [
        ("bombs per hand", f"{bombs / per:.3f}"),
        ("rockets per hand", f"{rockets / per:.3f}"),
        ("springs per hand", f"{springs / per:.3f}"),
        ("anti-springs per hand", f"{antis / per:.3f}"),
        ("redeals per hand", f"{redeals / per:.3f}"),
        ("void hands", f"{voids}"),
        ("hands per second", f"{hands / max(elapsed, 1e-9):,.0f}"),
    ]
    if args.match:   # outright wins and tied matches add up to the matches played
        rows[5:5] = [(f"match wins seat {s_} ({args.bots[s_]})", f"{match_wins[s_]} of {done}"
                      + (f" (and {match_shared[s_]} tied)" if match_shared[s_] else ""))
                     for s_ in range(rules.seats)] + [("tied matches", f"{ties} of {done} (the highest total shared)")]
    if out is not None:
        rows.append(("records written to", ("standard output" if to_stdout else args.out)
                     + (f" ({done} finished {unit_name})" if interrupted else "")))
    width = max(len(k) for k, _ in rows)
    summary = sys.stderr if to_stdout else sys.stdout
    for k, v in rows:
        print(f"{k:<{width}}  {v}", file=summary)
    if interrupted:
        summary.flush()
        print(f"ddz: interrupted after {done} of {n} {unit_name}", file=sys.stderr)
        return 130
    return 0


def _rules_summary(rules: Rules) -> str:
    """The rules in the self-play summary: the players, then only the fields that differ
    from that game's defaults (``Rules()``, or ``Rules.four_player()`` with four players),
    e.g. ``3 players, kickers=repeat doubling=True``."""
    default = (Rules.four_player() if rules.players == 4 else Rules()).to_json()
    changed = [f"{k}={','.join(v) if isinstance(v, list) else v}"
               for k, v in rules.to_json().items() if k != "players" and v != default[k]]
    return f"{rules.players} players, " + (" ".join(changed) if changed else "the default rules")


def cmd_play(args, stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None) -> int:
    """`ddz play`: a person against bots (two, or three with ``--players 4``) at a table in
    the terminal (:class:`ddz.terminal.PlaySession`). ``--save FILE`` is opened for
    appending before the first hand (and closed again), so that a path that cannot be
    written is an error at once. Returns the exit status."""
    from .terminal import PlaySession
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    rules = _rules(args)
    _seat_option(args.seat, "--seat", rules)
    if args.save is not None:           # refused now, not after the hand (appending nothing changes no file)
        _open_output(args.save, "--save", "a").close()
    session = PlaySession(rules, args.seat, args.bot, seed, stdin or sys.stdin, stdout or sys.stdout,
                          auto_pass=args.auto_pass, save=args.save, hands=args.hands)
    return session.run()


def _load_records(path: str) -> list:
    try:
        if path == "-":                     # standard input, e.g. `ddz selfplay --out - | ddz replay -`
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except UnicodeDecodeError as exc:
        raise DdzError(f"{path!r} is not UTF-8 text (byte {exc.start}: {exc.reason}); "
                       f"records are JSON") from None
    except OSError as exc:
        raise DdzError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    stripped = text.strip()
    if not stripped:
        raise DdzError(f"{path!r} is empty")
    try:
        data = _json(stripped)
        if data == []:
            raise DdzError(f"{path!r} holds an empty list: no records")
        return data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        pass
    except ValueError as exc:  # too deep, or an integer too long for int()
        raise DdzError(f"{path!r} is not a record file: {exc}") from None
    records = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(_json(line))
        except json.JSONDecodeError as exc:
            raise DdzError(f"{path!r} line {n} is not JSON: {exc.msg}") from None
        except ValueError as exc:
            raise DdzError(f"{path!r} line {n} is not a record: {exc}") from None
    return records


def _json(text: str):
    """``json.loads``, with nesting too deep for the parser as a ValueError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def cmd_replay(args) -> int:
    """`ddz replay`: check game records and summarise them (``-v``: a line per hand;
    ``-vv``: also its deal and actions). Returns the exit status."""
    from ._compiled import engine_note
    from .errors import RecordError
    from .game import Game
    from .match import MATCH_FORMAT, Match
    from .terminal import progress_bar
    records = _load_records(args.file)
    verbose = args.verbose
    n = len(records)
    finished = voids = unfinished = redeals = lord_wins = matches = 0
    totals: list = []                  # per seat; four-player records add a fourth

    def hands():
        """(label, Game) of every hand: a hand record, or each hand of a match record."""
        nonlocal matches
        for i, rec in enumerate(records, 1):
            is_match = isinstance(rec, dict) and rec.get("format") == MATCH_FORMAT
            try:
                if is_match:
                    m = Match.from_record(rec)
                    matches += 1
                    if verbose:
                        won = ", ".join(map(str, m.winners)) or "none yet"
                        print(f"match {i}: {m.hands_played} of {m.hands} hands, totals "
                              f"{' '.join(f'{v:+d}' for v in m.totals)}, winners {won}")
                    for k, g in enumerate(m.games, 1):
                        yield f"match {i} hand {k}", g
                else:
                    yield f"hand {i}", Game.from_record(rec)
            except RecordError as exc:
                raise RecordError(f"{'match' if is_match else 'hand'} {i} of {args.file!r}: {exc}") from None
            progress.advance()

    progress = progress_bar(n, "replay", sys.stderr, not verbose and _isatty(sys.stderr))
    try:
        for label, game in hands():
            r = game.result
            redeals += game.redeals
            if r is None:
                unfinished += 1
            elif r.void:
                voids += 1
            else:
                finished += 1
                lord_wins += r.winner == "landlord"
                totals += [0] * (len(r.scores) - len(totals))
                for s_, v in enumerate(r.scores):
                    totals[s_] += v
            if not verbose:
                continue
            head = f"{label}: seed {game.seed}"
            if game.redeals:
                head += f", {game.redeals} redeal{'s' if game.redeals > 1 else ''}"
            if r is None:
                print(head + f": not finished ({len(game.actions)} actions, phase {game.phase})")
            elif r.void:
                print(head + f": void ({r.void}), scores {' '.join('+0' for _ in r.scores)}")
            else:
                print(head + f": landlord seat {r.landlord} (base {r.base}), {r.winner} win, "
                      f"S = {r.score}, scores {' '.join(f'{v:+d}' for v in r.scores)}")
            if verbose < 2:
                continue
            d = game.deal.to_json()
            for s_, hand in enumerate(d["hands"]):
                print(f"  seat {s_}: {hand}")
            print(f"  bottom: {d['bottom']}")
            print("  " + ", ".join(f"{a['seat']}:{a['action']}" for a in game.to_record()["actions"]))
    finally:
        progress.close()
    total = finished + voids + unfinished
    rows = [("hands", f"{total} ({finished} played out, {voids} void, {unfinished} unfinished)"),
            ("redeals", f"{redeals}"),
            ("landlord wins", f"{lord_wins} of {finished}"),
            ("score totals", " ".join(f"seat {s_} {v:+d}" for s_, v in enumerate(totals))),
            ("engine", engine_note())]
    if matches:
        rows.insert(0, ("matches", f"{matches}"))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    print(f"{total} hand{'s' if total != 1 else ''} replayed and checked"
          + (f" ({matches} match{'es' if matches != 1 else ''})" if matches else ""))
    return 0


def cmd_perft(args) -> int:
    """`ddz perft`: leaves of the play-phase legal-move tree of a deal. Returns the exit status."""
    from .game import Game
    from .movetree import divide, perft
    rules = _rules(args)
    _seat_option(args.landlord, "--landlord", rules)
    deal = tuple(args.deal) if args.deal else None
    if deal is not None and len(deal) != rules.seats + 1:
        raise DdzError(f"--deal takes {rules.seats} hands and the bottom ({rules.seats + 1} parts), got {len(deal)}")
    game = Game(rules, seed=args.seed if args.seed is not None else 0, deal=deal,
                first_bidder=args.landlord)
    game.step(3)
    while game.phase.value in ("doubling", "opening"):
        game.step(False)
    d = game.deal.to_json()
    print(f"landlord seat {args.landlord}; hands: {' / '.join(d['hands'])}; bottom {d['bottom']}")
    perft(game, 1)  # builds the rule set's move tables outside the timing
    start = time.perf_counter()
    if args.divide:
        rows = divide(game, args.depth)
        for play, count in rows:
            print(f"{str(play):<16} {count}")
        total = sum(c for _, c in rows)
    else:
        total = perft(game, args.depth)
    elapsed = time.perf_counter() - start
    print(f"perft({args.depth}) = {total}  ({elapsed:.3f} s, {total / max(elapsed, 1e-9):,.0f} nodes/s)")
    return 0


def _add_ray_options(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--ray", action="store_true",
                   help=f"fan the {what} out over Ray tasks (pip install 'ddz[ray]'); the output "
                        "is the same as without it")
    p.add_argument("--workers", type=_positive, default=None, metavar="N",
                   help="with --ray: Ray workers, at most N tasks at a time (default: the CPU "
                        "count); a local cluster of N CPUs is started unless Ray runs already")


def _add_solve_options(p: argparse.ArgumentParser, each: str, threads_help: str, json_help: str) -> None:
    """The options of ``ddz solve`` and ``ddz solve-many`` (``each``: whose limits)."""
    p.add_argument("--score", action="store_true", help="the score under best play (bombs, spring)")
    p.add_argument("--all", action="store_true", help="every winning (best) move, not only one")
    p.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help=f"stop{each} after S seconds (answer: unknown)")
    p.add_argument("--node-limit", type=_positive, default=None, metavar="N",
                   help=f"stop{each} after N positions searched")
    p.add_argument("--threads", type=_positive, default=1, metavar="T", help=threads_help)
    p.add_argument("--table-mb", type=float, default=64, metavar="MB",
                   help="transposition table, MiB (default 64; shared by the threads)")
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
    from .distributed import solve_many
    from .position import Position
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
    from .position import Position
    if not any("/" in h for h in args.hands):
        return Position(args.hands, landlord=args.landlord, to_move=args.to_move, to_beat=args.to_beat,
                        last_player=args.last, rules=_rules(args))
    given = [o for o, v in (("--landlord", args.landlord != 0), ("--to-move", args.to_move is not None),
                            ("--to-beat", args.to_beat is not None), ("--last", args.last is not None)) if v]
    if given:
        raise DdzError(f"give the position as hands with options or as one line "
                       f"(HAND/HAND[/HAND] key=value ...), not both: {', '.join(given)} with {' '.join(args.hands)!r}")
    pos = Position.parse(" ".join(args.hands))
    rules = _rules(args)
    if rules == pos.rules:
        return pos
    if pos.rules != Rules():
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
    from .solver import solve
    pos = _solve_position(args)
    shown = [False]
    seen = [0]
    redraw = _isatty(sys.stderr)        # a redrawn line (\r) only on a terminal: in a log it is noise

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


def build_parser() -> argparse.ArgumentParser:
    """The ``ddz`` argument parser, one sub-parser per command."""
    parser = argparse.ArgumentParser(
        prog="ddz", description="Dou Dizhu (斗地主) rules engine. Cards: 3..9 T J Q K A 2 B R.")
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="print the version, the active implementation (core or reference) "
                             "and whether OpenMP is on, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("moves", help="list the legal moves of a hand",
                       description="List every legal move of HAND (RULES.md §2.3).")
    p.add_argument("hand", nargs="?", metavar="HAND",
                   help=f"cards in notation, e.g. 33344456 (default: the example {EXAMPLE_HAND})")
    p.add_argument("--to-beat", metavar="PLAY", default=None,
                   help="the play to beat, e.g. 555+8 (default: leading)")
    p.add_argument("--count", action="store_true", help="print only how many moves")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _add_rules_options(p)
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("classify", help="name the play some cards form",
                       description="Classify CARDS as a play (RULES.md §2).")
    p.add_argument("cards", metavar="CARDS")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _add_rules_options(p)
    p.set_defaults(func=cmd_classify)

    p = sub.add_parser("beats", help="does one play beat another?",
                       description="Answer whether PLAY may be played on OTHER (RULES.md §2.2): "
                                   "prints yes or no and exits 0; a PLAY or OTHER that is not "
                                   "a play exits 2.")
    p.add_argument("play", metavar="PLAY", help="the response, e.g. 3333 (pass beats nothing)")
    p.add_argument("other", metavar="OTHER", help="the play to beat, e.g. 444456")
    p.add_argument("--json", action="store_true",
                   help='machine-readable output: {"play", "other", "beats"}')
    _add_rules_options(p)
    p.set_defaults(func=cmd_beats)

    p = sub.add_parser("selfplay", help="bots play complete hands; print a summary",
                       description="Play N complete hands (RULES.md §3-§7) between bots (three, or "
                                   "four with --players 4) "
                                   "and print a summary: landlord win rate, mean score per "
                                   "seat, bombs and springs per hand, hands per second.")
    p.add_argument("--games", type=_positive, default=1000, metavar="N",
                   help="number of hands, or of matches with --match (default 1000)")
    p.add_argument("--match", type=_positive, default=None, metavar="H",
                   help="play matches of H hands (RULES.md §6) instead of single hands; records are match records")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="seed for the deals and the bots (default: random, printed)")
    p.add_argument("--bots", type=_bot_names, default=None,
                   metavar="A,B,C[,D]", help=f"bots of seats 0,1,2 (and 3 with --players 4): "
                                             f"{', '.join(BOT_NAMES[:-1])} or {BOT_NAMES[-1]} "
                                             f"(default greedy, then random)")
    p.add_argument("--out", metavar="FILE", default=None, type=_out_file,
                   help="write every hand's record to FILE as JSON lines (see docs/records.md); "
                        "'-' for standard output (the summary then goes to standard error)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (shown only on a terminal)")
    _add_ray_options(p, "hands")
    _add_game_options(p)
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("play", help="play hands in the terminal against bots",
                       description="Play hands against bots (two, or three with --players 4) "
                                   "at a table that shows every "
                                   "seat's role and cards left, the bid and the multiplier; "
                                   "your hand is grouped by rank. Type bids and plays in "
                                   "notation (333+4, BR, pass); '?' lists every legal move; "
                                   "illegal input is explained and asked again. After each "
                                   "hand: every hand left is shown, and you may save the "
                                   "record or play again.")
    p.add_argument("--hands", type=_positive, default=None, metavar="H",
                   help="play a match of H hands (RULES.md §6: totals add up, the highest wins)")
    p.add_argument("--seat", type=int, choices=(0, 1, 2, 3), default=0,
                   help="your seat (default 0; 3 only with --players 4)")
    p.add_argument("--seed", type=_seed, default=None, metavar="S", help="seed of the deal")
    p.add_argument("--bot", choices=BOT_NAMES, default="greedy",
                   help=f"the opponents' bot: {', '.join(BOT_NAMES[:-1])} or {BOT_NAMES[-1]} (default greedy)")
    p.add_argument("--auto-pass", action=argparse.BooleanOptionalAction, default=True,
                   help="pass for you when nothing in your hand beats the play to beat "
                        "(default on; --no-auto-pass asks anyway)")
    p.add_argument("--save", metavar="FILE", type=_save_file, default=None,
                   help="append every finished hand's record to FILE (JSON lines, for ddz replay); "
                        "a FILE that cannot be written is refused before the first hand")
    _add_game_options(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="check game records and summarise them",
                       description="Replay every record of FILE (one JSON record, a JSON list "
                                   "of records, or JSON lines), checking every action, and "
                                   "print a summary: hands, void and unfinished ones, score "
                                   "totals (a progress bar on a terminal). Exit status 2 "
                                   "names the first bad action.")
    p.add_argument("file", metavar="FILE", help="a JSON or JSON-lines file of records; - for standard input")
    p.add_argument("-v", "--verbose", action="count", default=0,
                   help="a line per hand; twice (-vv): also its deal and actions")
    p.add_argument("--brief", action="store_true", help=argparse.SUPPRESS)  # the default now
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("perft", help="count the nodes of the legal-move tree",
                       description="Count the leaves of the play-phase legal-move tree to "
                                   "DEPTH plies (passes included) from a deal whose landlord "
                                   "bid 3, as chess engines do; --divide prints each first "
                                   "move's count.")
    p.add_argument("--depth", type=_non_negative, default=2, metavar="D", help="plies (default 2)")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="deal from this seed (default 0)")
    p.add_argument("--deal", nargs="+", metavar="PART",
                   help="the deal instead of a seed: each hand, then the bottom (rank or suited notation)")
    p.add_argument("--landlord", type=int, choices=(0, 1, 2, 3), default=0,
                   help="the landlord's seat (default 0)")
    p.add_argument("--divide", action="store_true", help="print each first move's count")
    _add_rules_options(p)
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("solve", help="solve an endgame with every hand open",
                       description="Solve a perfect-information endgame (two or three hands, "
                                   "RULES.md §5): who wins under best play, a winning move and "
                                   "the line of play; --score for the score (§6). Ctrl-C stops "
                                   "a long solve cleanly.")
    p.add_argument("hands", nargs="+", metavar="HAND", help="two or three hands in seat order, e.g. KK5543 225543; or a "
                        "position's one-line form, e.g. '3/4/5 to_move=1 to_beat=33 last=0'")
    p.add_argument("--landlord", type=int, default=0, metavar="SEAT", help="the landlord's seat (default 0)")
    p.add_argument("--to-move", type=int, default=None, metavar="SEAT",
                   help="the seat to move (default: the landlord)")
    p.add_argument("--to-beat", metavar="PLAY", default=None, help="the play to beat (default: leading)")
    p.add_argument("--last", type=int, default=None, metavar="SEAT", help="the seat that made the play to beat")
    _add_solve_options(p, "", "threads (default 1)", "machine-readable output")
    _add_rules_options(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("solve-many", help="solve many endgames, one per line of a file",
                       description="Solve every position of FILE (one per line in the text "
                                   "form of ddz.Position.parse, e.g. 'KK5543/225543 "
                                   "landlord=1'; blank lines and lines starting with # are "
                                   "skipped) and print one line per position, in order; "
                                   "--ray fans them out over Ray workers (the same answers).")
    p.add_argument("file", metavar="FILE", help="a file of positions, one per line; - for standard input")
    _add_solve_options(p, " each position", "threads per position (default 1)",
                       "one JSON object per line (the fields of ddz solve --json)")
    _add_ray_options(p, "positions")
    p.set_defaults(func=cmd_solve_many)
    from .web.cli import add_parser as add_serve    # ddz serve (issue 28): its code is in ddz.web
    add_serve(sub)
    from .arena.cli import add_parser as add_arena_parser   # `ddz arena` (issue 27): its own module
    add_arena_parser(sub, _add_game_options)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``ddz`` command. Returns the exit status (0 ok, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except DdzError as exc:
        print(f"ddz: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `ddz moves | head`
        return 0
    except OSError as exc:  # e.g. stdout on a full disk
        print(f"ddz: error: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the shell's usual status
        print("\nddz: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
