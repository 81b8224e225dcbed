"""A deal's value table and where a played hand was lost, by the exact solver (issue 41 item 4).

:func:`analyze_deal` takes a deal before bidding and, for each seat as landlord (that seat
takes the bottom cards and leads, RULES.md §3, §5), solves the open-card position with
:func:`ddz.solve`: does the landlord win with every card face up, with which first play,
and (score mode) for what score. :func:`lost_at` walks a played hand's record and finds
the first move after which the landlord's perfect-information result changed ("won for
the landlord by best play; the landlord lost it at move 14").

Nothing is guessed: a position that the budget did not solve exactly is reported as
unknown (``exact=False``, ``landlord_wins=None``), and :func:`lost_at` makes no claim
past the first such position.

Only the one-deck, three-player game is supported: :func:`ddz.solve` (and
:class:`ddz.Position`) takes two or three hands of one deck, so a four-player rule set
(RULES.md §7) raises :class:`ddz.DdzError`.
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ..core.cards import is_integer
from ..core.rules import STANDARD, Rules
from ..errors import DdzError, quote
from ..game.deal import Deal, bottom_bonus_factor
from ..game.position import Position
from ..game.state import Game
from .solver import DEFAULT_TABLE_MB, solve

__all__ = ["analyze_deal", "lost_at", "DealAnalysis", "SeatAnalysis", "RecordAnalysis", "MoveAnalysis",
           "DEFAULT_DEAL_TIME_LIMIT", "DEFAULT_MOVE_TIME_LIMIT", "DEFAULT_RECORD_BUDGET"]

DEFAULT_DEAL_TIME_LIMIT = 10.0
""":func:`analyze_deal`'s default time limit, seconds per seat (a whole deal, 20/17/17
cards, is the solver's hardest case: many are not solved exactly within seconds)."""

DEFAULT_MOVE_TIME_LIMIT = 0.5
""":func:`lost_at`'s default time limit, seconds per position solved."""

DEFAULT_RECORD_BUDGET = 5.0
""":func:`lost_at`'s default total time budget, seconds for the whole record."""


def _check_rules(rules: Any) -> Rules:
    if rules is None:
        return STANDARD
    if not isinstance(rules, Rules):
        raise DdzError(f"rules must be a ddz.Rules or None, not {type(rules).__name__}: {quote(rules)}")
    if rules.seats != 3 or rules.decks != 1:
        raise DdzError(f"the solver plays the three-player, one-deck game only (ddz.solve takes two or three "
                       f"hands of one deck); {rules.seats}-player deals cannot be analysed (RULES.md §7)")
    return rules


def _check_flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise DdzError(f"{name} must be True or False, got {quote(value)}")
    return value


def _check_time(value: Any, name: str) -> Optional[float]:
    """Seconds > 0 (any real number, numpy's included) as a float; ``None`` or infinity:
    ``None``, no limit."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0 or value != value:
        raise DdzError(f"{name} must be a positive number of seconds or None, got {quote(value)}")
    value = float(value)
    return None if value == math.inf else value


def _check_nodes(value: Any) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not is_integer(value) or value <= 0:
        raise DdzError(f"node_limit must be a positive integer or None, got {quote(value)}")
    return int(value)


def _the_deal(deal: Any, rules: Rules) -> Tuple[Deal, Optional[int]]:
    """(the Deal, its seed or None) of :func:`analyze_deal`'s ``deal`` argument."""
    if isinstance(deal, Game):
        if deal.phase != "bidding" or deal.bid:
            raise DdzError(f"analyze_deal takes a deal before bidding; this game is in its {deal.phase} phase "
                           f"with a bid made (a played hand: ddz.lost_at(game.to_record()))")
        if deal.rules != rules:
            raise DdzError(f"the game's rules {deal.rules!r} are not the rules given, {rules!r}")
        record = deal.to_record()
        seeded = record["dealt_from_seed"] and len(record["deals"]) == 1
        return deal.deal, (deal.seed if seeded else None)
    if isinstance(deal, bool):
        raise DdzError(f"a deal is a seed (an int >= 0), a ddz.Deal or its hands and bottom, not {deal!r}")
    if is_integer(deal):
        return Game(rules, seed=int(deal)).deal, int(deal)
    if isinstance(deal, dict) and "format" in deal:
        raise DdzError("analyze_deal takes a deal, not a record; for a played hand use ddz.lost_at(record)")
    if isinstance(deal, (str, bytes)):
        raise DdzError(f"a deal is a seed (an int >= 0), a ddz.Deal, (hand0, hand1, hand2, bottom) or "
                       f"{{'hands': [...], 'bottom': ...}}, not the string {deal!r}")
    return Deal.parse(deal, rules), None


