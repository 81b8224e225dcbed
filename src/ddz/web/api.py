"""What the JSON API does, without HTTP: read a request body, answer it (issue 28).

:mod:`ddz.web.server` maps ``POST /api/NAME`` to the function ``NAME`` here (``solve``
goes through the worker pool: :func:`solve_job` checks the request in the server,
:func:`run_solve` runs in a worker process). Every function takes the decoded JSON body
(a ``dict``) and returns a JSON-serializable ``dict``; bad input raises
:class:`ddz.DdzError` (a subclass naming what was wrong), which the server answers with
``422`` and the message. The request fields are those of the Python API, in the same
notation (docs/api.md, "The JSON API"). Only public ``ddz`` names are used.
"""

from __future__ import annotations

import dataclasses
import json
import math
import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple

import ddz
from ddz import DEFAULT_TABLE_MB, DdzError, RecordError

from .cards import RANKS

__all__ = ["rules_arg", "position_arg", "solve_job", "run_solve", "lost_at_job", "run_job", "legal", "classify",
           "replay", "read_records", "info", "stopped", "rules_json", "PRESETS", "MAX_RECORDS", "Trick"]

#: the rule sets the page offers by name: ``standard``, ``repeat`` (``kickers="repeat"``)
#: and every engine profile of :meth:`ddz.Rules.profile`
PRESETS = ("standard", "repeat") + tuple(ddz.Rules.profiles())
#: the most hands one ``/api/replay`` request replays (a match counts its hands)
MAX_RECORDS = 2000
_RULE_FIELDS = tuple(f.name for f in dataclasses.fields(ddz.Rules))
_POSITION_FIELDS = ("hands", "landlord", "to_move", "to_beat", "last_player", "base",
                    "multiplier", "landlord_plays", "farmers_played")


def _fields(body: Any, allowed: Sequence[str], required: Sequence[str] = ()) -> Dict[str, Any]:
    """``body`` as a dict, refusing unknown and missing fields."""
    if not isinstance(body, dict):
        raise DdzError(f"the request body must be a JSON object, not {_json_type(body)}")
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        raise DdzError(f"unknown field(s) {_quote(unknown)}; the fields are {list(allowed)}")
    missing = [k for k in required if k not in body]
    if missing:
        raise DdzError(f"missing field(s) {missing}")
    return body


def _quote(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for error messages."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def _json_type(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")


def _bool(body: Dict[str, Any], name: str, default: bool) -> bool:
    value = body.get(name, default)
    if not isinstance(value, bool):
        raise DdzError(f"{name} must be true or false, got {_json_type(value)}: {_quote(value)}")
    return value


def rules_arg(value: Any) -> ddz.Rules:
    """The :class:`ddz.Rules` of a request's ``rules`` field.

    :param value: ``None`` (the standard rules), a name of :data:`PRESETS`, or an object
        of :class:`ddz.Rules` fields (those missing take their defaults; the record
        format's ``rules``, ``Rules.to_json()``, is one).
    :raises DdzError: an unknown name or field, a bad value.
    """
    if value is None:
        return ddz.STANDARD
    if isinstance(value, str):
        name = value.lower()
        if name == "standard":
            return ddz.STANDARD
        if name == "repeat":
            return ddz.REPEAT_KICKERS
        if name in ddz.Rules.profiles():
            return ddz.Rules.profile(name)
        raise DdzError(f"unknown rules {_quote(value)}; give one of {', '.join(PRESETS)} "
                       "or an object of Rules fields")
    if isinstance(value, dict):
        return ddz.Rules.from_json(value, defaults=_RULE_FIELDS)
    raise DdzError(f"rules must be a name or an object of Rules fields, not {_json_type(value)}")


def _with_rules(pos: ddz.Position, rules: ddz.Rules) -> ddz.Position:
    """``pos`` under other rules (its play to beat read again under them)."""
    return ddz.Position(pos.hands, landlord=pos.landlord, to_move=pos.to_move,
                        to_beat=None if pos.to_beat is None else str(pos.to_beat),
                        last_player=pos.last_player, rules=rules, base=pos.base,
                        multiplier=pos.multiplier, landlord_plays=pos.landlord_plays,
                        farmers_played=pos.farmers_played)


