"""The ``ddz`` command line (argparse).

Each sub-command is a function ``cmd_NAME(args) -> int`` registered in :func:`build_parser`.
Bad input prints ``ddz: error: ...`` to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from typing import List, Optional, TextIO

from .errors import DdzError
from .rules import Rules

EXAMPLE_HAND = "3334445567899TJQKA22"  # a 20-card landlord hand: trios, chains, a pair of 2s


def _rules(args) -> Rules:
    """The Rules of the parsed options: every field of Rules that the command offers."""
    return Rules(**{f.name: getattr(args, f.name) for f in dataclasses.fields(Rules) if hasattr(args, f.name)})


class _Union(argparse.Action):
    """Each use of the option adds its set to the sets given before (not replacing them)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, frozenset(getattr(namespace, self.dest) or ()) | values)


def _play_types(text: str):
    """An argparse type: comma-separated play type names (``TRIO_PAIR,BOMB``)."""
    names = [t.strip().upper() for t in text.split(",") if t.strip()]
    try:
        return Rules(banned=names).banned
    except DdzError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_game_options(p: argparse.ArgumentParser) -> None:
    _add_rules_options(p)
    p.add_argument("--bidding", choices=("points", "rob"), default="points",
                   help="points: bid 1-3 (default); rob: call and rob (RULES.md §3)")
    p.add_argument("--doubling", action="store_true",
                   help="farmers may double, the landlord redouble (RULES.md §4)")
    p.add_argument("--bottom-bonus", action="store_true",
                   help="the bottom cards multiply the score (RULES.md §6)")


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is an integer, got {text!r}") from None


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
    """One option per move-deciding field of Rules (declared in its metadata), so a new
    move option reaches every command that computes moves."""
    for f in Rules.move_fields():
        flag = "--" + f.name.replace("_", "-")
        if "choices" in f.metadata:
            p.add_argument(flag, choices=f.metadata["choices"], default=f.default,
                           help=f"{f.metadata['help']}: {' or '.join(f.metadata['choices'])} (default {f.default})")
        else:  # a set of play types: repeated options add up
            p.add_argument(flag, type=_play_types, default=f.default, metavar="TYPE[,TYPE]",
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
    if len(names) != 3 or any(n not in BOTS for n in names):
        raise argparse.ArgumentTypeError(
            f"--bots takes three names from {', '.join(BOTS)} separated by commas, got {text!r}")
    return names


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class _Progress:
    """A one-line progress bar on stderr (redrawn at most 10 times a second). Enabled
    only on a terminal: in a log, ``\\r`` redraws are noise."""

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total, self.stream, self.enabled = total, stream, enabled
        self.start = self.last = time.perf_counter()
        self.open = False  # a line is drawn and not yet ended

    def close(self) -> None:
        """End the progress line (after an error too), so the next output starts a line."""
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.1 and done < self.total:
            return
        self.last = now
        width = 30
        filled = width * done // self.total
        rate = done / max(now - self.start, 1e-9)
        self.stream.write(f"\rselfplay [{'#' * filled}{'.' * (width - filled)}] "
                          f"{done}/{self.total} hands, {rate:,.0f}/s")
        self.open = True
        if done >= self.total:
            self.stream.write("\n")
            self.open = False
        self.stream.flush()


def cmd_selfplay(args) -> int:
    """`ddz selfplay`: bots play N hands; print a summary. Returns the exit status."""
    from .bots import make_bot, play_hand
    from .game import Game
    rules = _rules(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    master = random.Random(seed)
    bots = [make_bot(name, master.getrandbits(63)) for name in args.bots]
    out = None
    to_stdout = args.out == "-"        # records on stdout, so the summary goes to stderr
    if to_stdout:
        out = sys.stdout
    elif args.out:
        try:
            out = open(args.out, "w", encoding="utf-8")
        except OSError as exc:
            raise DdzError(f"cannot write --out {args.out!r}: {exc.strerror or exc}") from None
    n = args.games
    wins = redeals = bombs = rockets = springs = antis = 0
    totals = [0, 0, 0]
    progress = _Progress(n, sys.stderr, not args.quiet and _isatty(sys.stderr))
    start = time.perf_counter()
    try:
        for i in range(n):
            game = play_hand(Game(rules, seed=master.getrandbits(63)), bots)
            r = game.result
            wins += r.winner == "landlord"
            redeals += game.redeals
            bombs += r.bombs
            rockets += r.rockets
            springs += r.spring
            antis += r.anti_spring
            for s_, v in enumerate(r.scores):
                totals[s_] += v
            if out is not None:
                try:
                    out.write(json.dumps(game.to_record(), separators=(",", ":")) + "\n")
                except OSError as exc:
                    raise DdzError(f"cannot write --out {args.out!r}: {exc.strerror or exc}") from None
            progress.update(i + 1)
    finally:
        progress.close()
        if out is not None and not to_stdout:
            try:
                out.close()
            except OSError as exc:
                raise DdzError(f"cannot write --out {args.out!r}: {exc.strerror or exc}") from None
    elapsed = time.perf_counter() - start
    rows = [
        ("hands", f"{n}"),
        ("seed", f"{seed}"),
        ("rules", " ".join(f"{k}={','.join(v) if isinstance(v, list) else v}"
                           for k, v in rules.to_json().items() if k != "banned" or v)),
        ("landlord win rate", f"{wins / n:.1%}"),
    ]
    for s_ in range(3):
        rows.append((f"mean score seat {s_} ({args.bots[s_]})", f"{totals[s_] / n:+.3f}"))
    rows += [
        ("bombs per hand", f"{bombs / n:.3f}"),
        ("rockets per hand", f"{rockets / n:.3f}"),
        ("springs per hand", f"{springs / n:.3f}"),
        ("anti-springs per hand", f"{antis / n:.3f}"),
        ("redeals per hand", f"{redeals / n:.3f}"),
        ("hands per second", f"{n / elapsed:,.0f}"),
    ]
    if args.out:
        rows.append(("records written to", "standard output" if to_stdout else args.out))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}", file=sys.stderr if to_stdout else sys.stdout)
    return 0


def _describe_action(game, seat: int, action) -> str:
    from .play import Play
    if isinstance(action, Play):
        return f"seat {seat} plays {action}" if action else f"seat {seat} passes"
    if isinstance(action, bool):
        return f"seat {seat} {'doubles' if action else 'does not double'}"
    if not action:
        return f"seat {seat} passes"
    if game.rules.bidding == "rob":
        word = game.to_record()["actions"][-1]["action"]   # "call" or "rob"
        return f"seat {seat} {'calls' if word == 'call' else 'robs'} the landlord"
    return f"seat {seat} bids {action}"


def _action_words(game, legal) -> List[str]:
    """How a person types each legal action (the words ``ddz play`` accepts)."""
    from .game import Phase
    if game.phase is Phase.BIDDING:
        if game.rules.bidding == "points":
            return ["pass" if b == 0 else str(b) for b in legal]
        yes = "rob" if game.bid else "call"
        return [yes if b else "pass" for b in legal]
    if game.phase is Phase.DOUBLING:
        return ["double" if d else "pass" for d in legal]
    return [str(a) for a in legal]


def _prompt(game) -> str:
    from .game import Phase
    if game.phase is Phase.BIDDING:
        words = ", ".join(_action_words(game, game.legal_actions()))
        if game.rules.bidding == "points":
            return f"your bid ({words}): "
        return f"call/rob the landlord? ({words}): " if game.bid else f"call the landlord? ({words}): "
    if game.phase is Phase.DOUBLING:
        return f"double? ({', '.join(_action_words(game, game.legal_actions()))}): "
    if game.to_beat is None:
        return "you lead: your play (e.g. 33, 555+7; ? lists moves): "
    return f"to beat {game.to_beat}: your play or pass (? lists moves): "


def cmd_play(args, stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None) -> int:
    """`ddz play`: a person against two bots, in the terminal. Returns the exit status."""
    from .bots import make_bot
    from .cards import format_cards
    from .game import Game, Phase
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout

    def say(text: str = "") -> None:
        print(text, file=stdout)

    rules = _rules(args)
    me = args.seat
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    game = Game(rules, seed=seed)
    master = random.Random(seed)
    bots = {s_: make_bot(args.bot, master.getrandbits(63)) for s_ in range(3) if s_ != me}
    say(f"ddz: you are seat {me}; seats {', '.join(map(str, sorted(bots)))} are {args.bot} bots "
        f"(seed {seed}). Type plays in notation (333+4, 34567, BR), 'pass', '?' for your "
        f"legal moves, 'quit' to stop.")
    deals_seen = 0
    shown_landlord = False
    while game.phase is not Phase.OVER:
        if len(game.deals) != deals_seen:
            if deals_seen:
                say("everybody passed: the hand is redealt")
            deals_seen = len(game.deals)
            say(f"your hand: {format_cards(game.hand(me))}")
        if game.landlord is not None and not shown_landlord:
            shown_landlord = True
            bottom = " ".join(str(c) for c in game.deal.cards[3]) if game.deal.cards else format_cards(game.deal.bottom)
            say(f"seat {game.landlord} is the landlord (base {game.bid}); bottom cards: {bottom}")
        seat = game.current_player
        if seat != me:
            action = bots[seat].act(game.observation(seat), game.legal_actions())
            game.step(action)
            say(_describe_action(game, seat, action))
            continue
        if game.phase is Phase.PLAYING:
            left = game.cards_left()
            say(f"your hand: {format_cards(game.hand(me))}   cards left: "
                + ", ".join(f"seat {s_} {left[s_]}" for s_ in range(3)))
        while True:
            stdout.write(_prompt(game))
            stdout.flush()
            line = stdin.readline()
            if not line:
                say()
                print("ddz: error: input ended before the hand was over", file=sys.stderr)
                return 2
            text = line.strip()
            if text.lower() in ("quit", "exit"):   # not "q": Q is the queen
                say("bye")
                return 0
            if text in ("?", "help", "h"):
                legal = game.legal_actions()
                shown = ", ".join(_action_words(game, legal[:60]))
                say(f"legal: {shown}{' ...' if len(legal) > 60 else ''} ({len(legal)} in all)")
                continue
            if not text:
                continue
            try:
                game.step(text)
            except DdzError as exc:
                say(f"not allowed: {exc}. Try again.")
                continue
            break
    r = game.result
    who = "you win" if me in r.winners else "you lose"
    say(f"seat {r.winners[0] if r.winner == 'landlord' else ' and '.join(map(str, r.winners))} "
        f"won ({r.winner}): {who}.")
    factors = ", ".join(f"{k} x{v}" if k != "bid" else f"bid {v}" for k, v in r.breakdown.items()
                        if k == "bid" or v != 1)
    say(f"score S = {r.score} ({factors}); scores: "
        + ", ".join(f"seat {s_} {v:+d}" for s_, v in enumerate(r.scores)))
    return 0


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
    """`ddz replay`: check and print game records. Returns the exit status."""
    from .errors import RecordError
    from .game import Game
    records = _load_records(args.file)
    for i, rec in enumerate(records, 1):
        try:
            game = Game.from_record(rec)
        except RecordError as exc:
            raise RecordError(f"hand {i} of {args.file!r}: {exc}") from None
        r = game.result
        head = f"hand {i}: seed {game.seed}"
        if game.redeals:
            head += f", {game.redeals} redeal{'s' if game.redeals > 1 else ''}"
        if r is None:
            print(head + f": not finished ({len(game.actions)} actions, phase {game.phase})")
        else:
            print(head + f": landlord seat {r.landlord} (base {r.base}), {r.winner} win, "
                  f"S = {r.score}, scores {' '.join(f'{v:+d}' for v in r.scores)}")
        if args.brief:
            continue
        d = game.deal.to_json()
        for s_ in range(3):
            print(f"  seat {s_}: {d['hands'][s_]}")
        print(f"  bottom: {d['bottom']}")
        print("  " + ", ".join(f"{a['seat']}:{a['action']}" for a in game.to_record()["actions"]))
    print(f"{len(records)} hand{'s' if len(records) != 1 else ''} replayed and checked")
    return 0


def cmd_perft(args) -> int:
    """`ddz perft`: leaves of the play-phase legal-move tree of a deal. Returns the exit status."""
    from .game import Game
    from .perft import divide, perft
    rules = _rules(args)
    deal = tuple(args.deal) if args.deal else None
    game = Game(rules, seed=args.seed if args.seed is not None else 0, deal=deal,
                first_bidder=args.landlord)
    game.step(3)
    while game.phase.value == "doubling":
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


def cmd_solve(args) -> int:
    """`ddz solve`: solve a perfect-information endgame (issue 12). Returns the exit status."""
    from .position import Position
    from .solver import solve
    pos = Position(args.hands, landlord=args.landlord, to_move=args.to_move, to_beat=args.to_beat,
                   last_player=args.last, rules=_rules(args))
    shown = [False]

    def progress(nodes, seconds):
        if seconds >= 1.0:
            shown[0] = True
            print(f"\rsolving: {nodes:,} positions, {seconds:.1f} s", end="", file=sys.stderr, flush=True)

    try:
        sol = solve(pos, score=args.score, all_moves=args.all, node_limit=args.node_limit,
                    time_limit=args.time_limit, threads=args.threads, table_mb=args.table_mb,
                    progress=progress)
    finally:
        if shown[0]:
            print(file=sys.stderr)
    if args.json:
        print(json.dumps({"position": str(pos), "exact": sol.exact, "landlord_wins": sol.landlord_wins,
                          "win": sol.win, "moves": [str(m) for m in sol.moves],
                          "pv": [str(m) for m in sol.pv], "value": sol.value, "nodes": sol.nodes,
                          "seconds": round(sol.seconds, 6)}, ensure_ascii=False))
        return 0
    print(f"position: {pos}")
    if not sol.exact:
        print(f"unknown: stopped by the limit after {sol.nodes:,} positions ({sol.seconds:.3f} s)")
        return 0
    side = "the landlord" if pos.to_move == pos.landlord else "the farmers"
    print(f"seat {pos.to_move} ({side}) to move {'wins' if sol.win else 'loses'}; "
          f"the landlord {'wins' if sol.landlord_wins else 'loses'}")
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
                       description="Play N complete hands (RULES.md §3-§6) between three bots "
                                   "and print a summary: landlord win rate, mean score per "
                                   "seat, bombs and springs per hand, hands per second.")
    p.add_argument("--games", type=_positive, default=1000, metavar="N",
                   help="number of hands (default 1000)")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="seed for the deals and the bots (default: random, printed)")
    p.add_argument("--bots", type=_bot_names, default=["greedy", "random", "random"],
                   metavar="A,B,C", help="bots of seats 0,1,2: greedy or random "
                                         "(default greedy,random,random)")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="write every hand's record to FILE as JSON lines (see docs/records.md); "
                        "'-' for standard output (the summary then goes to standard error)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_game_options(p)
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("play", help="play a hand in the terminal against two bots",
                       description="Play one hand against two bots: your hand is shown "
                                   "sorted; type bids and plays in notation (333+4, BR, pass); "
                                   "'?' lists your legal moves; illegal input is explained "
                                   "and asked again.")
    p.add_argument("--seat", type=int, choices=(0, 1, 2), default=0, help="your seat (default 0)")
    p.add_argument("--seed", type=_seed, default=None, metavar="S", help="seed of the deal")
    p.add_argument("--bot", choices=("greedy", "random"), default="greedy",
                   help="the opponents' bot (default greedy)")
    _add_game_options(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="check and print game records",
                       description="Replay every record of FILE (one JSON record, a JSON list "
                                   "of records, or JSON lines), checking every action, and "
                                   "print each hand. Exit status 2 names the first bad action.")
    p.add_argument("file", metavar="FILE", help="a JSON or JSON-lines file of records; - for standard input")
    p.add_argument("--brief", action="store_true", help="one line per hand")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("perft", help="count the nodes of the legal-move tree",
                       description="Count the leaves of the play-phase legal-move tree to "
                                   "DEPTH plies (passes included) from a deal whose landlord "
                                   "bid 3, as chess engines do; --divide prints each first "
                                   "move's count.")
    p.add_argument("--depth", type=_non_negative, default=2, metavar="D", help="plies (default 2)")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="deal from this seed (default 0)")
    p.add_argument("--deal", nargs=4, metavar=("HAND0", "HAND1", "HAND2", "BOTTOM"),
                   help="the deal instead of a seed (rank or suited notation)")
    p.add_argument("--landlord", type=int, choices=(0, 1, 2), default=0,
                   help="the landlord's seat (default 0)")
    p.add_argument("--divide", action="store_true", help="print each first move's count")
    _add_rules_options(p)
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("solve", help="solve an endgame with every hand open",
                       description="Solve a perfect-information endgame (two or three hands, "
                                   "RULES.md §5): who wins under best play, a winning move and "
                                   "the line of play; --score for the score (§6). Ctrl-C stops "
                                   "a long solve cleanly.")
    p.add_argument("hands", nargs="+", metavar="HAND", help="two or three hands in seat order, e.g. KK5543 225543")
    p.add_argument("--landlord", type=int, default=0, metavar="SEAT", help="the landlord's seat (default 0)")
    p.add_argument("--to-move", type=int, default=None, metavar="SEAT",
                   help="the seat to move (default: the landlord)")
    p.add_argument("--to-beat", metavar="PLAY", default=None, help="the play to beat (default: leading)")
    p.add_argument("--last", type=int, default=None, metavar="SEAT", help="the seat that made the play to beat")
    p.add_argument("--score", action="store_true", help="the score under best play (bombs, spring)")
    p.add_argument("--all", action="store_true", help="every winning (best) move, not only one")
    p.add_argument("--time-limit", type=float, default=None, metavar="S", help="stop after S seconds (answer: unknown)")
    p.add_argument("--node-limit", type=_positive, default=None, metavar="N", help="stop after N positions")
    p.add_argument("--threads", type=_positive, default=1, metavar="T", help="threads (default 1)")
    p.add_argument("--table-mb", type=float, default=64, metavar="MB",
                   help="transposition table per thread, MiB (default 64)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _add_rules_options(p)
    p.set_defaults(func=cmd_solve)
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