@dataclass(frozen=True)
class SeatAnalysis:
    """One row of :class:`DealAnalysis`: the deal with ``seat`` as landlord.

    :ivar seat: the landlord's seat (0..2); it holds its 17 cards and the bottom and leads.
    :ivar landlord_wins: under best play with every card face up, does the landlord win;
        ``None`` when not known (``exact`` is ``False``).
    :ivar move: win mode: the first winning first play proven (text notation), ``None``
        when the landlord loses or the answer is unknown; score mode: the first best play.
    :ivar moves: with ``all_moves``: the winning (score mode: best) first plays proven,
        in move order (RULES.md §2.3); ``()`` without it.
    :ivar partial: with ``all_moves``: ``True`` when a budget stopped before every first
        play was decided, so :attr:`moves` may miss some.
    :ivar value: score mode: the signed score S from the landlord's side under best play
        (RULES.md §6) at the base of :class:`DealAnalysis`; ``None`` in win mode or unknown.
    :ivar nodes: positions searched (int).
    :ivar seconds: wall time spent on this seat (float).
    :ivar exact: ``True`` when the answer is proven (the search finished, or a winning
        first play was proven); ``False``: unknown, never a guess.
    :ivar position: the solved :class:`ddz.Position` in its text form.
    """

    seat: int
    landlord_wins: Optional[bool]
    move: Optional[str]
    moves: Tuple[str, ...]
    partial: bool
    value: Optional[int]
    nodes: int
    seconds: float
    exact: bool
    position: str

    def to_dict(self) -> Dict[str, Any]:
        """The row as JSON values (``moves`` a list, ``seconds`` rounded to µs)."""
        return {"seat": self.seat, "landlord_wins": self.landlord_wins, "move": self.move,
                "moves": list(self.moves), "partial": self.partial, "value": self.value, "nodes": self.nodes,
                "seconds": round(self.seconds, 6), "exact": self.exact, "position": self.position}


@dataclass(frozen=True)
class DealAnalysis:
    """The answer of :func:`analyze_deal`.

    :ivar deal: the :class:`ddz.Deal` analysed.
    :ivar seed: its seed when it was given as one, else ``None``.
    :ivar rules: the :class:`ddz.Rules`.
    :ivar score: whether values were asked (score mode).
    :ivar base, multiplier: score mode: the base (1) and the multiplier the values start
        from (the bottom-card factor with ``Rules.bottom_bonus``, else 1).
    :ivar rows: one :class:`SeatAnalysis` per seat, seats 0, 1, 2.
    """

    deal: Deal
    seed: Optional[int]
    rules: Rules
    score: bool
    all_moves: bool
    base: int
    multiplier: int
    rows: Tuple[SeatAnalysis, ...]

    def to_dict(self) -> Dict[str, Any]:
        """JSON values: ``deal`` (as ``Deal.to_json``), ``seed``, ``rules`` (the fields that
        differ from the default), ``score``, ``all_moves``, ``base``, ``multiplier`` and
        ``rows`` (:meth:`SeatAnalysis.to_dict` each)."""
        default = Rules().to_json()
        return {"deal": self.deal.to_json(), "seed": self.seed,
                "rules": {k: v for k, v in self.rules.to_json().items() if default.get(k) != v},
                "score": self.score, "all_moves": self.all_moves, "base": self.base,
                "multiplier": self.multiplier, "rows": [r.to_dict() for r in self.rows]}