def position_arg(value: Any, rules: Any = None) -> ddz.Position:
    """The :class:`ddz.Position` of a request's ``position`` (and ``rules``) fields.

    :param value: the text form (``"RAQQJJT999844/B22AAT886633"``, see
        :meth:`ddz.Position.parse`) or an object of the constructor's keywords
        (``hands``, ``landlord``, ``to_move``, ``to_beat``, ``last_player``, ``base``,
        ``multiplier``, ``landlord_plays``, ``farmers_played``).
    :param rules: the ``rules`` field (:func:`rules_arg`); a position text that names
        its own ``kickers``/``banned`` takes no ``rules`` besides.
    :raises DdzError: anything :class:`ddz.Position` refuses, or rules given twice.
    """
    if isinstance(value, str):
        pos = ddz.Position.parse(value)
    elif isinstance(value, dict):
        unknown = sorted(k for k in value if k not in _POSITION_FIELDS)
        if unknown:
            raise DdzError(f"unknown position field(s) {_quote(unknown)}; the fields are {list(_POSITION_FIELDS)} "
                           "(the rules go in the request's 'rules')")
        if "hands" not in value:
            raise DdzError("the position object needs 'hands': two or three hands in seat order")
        pos = ddz.Position(**value, rules=rules_arg(rules))
        return pos
    else:
        raise DdzError(f"position must be the text form (e.g. 'KK5543/225543') or an object, "
                       f"not {_json_type(value)}")
    if rules is None:
        return pos
    want = rules_arg(rules)
    if pos.rules != ddz.STANDARD.move_rules and pos.rules != want.move_rules:
        raise DdzError("the position text names its rules (kickers=/banned=) and the request's "
                       "'rules' names others: give them once")
    return _with_rules(pos, want)


# -- solve ---------------------------------------------------------------------------

_SOLVE_FIELDS = ("position", "rules", "score", "all_moves", "time_limit", "node_limit")


def solve_job(body: Any, max_seconds: float) -> Dict[str, Any]:
    """Check a ``/api/solve`` request in the server (cheap, before it waits for a worker).

    :param body: ``{"position", "rules"?, "score"?, "all_moves"?, "time_limit"?,
        "node_limit"?}``; ``all_moves`` defaults to ``true`` (every winning first move).
    :param max_seconds: the server's time limit: a larger or missing ``time_limit``
        becomes this.
    :returns: the job for :func:`run_solve` (plain JSON values: it crosses to a worker).
    :raises DdzError: bad input.
    """
    body = _fields(body, _SOLVE_FIELDS, ("position",))
    pos = position_arg(body["position"], body.get("rules"))
    score = _bool(body, "score", False)
    all_moves = _bool(body, "all_moves", True)
    seconds = body.get("time_limit")
    if seconds is None:
        seconds = max_seconds
    elif (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
          or not math.isfinite(seconds) or seconds <= 0):
        raise DdzError(f"time_limit must be a number of seconds > 0, got {_quote(seconds)}")
    nodes = body.get("node_limit")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes <= 0):
        raise DdzError(f"node_limit must be an integer > 0 or null, got {_quote(nodes)}")
    return {"position": str(pos), "rules": pos.rules.to_json(), "score": score,
            "all_moves": all_moves, "time_limit": float(min(seconds, max_seconds)),
            "node_limit": nodes}


class Trick:
    """What each seat last did in the current trick (RULES.md §5), for drawing a table:
    a play or ``pass``; a seat's entry is cleared when a new trick starts (after
    ``seats - 1`` passes)."""

    def __init__(self, seats: int) -> None:
        self.shown: List[Optional[str]] = [None] * seats
        self.passes = 0

    def clear(self) -> None:
        self.shown = [None] * len(self.shown)
        self.passes = 0

    def add(self, seat: int, text: str) -> None:
        if self.passes == len(self.shown) - 1 and text != "pass":     # the trick was over: a lead
            self.clear()
        self.passes = self.passes + 1 if text == "pass" else 0
        self.shown[seat] = text


def _line(pos: ddz.Position, pv: Sequence[Any]) -> List[Dict[str, Any]]:
    """The principal variation move by move: who moved, what, the hands after it and
    each seat's part of the trick."""
    out = []
    trick = Trick(pos.seats)
    if pos.to_beat is not None:
        trick.shown[pos.last_player] = str(pos.to_beat)
        trick.passes = (pos.to_move - pos.last_player - 1) % pos.seats
    for play in pv:
        seat = pos.to_move
        pos = pos.after(play)
        trick.add(seat, str(play))
        out.append({"seat": seat, "move": str(play), "hands": [_fmt(h) for h in pos.hands],
                    "trick": list(trick.shown)})
    return out


def _job_position(job: Dict[str, Any]) -> ddz.Position:
    """The Position of a job (its text and its rules)."""
    rules = ddz.Rules.from_json(job["rules"], defaults=_RULE_FIELDS)
    pos = ddz.Position.parse(job["position"])
    return pos if pos.rules == rules.move_rules else _with_rules(pos, rules)


def rules_json(rules: ddz.Rules) -> Dict[str, Any]:
    """The fields of ``rules`` that differ from the standard rules (``{}`` for them): a
    ``rules`` value :func:`rules_arg` reads back."""
    standard = ddz.STANDARD.to_json()
    return {k: v for k, v in rules.to_json().items() if v != standard[k]}


def _solve_json(job: Dict[str, Any], pos: ddz.Position, sol: Any, stopped: Optional[str]) -> Dict[str, Any]:
    """The ``/api/solve`` answer (``sol``: a :class:`ddz.Solution`, or ``None`` when the
    server stopped the worker)."""
    exact = sol is not None and sol.exact
    return {"position": str(pos), "rules": rules_json(pos.rules), "seats": pos.seats,
            "landlord": pos.landlord, "to_move": pos.to_move, "hands": [_fmt(h) for h in pos.hands],
            "exact": exact, "stopped": stopped,
            "landlord_wins": sol.landlord_wins if exact else None, "win": sol.win if exact else None,
            "moves": [str(m) for m in sol.moves] if exact else [],
            "pv": [str(m) for m in sol.pv] if exact else [],
            "line": _line(pos, sol.pv) if exact else [], "value": sol.value if exact else None,
            "scores": list(sol.scores) if exact and sol.scores is not None else None,
            "nodes": None if sol is None else sol.nodes,
            "seconds": round(job["time_limit"] if sol is None else sol.seconds, 6),
            "time_limit": job["time_limit"]}


def run_solve(job: Dict[str, Any], cancel: Optional[threading.Event] = None,
              table_mb: float = DEFAULT_TABLE_MB) -> Dict[str, Any]:
    """Solve a job of :func:`solve_job` (in a worker process).

    :param cancel: set by another thread to stop the search (``ddz.solve``'s
        ``cancel``); the answer is then ``exact: false`` with ``stopped: "cancelled"``.
    :param table_mb: ``ddz.solve``'s transposition table size (MiB).
    :returns: the ``/api/solve`` response (docs/api.md).
    """
    pos = _job_position(job)
    kw: Dict[str, Any] = {"score": job["score"], "all_moves": job["all_moves"],
                          "time_limit": job["time_limit"], "node_limit": job["node_limit"],
                          "table_mb": table_mb}
    if cancel is not None:
        kw["cancel"] = cancel
    sol = ddz.solve(pos, **kw)
    stopped = None
    if not sol.exact:
        if cancel is not None and cancel.is_set():
            stopped = "cancelled"
        elif job["node_limit"] is not None and sol.nodes >= job["node_limit"]:
            stopped = "node limit"
        else:
            stopped = "time limit"
    return _solve_json(job, pos, sol, stopped)


def stopped(job: Dict[str, Any], reason: str) -> Dict[str, Any]:
    """The ``/api/solve`` answer of a search that the server stopped by replacing its
    worker (it overran its time limit by more than the pool's grace); for a
    ``/api/lost_at`` job, ``{"label", "first_action", "stopped": reason}`` with no
    result."""
    if job.get("kind") == "lost_at":
        return {"label": job["label"], "first_action": job["first_action"], "stopped": reason}
    return _solve_json(job, _job_position(job), None, reason)