def _seat_position(deal: Deal, seat: int, rules: Rules, multiplier: int) -> Position:
    hands = [list(h) for h in deal.hands]
    hands[seat] = [a + b for a, b in zip(hands[seat], deal.bottom)]
    return Position(hands, landlord=seat, rules=rules, base=1, multiplier=multiplier)


def _solve_seat(pos: Position, seat: int, score: bool, all_moves: bool, time_limit: Optional[float],
                node_limit: Optional[int], threads: int, table_mb: float) -> SeatAnalysis:
    t0 = time.perf_counter()
    kw = dict(threads=threads, table_mb=table_mb)
    if not all_moves or score:
        sol = solve(pos, score=score, all_moves=all_moves, time_limit=time_limit, node_limit=node_limit,
                    pv_plies=0, **kw)
        moves = tuple(str(m) for m in sol.moves) if all_moves else ()
        return SeatAnalysis(seat, sol.landlord_wins, str(sol.moves[0]) if sol.moves else None, moves,
                            all_moves and not sol.exact, sol.value, sol.nodes, time.perf_counter() - t0,
                            sol.exact, str(pos))
    # win mode, every winning first play: the root with half the budget; if it is not solved,
    # each first play on its own with an even share of what is left (the plays proven so far)
    sol = solve(pos, all_moves=True, time_limit=None if time_limit is None else max(time_limit / 2, 1e-3),
                node_limit=None if node_limit is None else max(node_limit // 2, 1), pv_plies=0, **kw)
    nodes = sol.nodes
    if sol.exact:
        moves = tuple(str(m) for m in sol.moves)
        return SeatAnalysis(seat, sol.landlord_wins, moves[0] if moves else None, moves, False, None, nodes,
                            time.perf_counter() - t0, True, str(pos))
    firsts = pos.legal_moves()
    deadline = None if time_limit is None else t0 + time_limit
    nodes_left = None if node_limit is None else node_limit - nodes
    won: List[str] = []
    lost = 0
    for i, play in enumerate(firsts):
        share_t = share_n = None
        if deadline is not None:
            share_t = (deadline - time.perf_counter()) / (len(firsts) - i)
            if share_t <= 1e-4:
                break
        if nodes_left is not None:
            share_n = nodes_left // (len(firsts) - i)
            if share_n < 1:
                break
        child = solve(pos.after(play), time_limit=share_t, node_limit=share_n, pv_plies=0, **kw)
        nodes += child.nodes
        if nodes_left is not None:
            nodes_left -= child.nodes
        if child.exact:
            if child.landlord_wins:
                won.append(str(play))
            else:
                lost += 1
    wins: Optional[bool] = True if won else (False if lost == len(firsts) else None)
    return SeatAnalysis(seat, wins, won[0] if won else None, tuple(won), len(won) + lost < len(firsts), None,
                        nodes, time.perf_counter() - t0, wins is not None, str(pos))


def analyze_deal(deal: Any, rules: Optional[Rules] = None, *, score: bool = False, all_moves: bool = False,
                 time_limit: Optional[float] = DEFAULT_DEAL_TIME_LIMIT, node_limit: Optional[int] = None,
                 threads: int = 1, table_mb: float = DEFAULT_TABLE_MB) -> DealAnalysis:
    """A deal's value table: for each seat as landlord, the open-card result (RULES.md §3, §5, §6).

    For seat ``s`` = 0, 1, 2 the position is ``s``'s 17 cards plus the 3 bottom cards
    against the other two hands, ``s`` to lead, nothing played (a :class:`ddz.Position`
    with ``landlord=s``), solved by :func:`ddz.solve`: with every card face up, does the
    landlord win under best play by both sides, and with which first play.

    Score mode values assume **no auction and no doubling**: base 1 and a multiplier of
    1 (times the bottom-card factor when ``rules.bottom_bonus``, RULES.md §6, since the
    bottom cards are known); the bombs, the rocket, spring and anti-spring still to come
    are what the search scores. The settlement is linear in the base and in the
    doublings, and best play does not depend on a positive factor, so a hand won at bid
    ``b`` with ``d`` doublings or robs scores ``value * b * 2**d``.

    :param deal: the deal before bidding: a seed (an int ``0 .. 2**64 - 1``, dealt as
        ``ddz.Game(rules, seed=...)`` deals it), a :class:`ddz.Deal`, anything
        :meth:`ddz.Deal.parse` reads (``(hand0, hand1, hand2, bottom)`` or
        ``{"hands": [...], "bottom": ...}``), or a :class:`ddz.Game` still in its bidding
        phase with no bid made.
    :param rules: a three-player :class:`ddz.Rules` (default ``ddz.STANDARD``).
    :param score: also the score under best play (:attr:`SeatAnalysis.value`); it needs
        ``rules.doubling_bombs == "all"`` (the solver doubles for every played bomb and
        rocket) and costs 10-100 times the win mode's search.
    :param all_moves: every winning (score mode: best) first play. In win mode, when the
        root search does not finish within half the budget, each first play is solved
        on its own with an even share of the rest; the plays proven winning are reported
        with :attr:`SeatAnalysis.partial` ``True`` if some stayed undecided (one proven
        winning play proves the landlord wins).
    :param time_limit: seconds per seat (> 0; ``None``: no limit; default
        :data:`DEFAULT_DEAL_TIME_LIMIT`).
    :param node_limit: positions per seat (int > 0 or ``None``).
    :param threads, table_mb: as :func:`ddz.solve`.
    :returns: a :class:`DealAnalysis` with one :class:`SeatAnalysis` per seat.
    :raises DealError: a deal that :meth:`ddz.Deal.parse` refuses; an unsuited deal
        with ``bottom_bonus`` in score mode.
    :raises DdzError: a four-player rule set, ``rules`` not a Rules, a negative seed, a
        Game past its auction or a record (use :func:`lost_at`), a bad flag or limit,
        score mode with ``doubling_bombs`` other than ``"all"``.
    """
    if rules is None and isinstance(deal, Game):
        rules = deal.rules
    rules = _check_rules(rules)
    score = _check_flag(score, "score")
    all_moves = _check_flag(all_moves, "all_moves")
    time_limit = _check_time(time_limit, "time_limit")
    node_limit = _check_nodes(node_limit)
    if score and rules.doubling_bombs != "all":
        raise DdzError(f"score mode needs doubling_bombs='all': the solver doubles the score for every "
                       f"played bomb and rocket (RULES.md §6), not only {rules.doubling_bombs!r} ones")
    the_deal, seed = _the_deal(deal, rules)
    multiplier = bottom_bonus_factor(the_deal) if score and rules.bottom_bonus else 1
    positions = [_seat_position(the_deal, s, rules, multiplier) for s in range(3)]
    rows = tuple(_solve_seat(p, s, score, all_moves, time_limit, node_limit, threads, table_mb)
                 for s, p in enumerate(positions))
    return DealAnalysis(the_deal, seed, rules, score, all_moves, 1, multiplier, rows)


# -- along a played hand -------------------------------------------------------------------

@dataclass(frozen=True)
class MoveAnalysis:
    """The landlord's open-card result after one move of a played hand (:func:`lost_at`).

    :ivar move: the move number in the play phase, passes included (1 = the landlord's
        opening lead); 0 is the position before the first play.
    :ivar seat: the seat that made the move (for 0: the landlord, to lead).
    :ivar play: the move in text notation (``"pass"`` for a pass); ``None`` for move 0.
    :ivar landlord_wins: after the move, does the landlord win under best play with every
        card face up; ``None`` when unknown.
    :ivar how: ``"over"`` (the hand ended: the actual winner), ``"solved"`` (by
        :func:`ddz.solve`), ``"move played"`` (the move after it keeps the win for the
        side that made it, which proves this position won for that side without a
        search), ``"unknown"`` (the limit stopped the search), ``"budget"`` (not
        searched: the record's time budget was spent) or ``"cancelled"``.
    :ivar nodes, seconds: the search's positions and wall time (0 when not searched).
    """

    move: int
    seat: int
    play: Optional[str]
    landlord_wins: Optional[bool]
    how: str
    nodes: int
    seconds: float

    @property
    def exact(self) -> bool:
        """``True`` when :attr:`landlord_wins` is proven."""
        return self.landlord_wins is not None

    def to_dict(self) -> Dict[str, Any]:
        """The fields as JSON values, with ``exact``."""
        return {"move": self.move, "seat": self.seat, "play": self.play, "landlord_wins": self.landlord_wins,
                "exact": self.exact, "how": self.how, "nodes": self.nodes, "seconds": round(self.seconds, 6)}


@dataclass(frozen=True)
class RecordAnalysis:
    """The answer of :func:`lost_at`.

    :ivar landlord: the landlord's seat.
    :ivar landlord_won: the hand's actual result (``None`` for an unfinished hand).
    :ivar moves: one :class:`MoveAnalysis` per position: index ``k`` is the position after
        ``k`` moves of the play phase (0: before the first play).
    :ivar changes: the moves ``k`` after which the result changed, among those whose
        positions before and after are both known (each is a proven mistake by the seat
        that made move ``k``), in order.
    :ivar first_change: the first move after which the result changed, when every
        position before it is known (so no earlier change can hide in an unknown one);
        else ``None``.
    :ivar unknown: the indices of the positions not solved (``landlord_wins is None``).
    """

    landlord: int
    landlord_won: Optional[bool]
    moves: Tuple[MoveAnalysis, ...]
    changes: Tuple[int, ...]
    first_change: Optional[int]
    unknown: Tuple[int, ...]

    @property
    def start(self) -> Optional[bool]:
        """Before the first play, does the landlord win by best play (``None``: unknown)."""
        return self.moves[0].landlord_wins

    def first_span(self) -> Optional[Tuple[int, int]]:
        """``(a, b)``: the first change of result between two known positions, with only
        unknown ones between them: it happened at one of the moves ``a..b`` (``a == b``:
        at move ``a``, and that is :attr:`first_change` when nothing before is unknown);
        ``None`` when no two known positions differ."""
        known = [m for m in self.moves if m.landlord_wins is not None]
        for x, y in zip(known, known[1:]):
            if x.landlord_wins != y.landlord_wins:
                return x.move + 1, y.move
        return None

    def summary(self) -> str:
        """One or two sentences: who wins the deal by best play, and the first move after
        which that changed (``"won for the landlord by best play; the landlord lost it at
        move 14 (seat 0: 333+4)"``); where positions are unknown, what is not claimed."""
        def side(wins):
            return "the landlord" if wins else "the farmers"

        parts = []
        if self.start is not None:
            parts.append(f"won for {side(self.start)} by best play")
        if self.unknown:
            parts.append(f"unknown (not solved within the budget; no claim is made about them): "
                         f"{_ranges(self.unknown)}")
        span = self.first_span()
        if span is not None:
            a, b = span
            m = self.moves[b]
            before = self.moves[a - 1].landlord_wins
            if a == b:
                what = "the first proven change: " if self.unknown and self.unknown[0] < a else ""
                parts.append(f"{what}{side(before)} lost it at move {a} (seat {m.seat}: {m.play})")
            else:
                parts.append(f"{side(before)} lost it at one of moves {a}..{b}")
        elif self.landlord_won is not None and len(self.unknown) < len(self.moves) - 1:
            parts.append(f"no change among the known positions, and {side(self.landlord_won)} won")
        return "; ".join(parts)

    def to_dict(self) -> Dict[str, Any]:
        """JSON values: the fields, ``start`` and ``summary``."""
        return {"landlord": self.landlord, "landlord_won": self.landlord_won, "start": self.start,
                "first_change": self.first_change, "first_span": (None if self.first_span() is None
                                                                  else list(self.first_span())),
                "changes": list(self.changes), "unknown": list(self.unknown),
                "summary": self.summary(), "moves": [m.to_dict() for m in self.moves]}


def _ranges(ks) -> str:
    """``"the start and the positions after moves 1..3, 14..26"`` of sorted position
    indices (0: before the first play)."""
    runs: List[List[int]] = []
    for k in ks:
        if runs and k == runs[-1][1] + 1:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    parts = []
    if runs and runs[0][0] == 0:
        parts.append("the start")
        runs[0][0] = 1
        if runs[0][1] == 0:
            runs.pop(0)
    if runs:
        text = ", ".join(f"{a}" if a == b else f"{a}..{b}" for a, b in runs)
        one = len(runs) == 1 and runs[0][0] == runs[0][1]
        parts.append(f"the position{'' if one else 's'} after move{'' if one else 's'} {text}")
    return " and ".join(parts)


def _record_game(record: Any):
    """(the game at the start of its play phase, the plays made) of a hand record or Game."""
    if isinstance(record, Game):
        record = record.to_record()
    if not isinstance(record, dict):
        raise DdzError(f"lost_at takes a hand record (a dict, as Game.to_record() makes) or a ddz.Game, "
                       f"not {type(record).__name__}: {quote(record)}")
    if record.get("format") == "ddz-match":
        raise DdzError("lost_at takes one hand's record; a match record holds them in its 'games' list")
    game = Game.from_record(record)
    _check_rules(game.rules)
    plays = game.plays
    if not plays and game.phase != "playing":
        reason = game.result.void if game.result is not None and game.result.void else f"phase {game.phase}"
        raise DdzError(f"the hand has no play phase to analyse ({reason})")
    actions = record["actions"]
    start = Game.from_record(dict(record, actions=actions[:len(actions) - len(plays)], result=None))
    return start, plays, (None if game.result is None else game.result.winner == "landlord")


def lost_at(record: Any, *, time_limit: Optional[float] = DEFAULT_MOVE_TIME_LIMIT,
            budget: Optional[float] = DEFAULT_RECORD_BUDGET, node_limit: Optional[int] = None,
            table_mb: float = DEFAULT_TABLE_MB, cancel: Any = None) -> RecordAnalysis:
    """Where a played hand was lost: the open-card result after every move (RULES.md §5).

    Replays ``record`` and takes the perfect-information :class:`ddz.Position` before
    the first play and after each move of the play phase (passes included). Each
    position's result (does the landlord win under best play with every card face up,
    win mode of :func:`ddz.solve`) is found from the end backwards: the last position is
    decided by who played out; a position whose mover's actual move keeps the win for
    the mover's side is won for that side with no search (that move proves it); only the
    others are searched, each with ``time_limit`` and at most what remains of
    ``budget``. Later positions hold fewer cards, so the cheap ones are settled first and
    the budget goes where the game is still large. What is left of ``budget`` after that
    pass goes to the positions still unknown, latest first, each with all of what is left
    (no ``time_limit``), and the derivations run again. A change of result from one
    position to the next is a mistake by the seat that made the move between them.

    :param record: a hand record (``Game.to_record()``, docs/records.md; finished or
        not) or a :class:`ddz.Game` in or past its play phase.
    :param time_limit: seconds per searched position (> 0, ``None`` or infinity: no
        limit; default :data:`DEFAULT_MOVE_TIME_LIMIT`).
    :param budget: seconds for the whole record (> 0; default
        :data:`DEFAULT_RECORD_BUDGET`); once spent, the positions left are reported
        unknown (``how="budget"``). ``None`` (or infinity): no limit on the whole, so
        each searched position gets ``time_limit`` and there is no second pass (the
        second pass spends what a budget leaves; with none, a whole deal's search would
        have no end).
    :param node_limit: positions per searched position (int > 0 or ``None``).
    :param table_mb: as :func:`ddz.solve`.
    :param cancel: ``None``, or a :class:`threading.Event` (anything with ``is_set()``):
        once set from another thread, the search running stops (``ddz.solve``'s
        ``cancel``) and the positions left are reported unknown (``how="cancelled"``).
    :returns: a :class:`RecordAnalysis`.
    :raises RecordError: a record that does not replay (``Game.from_record``).
    :raises DdzError: not a record or Game, a match record, a four-player hand, a hand
        with no play phase (void), a bad limit or ``cancel``.
    """
    time_limit = _check_time(time_limit, "time_limit")
    budget = _check_time(budget, "budget")
    node_limit = _check_nodes(node_limit)
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise DdzError(f"cancel must be None or have an is_set() method (a threading.Event), got {quote(cancel)}")
    start, plays, won = _record_game(record)
    positions = [Position.from_game(start)]
    for _, play in plays:
        positions.append(positions[-1].after(play))
    lord = positions[0].landlord
    t0 = time.perf_counter()
    n = len(plays)
    rows: List[Optional[MoveAnalysis]] = [None] * (n + 1)
    for second in (False, True):
        # the second pass: what is left of the budget for the positions still unknown, latest
        # (smallest) first and without the per-position limit; derivations propagate again
        if second and (budget is None or all(r.landlord_wins is not None for r in rows if r is not None)):
            break
        for k in range(n, -1, -1):
            row = rows[k]
            if row is not None and row.landlord_wins is not None:
                continue
            pos = positions[k]
            seat, text = (plays[k - 1][0], str(plays[k - 1][1])) if k else (lord, None)
            after = rows[k + 1] if k < n else None
            spent = (row.nodes, row.seconds) if row is not None else (0, 0.0)
            if pos.over:
                rows[k] = MoveAnalysis(k, seat, text, pos.landlord_wins, "over", 0, 0.0)
                continue
            if after is not None and after.landlord_wins is not None and after.landlord_wins == (pos.to_move == lord):
                rows[k] = MoveAnalysis(k, seat, text, after.landlord_wins, "move played", *spent)
                continue
            if cancel is not None and cancel.is_set():
                rows[k] = MoveAnalysis(k, seat, text, None, "cancelled", *spent)
                continue
            if second and node_limit is not None and spent[0] >= node_limit:
                continue        # the node limit stopped it: the same search would stop again
            limit = None if second else time_limit
            if budget is not None:
                left = budget - (time.perf_counter() - t0)
                if left <= 1e-3:
                    rows[k] = row if row is not None else MoveAnalysis(k, seat, text, None, "budget", 0, 0.0)
                    continue
                limit = left if limit is None else min(limit, left)
            sol = solve(pos, time_limit=limit, node_limit=node_limit, table_mb=table_mb, pv_plies=0, cancel=cancel)
            how = "solved" if sol.exact else ("cancelled" if cancel is not None and cancel.is_set() else "unknown")
            rows[k] = MoveAnalysis(k, seat, text, sol.landlord_wins, how, sol.nodes + spent[0],
                                   sol.seconds + spent[1])
    done = tuple(r for r in rows if r is not None)
    results = [r.landlord_wins for r in done]
    changes = tuple(k for k in range(1, n + 1) if None not in (results[k - 1], results[k])
                    and results[k - 1] != results[k])
    unknown = tuple(k for k, r in enumerate(results) if r is None)
    first = changes[0] if changes and not any(u < changes[0] for u in unknown) else None
    return RecordAnalysis(lord, won, done, changes, first, unknown)