# -- legal moves, classify -------------------------------------------------------------

def legal(body: Any) -> Dict[str, Any]:
    """``/api/legal``: the legal moves (RULES.md §2.3) of ``{"hand", "to_beat"?,
    "rules"?}`` or of the seat to move of ``{"position", "rules"?}``, in move order.

    :returns: ``{"moves": [notation...], "count": n}``.
    """
    body = _fields(body, ("hand", "to_beat", "position", "rules"))
    if "position" in body:
        if "hand" in body or "to_beat" in body:
            raise DdzError("give a 'position', or a 'hand' (and 'to_beat'), not both")
        found = position_arg(body["position"], body.get("rules")).legal_moves()
    elif "hand" in body:
        found = ddz.legal_moves(_cards_value(body["hand"], "hand"), body.get("to_beat"),
                                rules_arg(body.get("rules")))
    else:
        raise DdzError("give a 'hand' (and 'to_beat') or a 'position'")
    return {"moves": [str(p) for p in found], "count": len(found)}


def _cards_value(value: Any, name: str) -> Any:
    if isinstance(value, str) or (isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return value
    raise DdzError(f"{name} must be card notation or 15 counts, not {_json_type(value)}: "
                   f"{_quote(value)}")


def classify(body: Any) -> Dict[str, Any]:
    """``/api/classify``: the play ``{"cards", "rules"?}`` forms (RULES.md §2), as
    :func:`ddz.classify` (cards forming no play, or several, are a 422).

    :returns: ``{"play": notation, "type": PlayType name, "readings": [notation...]}``.
    """
    body = _fields(body, ("cards", "rules"), ("cards",))
    rules = rules_arg(body.get("rules"))
    cards = _cards_value(body["cards"], "cards")
    play = ddz.classify(cards, rules)
    return {"play": str(play), "type": play.type.name,
            "readings": [str(p) for p in ddz.readings(play.counts, rules)]}


def info(max_seconds: float, workers: int) -> Dict[str, Any]:
    """``GET /api/info``: the version, the rule presets and the server's limits."""
    return {"version": ddz.__version__, "presets": list(PRESETS), "time_limit": max_seconds,
            "workers": workers}


# -- replay ----------------------------------------------------------------------------

def read_records(text: str) -> List[Tuple[Optional[int], Any]]:
    """The records of a file's text: one JSON value (a record or a list of them) or JSON
    lines (blank lines skipped), as ``(line, record)`` pairs (``line`` is ``None`` for
    the records of one JSON value).

    :raises DdzError: empty text, a line that is not JSON.
    """
    if not text.strip():
        raise DdzError("no records: the text is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    except RecursionError:
        raise DdzError("the JSON is nested too deeply") from None
    if data is not None:
        return [(None, r) for r in data] if isinstance(data, list) else [(None, data)]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append((n, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise DdzError(f"line {n} is not JSON: {exc.msg} (column {exc.colno})") from None
            except RecursionError:
                raise DdzError(f"line {n}: the JSON is nested too deeply") from None
    return out


def replay(body: Any) -> Dict[str, Any]:
    """``/api/replay``: replay records (``{"text": file contents}`` in any form
    ``ddz replay`` reads, or ``{"records": [record...]}``), checking every action with
    :meth:`ddz.Game.from_record` / :meth:`ddz.Match.from_record`.

    :returns: ``{"hands": [hand...]}``, each hand as :func:`_hand_json` describes.
    :raises DdzError: unreadable text; :class:`ddz.RecordError` naming the record (its
        number and line) with the record's own message.
    """
    body = _fields(body, ("text", "records"))
    hands = [_hand_json(label, g) for label, g in _games(body)]
    return {"hands": hands}


def _games(body: Dict[str, Any]) -> List[Tuple[str, Any]]:
    """``(label, ddz.Game)`` of every hand of a replay request's ``text`` or ``records``,
    each replayed and checked."""
    if ("text" in body) == ("records" in body):
        raise DdzError("give the records as 'text' (a record file's contents) or 'records' (a list)")
    if "text" in body:
        if not isinstance(body["text"], str):
            raise DdzError(f"text must be a string, not {_json_type(body['text'])}")
        records = read_records(body["text"])
    else:
        if not isinstance(body["records"], list):
            raise DdzError(f"records must be a list, not {_json_type(body['records'])}")
        records = [(None, r) for r in body["records"]]
    out: List[Tuple[str, Any]] = []
    for i, (line, rec) in enumerate(records, 1):
        where = f"record {i}" + ("" if line is None else f" (line {line})")
        is_match = isinstance(rec, dict) and rec.get("format") == "ddz-match"
        try:
            if is_match:
                match = ddz.Match.from_record(rec)
                games = [(f"record {i}, match hand {k}", g) for k, g in enumerate(match.games, 1)]
            else:
                games = [(f"record {i}", ddz.Game.from_record(rec))]
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from None
        if len(out) + len(games) > MAX_RECORDS:
            raise DdzError(f"more than {MAX_RECORDS} hands in one request: open a shorter file")
        out.extend(games)
    if not out:
        raise DdzError("no records: the list is empty")
    return out


# -- where a hand was lost (issue 41) ----------------------------------------------------

#: ``/api/lost_at``'s default budget for a hand, seconds (capped by the server's limit)
LOST_AT_BUDGET = 5.0
#: ``/api/lost_at``'s default time limit per position searched, seconds
LOST_AT_MOVE_TIME = 0.5


def _seconds(body: Dict[str, Any], name: str, default: float, most: float) -> float:
    value = body.get(name)
    if value is None:
        return float(min(default, most))
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise DdzError(f"{name} must be a number of seconds > 0, got {_quote(value)}")
    return float(min(value, most))


def lost_at_job(body: Any, max_seconds: float) -> Dict[str, Any]:
    """Check a ``/api/lost_at`` request in the server (before it waits for a worker).

    :param body: ``{"text"|"records", "hand"?, "time_limit"?, "budget"?}``: the records as
        ``/api/replay`` takes them, ``hand`` the index (0-based, default 0) of a hand in
        the list ``/api/replay`` answers, ``time_limit`` seconds per position searched
        (default :data:`LOST_AT_MOVE_TIME`), ``budget`` seconds for the hand (default
        :data:`LOST_AT_BUDGET`); both at most the server's limit ``max_seconds``.
    :returns: the job (plain JSON values) for :func:`run_job`: ``kind`` ``"lost_at"``,
        the hand's ``record``, ``label``, ``first_action`` (how many of the record's
        actions come before its play phase), ``move_time`` and ``time_limit`` (the budget,
        which the solver pool also waits for).
    :raises DdzError: bad input; a record that does not replay (:class:`ddz.RecordError`);
        a hand the solver cannot analyse (four players, void).
    """
    body = _fields(body, ("text", "records", "hand", "time_limit", "budget"))
    move_time = _seconds(body, "time_limit", LOST_AT_MOVE_TIME, max_seconds)
    budget = _seconds(body, "budget", LOST_AT_BUDGET, max_seconds)
    games = _games({k: v for k, v in body.items() if k in ("text", "records")})
    k = body.get("hand", 0)
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(games):
        raise DdzError(f"hand must be an index 0..{len(games) - 1} of the records' hands, got {_quote(k)}")
    label, game = games[k]
    if game.seats != 3:
        raise DdzError(f"{label}: the solver plays the three-player game only")
    if not game.plays:
        raise DdzError(f"{label}: the hand has no play to analyse ({game.phase})")
    rec = game.to_record()
    return {"kind": "lost_at", "record": rec, "label": label,
            "first_action": len(rec["actions"]) - len(game.plays),
            "move_time": move_time, "time_limit": budget}


def run_job(job: Dict[str, Any], cancel: Optional[threading.Event] = None,
            table_mb: float = DEFAULT_TABLE_MB) -> Dict[str, Any]:
    """Run a worker's job: :func:`run_solve`, or for ``kind: "lost_at"`` :func:`ddz.lost_at`
    (its answer: ``RecordAnalysis.to_dict()`` with ``label`` and ``first_action``)."""
    if job.get("kind") != "lost_at":
        return run_solve(job, cancel, table_mb=table_mb)
    result = ddz.lost_at(job["record"], time_limit=job["move_time"], budget=job["time_limit"],
                         table_mb=table_mb, cancel=cancel)
    return dict(result.to_dict(), label=job["label"], first_action=job["first_action"])


def _fmt(counts: Sequence[int]) -> str:
    """Notation of trusted counts (``ddz.format_cards`` without its checks)."""
    return "".join(RANKS[r] * n for r, n in enumerate(counts))


def _hand_json(label: str, game: Any) -> Dict[str, Any]:
    """One replayed hand, step by step.

    ``frames[k]`` is the table after ``actions[k - 1]`` (``frames[0]``: the first deal):
    ``deal`` (its index), ``hands`` (notation per seat), ``landlord`` (``None`` until the
    auction ends; then the bottom cards are in its hand), ``shown`` (each seat's latest
    bid, double or part of the trick), ``to_act``. ``result`` is the record's result
    with its ``breakdown`` (``None`` for an unfinished hand). ``seed`` is the game's
    seed (an int, or ``None``), ``seed_text`` the same as decimal text (what a page
    shows: a JavaScript number loses the low bits of a seed above 2**53).
    """
    rec = game.to_record()
    seats = game.seats
    actions = rec["actions"]
    deals = game.deals
    fmt = _fmt
    frames = []
    d = 0
    hands = [list(h) for h in deals[0].hands]
    landlord = None
    trick = Trick(seats)
    in_deal = 0           # actions of the current deal so far

    def frame(to_act: Optional[int]) -> None:
        frames.append({"deal": d, "hands": [fmt(h) for h in hands], "landlord": landlord,
                       "shown": list(trick.shown), "to_act": to_act})

    frame(actions[0]["seat"] if actions else game.current_player)
    for k, (a, (_, action)) in enumerate(zip(actions, game.actions)):
        seat, phase, text = a["seat"], a["phase"], a["action"]
        nxt = actions[k + 1] if k + 1 < len(actions) else None
        in_deal += 1
        if phase == "playing":
            trick.add(seat, text)
            if text != "pass":
                hands[seat] = [h - c for h, c in zip(hands[seat], action.counts)]
        else:
            trick.shown[seat] = text
        if d < len(deals) - 1 and in_deal == seats:          # a void deal: the next one
            d += 1
            in_deal = 0
            hands = [list(h) for h in deals[d].hands]
            trick.clear()
        elif landlord is None and phase == "bidding" and game.landlord is not None and (
                nxt is None or nxt["phase"] != "bidding"):  # the auction is over
            landlord = game.landlord
            hands[landlord] = [h + b for h, b in zip(hands[landlord], deals[d].bottom)]
        if nxt is not None and nxt["phase"] == "playing" and phase != "playing":
            trick.clear()                                    # the play phase starts
        frame(nxt["seat"] if nxt else game.current_player)
    if landlord is not None and frames[-1]["hands"] != [fmt(game.hand(s)) for s in range(seats)]:
        raise AssertionError(f"{label}: the replayed hands differ from the game's")  # pragma: no cover
    r = game.result
    result = None
    if r is not None:
        result = r.to_json()
        result["breakdown"] = r.breakdown
    # the seed also as text: JavaScript reads JSON numbers as doubles, which keep 53 bits
    # of a seed of up to 64 (the page shows seed_text, never the number)
    seed = game.seed
    return {"label": label, "seed": seed, "seed_text": None if seed is None else str(seed),
            "seats": seats, "rules": rec["rules"],
            "first_bidder": game.first_bidder, "landlord": game.landlord,
            "deals": [{"hands": [fmt(h) for h in x.hands], "bottom": fmt(x.bottom)} for x in deals],
            "actions": actions, "frames": frames, "result": result, "phase": str(game.phase)}
