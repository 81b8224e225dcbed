"""The bot protocol (``docs/protocol.md``): JSON lines over a bot program's standard input
and output, so that a bot written in any language can play in the arena.

Two sides live here:

* :class:`ProtocolBot`, the arena's end: it starts the program (``cmd:./mybot --flag``),
  says hello, sends one ``act`` request per decision and reads the answer within the time
  control; a program that is too slow gets :meth:`ddz.Game.timeout_action` (RULES.md §5);
  one that answers garbage or an illegal action, or dies, forfeits the hand
  (:class:`Forfeit`), and a dead program is started again for the next hand.
* :func:`serve`, the bot's end in Python: it reads the requests, rebuilds the seat's
  :class:`ddz.Observation` and the legal actions, calls ``bot.act(observation, legal)``
  and writes the answer, so that a protocol bot is a ten-line program. ``python -m
  ddz.arena BOT`` serves any bot the arena knows by name (``greedy``, ``expert``,
  ``module:Class``...).

What the program says is checked in :mod:`ddz.arena.checks` (its command, ``ready``,
name and answers); :class:`Forfeit` and :class:`BotStartError` live there too.
"""

from __future__ import annotations

import json
import os
import random
import select
import shlex
import signal
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple

from ..errors import DdzError
from ..game.observations import Observation
from ..game.phase import Phase
from ..core.play import PASS, Play
from ..core.rules import Rules
from .checks import (NAME_LIMIT, BotStartError, Forfeit, answer_of, parse_action, parse_command, printable_name,
                     ready_name)

__all__ = ["PROTOCOL_VERSION", "ProtocolBot", "Forfeit", "BotStartError", "serve", "request", "answer_of", "parse_action",
           "notation_of", "parse_command", "printable_name", "NAME_LIMIT"]

_GROUPS = os.name == "posix"      # a bot program runs in its own process group, ended with it

PROTOCOL_VERSION = 1
"""The version of ``docs/protocol.md`` spoken here (sent in ``hello`` and ``ready``)."""

DEFAULT_MOVE_SECONDS = 10.0
"""A protocol bot's time per decision when the arena gives none (a program that hangs
cannot hang the arena)."""
DEFAULT_START_SECONDS = 20.0
"""The time a program has to answer ``hello`` with ``ready``, at each start (``ddz arena
--ready-seconds``)."""

_BID_TEXT = {0: "pass", 1: "1", 2: "2", 3: "3"}
_DOUBLE_TEXT = {False: "pass", True: "double"}
_OPEN_TEXT = {False: "pass", True: "open"}


# -- the messages ---------------------------------------------------------------------

_NOTATION: Dict[Rules, Tuple[List[str], Dict[str, int]]] = {}


def notation_of(space) -> Tuple[List[str], Dict[str, int]]:
    """``(notation by action id, action id by notation)`` of an :class:`ddz.ActionSpace`,
    built once per rule set (a few tens of ms) and kept."""
    key = space.rules
    found = _NOTATION.get(key)
    if found is None:
        texts = [space.notation(i) for i in range(len(space))]
        found = _NOTATION[key] = (texts, {t: i for i, t in enumerate(texts)})
    return found


from ..core.cards import RANK_CHARS as _RANKS

_RANK_OF = {ch: r for r, ch in enumerate(_RANKS)}


def _cards(counts) -> Optional[str]:
    """Rank notation of trusted counts (``None`` stays ``None``)."""
    if counts is None:
        return None
    return "".join([_RANKS[r] * c for r, c in enumerate(counts) if c])


def _counts(text: Optional[str]) -> Optional[Tuple[int, ...]]:
    """Counts of the arena's rank notation (trusted: the arena wrote it)."""
    if text is None:
        return None
    c = [0] * 15
    rank_of = _RANK_OF
    for ch in text:
        c[rank_of[ch]] += 1
    return tuple(c)


def request(obs: Observation, legal: Sequence[Any], legal_ids: Optional[Sequence[int]], texts: List[str],
            rid: int, time_left: Optional[Dict[str, float]] = None, nodes: Optional[int] = None,
            history: Optional[List[list]] = None) -> Dict[str, Any]:
    """The ``act`` request of one decision (``docs/protocol.md``).

    :param obs: the seat's :class:`ddz.Observation`.
    :param legal: :meth:`ddz.Game.legal_actions`.
    :param legal_ids: in the play phase the legal action ids (ascending, the order of
        ``legal``), else ``None``.
    :param texts: notation by action id (:func:`notation_of`).
    :param rid: the request id the answer must echo.
    :param time_left: ``{"move": seconds, "hand": seconds}`` or ``None``.
    :param nodes: a node budget for search bots, or ``None``.
    :param history: the hand's history as sent before (``[seat, notation]`` lists), which
        is extended in place with the plays since (a caller that keeps it per hand
        formats each play once); ``None`` formats the whole history.
    :returns: a JSON-serializable dict.
    """
    phase = obs.phase
    lord = obs.landlord
    if phase is Phase.PLAYING:
        legal_text = [texts[i] for i in legal_ids]
    elif phase is Phase.BIDDING:
        legal_text = [_BID_TEXT[a] if obs.rules.bidding == "points" else ("pass", "call")[a] for a in legal]
    elif phase is Phase.DOUBLING:
        legal_text = [_DOUBLE_TEXT[a] for a in legal]
    else:
        legal_text = [_OPEN_TEXT[a] for a in legal]
    plays = obs.plays
    if history is None:
        history = []
    elif len(history) > len(plays):
        del history[:]
    if len(history) < len(plays):
        history += [[s, str(p)] for s, p in plays[len(history):]]
    to_beat = obs.to_beat
    return {
        "type": "act", "id": rid, "seat": obs.seat, "phase": phase.value,
        "role": None if lord is None else ("landlord" if lord == obs.seat else "farmer"),
        "landlord": lord, "hand": _cards(obs.hand), "cards_left": list(obs.cards_left),
        "bottom": _cards(obs.bottom), "bid": obs.bid, "bidding": [list(b) for b in obs.bidding],
        "robs": obs.robs, "doubles": list(obs.doubles), "multiplier": obs.multiplier,
        "history": history, "to_beat": None if to_beat is None else str(to_beat), "to_beat_seat": obs.to_beat_seat,
        "open_hand": _cards(obs.open_hand), "face_up": None if obs.face_up is None else list(obs.face_up),
        "legal": legal_text, "legal_ids": legal_ids,
        "time_left": time_left, "nodes": nodes,
    }


# -- the arena's end ----------------------------------------------------------------------

class ProtocolBot:
    """A bot program spoken to over the protocol: the arena's side of ``cmd:...``.

    :param command: the program and its arguments (a list, or a str split as a shell
        would, without running a shell).
    :param move_seconds: time per decision (default :data:`DEFAULT_MOVE_SECONDS`); a bot
        that takes longer gets :meth:`ddz.Game.timeout_action` (recorded).
    :param hand_seconds: time per hand for all its decisions (``None``: no limit); once
        spent, every decision left is a timeout.
    :param nodes: a node budget sent with every request (for search bots; advisory).
    :param name: the name to report (default: the one the program gives in ``ready``),
        shown through :func:`printable_name`.
    :param cwd: working directory of the program.
    :param ready_seconds: the time the program has to answer ``hello`` with ``ready``
        at each start (default :data:`DEFAULT_START_SECONDS`).

    The program is started lazily (at the first hand), and again before the next hand
    after it died. :meth:`close` ends it. A first start that fails raises
    :class:`BotStartError`; a later one forfeits the hand (``Forfeit("start", ...)``).
    """

    def __init__(self, command, *, move_seconds: Optional[float] = DEFAULT_MOVE_SECONDS,
                 hand_seconds: Optional[float] = None, nodes: Optional[int] = None,
                 name: Optional[str] = None, cwd: Optional[str] = None,
                 ready_seconds: Optional[float] = DEFAULT_START_SECONDS) -> None:
        if isinstance(command, str):
            try:
                command = shlex.split(command)
            except ValueError as exc:
                raise DdzError(f"cannot read the command {command!r}: {str(exc).lower()}") from None
        if not command or not all(isinstance(c, str) for c in command):
            raise DdzError(f"a protocol bot needs a command (a program and its arguments), got {command!r}")
        for what, v in (("move_seconds", move_seconds), ("hand_seconds", hand_seconds),
                        ("ready_seconds", ready_seconds)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0):
                raise DdzError(f"{what} must be a positive number of seconds or None, got {v!r}")
        self.command = list(command)
        self.move_seconds = DEFAULT_MOVE_SECONDS if move_seconds is None else float(move_seconds)
        self.hand_seconds = None if hand_seconds is None else float(hand_seconds)
        self.ready_seconds = DEFAULT_START_SECONDS if ready_seconds is None else float(ready_seconds)
        self.nodes = nodes
        self.name = None if name is None else printable_name(name)
        self.cwd = cwd
        self._proc: Optional[subprocess.Popen] = None
        self._buf = b""
        self._closed = False                       # its output closed or its input broken: it is ending
        self._rid = 0
        self._late: set = set()                    # ids of requests timed out or forfeited (answers ignored)
        self._rules: Optional[Rules] = None
        self._texts: Optional[Tuple[List[str], Dict[str, int]]] = None
        self._hand_left: Optional[float] = None
        self.events: List[Dict[str, Any]] = []     # this hand's timeouts and forfeits
        self._history: List[list] = []             # this hand's history as sent
        self.starts = 0
        self.ready = 0                             # starts that ended with 'ready'

    def __repr__(self) -> str:
        return f"ProtocolBot({' '.join(self.command)!r})"

    # process management
    def _start(self, rules: Rules) -> None:
        """Start the program, say ``hello`` and wait :attr:`ready_seconds` for ``ready``.

        :raises BotStartError: the first start failed (see :class:`BotStartError`).
        :raises Forfeit: ``"start"``, a later start (after a crash) failed."""
        try:
            self._start_once(rules)
        except Forfeit as exc:
            self.close()
            if self.ready:
                raise Forfeit("start", exc.detail) from None
            raise BotStartError(f"bot {' '.join(self.command)!r} did not start: {exc.detail}") from None
        self.ready += 1

    def _start_once(self, rules: Rules) -> None:
        self.close()
        self.starts += 1
        self._late = set()
        try:
            # a process group of its own: closing the bot ends its children too (a shell
            # script's `sleep` would otherwise outlive it, holding our stderr open)
            self._proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          cwd=self.cwd, bufsize=0, start_new_session=_GROUPS)
        except OSError as exc:
            self._proc = None
            raise Forfeit("start", f"cannot start {' '.join(self.command)!r}: {exc.strerror or exc}") from None
        self._buf = b""
        self._closed = False
        try:
            self._send({"type": "hello", "protocol": PROTOCOL_VERSION, "rules": rules.to_json(),
                        "players": rules.players})
            line = self._readline(self.ready_seconds)
        except Forfeit:
            raise Forfeit("start", f"the program exited before saying 'ready' (exit status {self._status()})") from None
        if line is None:
            raise Forfeit("start", f"no 'ready' within {self.ready_seconds:g} s (a program whose output is "
                                   "block-buffered, as awk's, C's stdio and Python's are on a pipe, must flush "
                                   "after each line: docs/protocol.md, 'Flushing')")
        self._check_ready(line)

    def _check_ready(self, line: bytes) -> None:
        name = ready_name(line, PROTOCOL_VERSION)
        if self.name is None and name:
            self.name = printable_name(name)

    def _status(self) -> Any:
        """The program's exit status, waiting a moment for it to exit (``None`` if it runs)."""
        if self._proc is None:
            return None
        try:
            return self._proc.wait(0.5)
        except subprocess.TimeoutExpired:
            return None

    def alive(self) -> bool:
        """Whether the program is running (one that closed its output or its input is
        ending, even before it has exited)."""
        return self._proc is not None and not self._closed and self._proc.poll() is None

    def close(self) -> None:
        """Say ``quit`` and end the program (killed if it does not exit within a second)."""
        proc = self._proc
        self._proc = None
        if proc is None:
            return
        try:
            if proc.poll() is None:
                try:
                    proc.stdin.write(b'{"type":"quit"}\n')
                    proc.stdin.flush()
                except OSError:
                    pass
            try:
                proc.stdin.close()
            except OSError:
                pass
            try:
                proc.wait(1.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if _GROUPS:
                try:                    # whatever it started and left behind
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:         # no process left in the group
                    pass
        finally:
            if proc.stdout is not None:
                proc.stdout.close()

    def __del__(self) -> None:  # pragma: no cover - best effort at interpreter exit
        try:
            self.close()
        except Exception:
            pass

    def _send(self, msg: Dict[str, Any]) -> None:
        data = (json.dumps(msg, separators=(",", ":")) + "\n").encode()
        try:
            self._proc.stdin.write(data)
        except (OSError, AttributeError):
            self._closed = True
            raise Forfeit("crash", "its standard input is closed (the program exited)") from None

    def _readline(self, timeout: float) -> Optional[bytes]:
        """The next line, or ``None`` when ``timeout`` seconds pass first.

        :raises Forfeit: ``crash`` at end of file."""
        deadline = time.monotonic() + timeout
        fd = self._proc.stdout.fileno()
        while True:
            i = self._buf.find(b"\n")
            if i >= 0:
                line, self._buf = self._buf[:i], self._buf[i + 1:]
                return line
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                self._closed = True
                code = self._status()
                raise Forfeit("crash", f"the program closed its output (exit status {code})")
            self._buf += chunk

    # the arena's calls
    def new_hand(self, rules: Rules, seat: int, seed: int, hand: str) -> None:
        """Start a hand: (re)start the program if needed, then send ``new_hand`` (with
        the seed as a number and as text, ``seed_text``).

        :raises BotStartError: the program's first start failed.
        :raises Forfeit: ``"start"``, a restart after a crash failed."""
        self.events = []
        self._history: List[list] = []
        self._hand_left = self.hand_seconds
        if self._rules != rules or not self.alive():
            self._rules = rules
            # start-up time: only DouZero-mode observations need the action space
            from ..game.actions import ActionSpace
            self._texts = notation_of(ActionSpace(rules.move_rules))
            self._start(rules)
        # the seed also as text: JSON readers that keep numbers as doubles (JavaScript)
        # would lose the low bits of a seed above 2**53
        self._send({"type": "new_hand", "hand": hand, "seat": seat, "seed": seed, "seed_text": str(seed)})

    def act_game(self, game, obs: Observation, legal: List[Any]) -> Any:
        """One decision: send the request, wait for the answer within the time left.

        :returns: the legal action, or :meth:`ddz.Game.timeout_action` after a timeout
            (recorded in :attr:`events`).
        :raises Forfeit: garbage, an illegal action, or the program died."""
        if not self.alive():
            raise Forfeit("crash", f"the program is not running (exit status {self._proc and self._proc.poll()})")
        phase = obs.phase
        ids = game.legal_action_ids().tolist() if phase is Phase.PLAYING else None
        texts, text_ids = self._texts
        self._rid += 1
        rid = self._rid
        budget = self.move_seconds if self._hand_left is None else min(self.move_seconds, self._hand_left)
        time_left = {"move": self.move_seconds, "hand": self._hand_left}
        t0 = time.monotonic()
        if budget > 0:
            self._send(request(obs, legal, ids, texts, rid, time_left, self.nodes, self._history))
        while True:
            left = budget - (time.monotonic() - t0)
            line = self._readline(left) if left > 0 else None
            if line is None:
                self._spend(time.monotonic() - t0)
                self._late.add(rid)
                self.events.append({"event": "timeout", "seat": obs.seat, "ply": len(obs.plays),
                                    "phase": phase.value})
                return game.timeout_action()
            try:
                answer = answer_of(line, rid, self._late)
                if answer is None:
                    continue              # a late answer to a request that timed out or was forfeited
                self._spend(time.monotonic() - t0)
                return parse_action(answer, legal, ids, text_ids, phase, obs.rules)
            except Forfeit:
                self._late.add(rid)       # the program may still answer it: that answer is ignored
                raise

    def _spend(self, seconds: float) -> None:
        if self._hand_left is not None:
            self._hand_left = max(0.0, self._hand_left - seconds)

    def end_hand(self, hand: str, result: Optional[Dict[str, Any]], forfeit: Optional[Dict[str, Any]]) -> None:
        """Tell the program the hand is over (no answer expected); a dead program is left
        for :meth:`new_hand` to restart."""
        if self.alive():
            try:
                self._send({"type": "end", "hand": hand, "result": result, "forfeit": forfeit})
            except Forfeit:
                pass


# -- the bot's end ------------------------------------------------------------------------

class _Hand:
    """What :func:`serve` keeps of the current hand: the history parsed so far."""

    def __init__(self) -> None:
        self.plays: List[Tuple[int, Play]] = []


def _observation(msg: Dict[str, Any], rules: Rules, hand: _Hand, by_id: List[Play],
                 text_ids: Dict[str, int]) -> Observation:
    plays = hand.plays
    history = msg["history"]
    if len(plays) > len(history):
        del plays[:]
    if len(plays) < len(history):
        for seat, text in history[len(plays):]:
            i = text_ids.get(text)
            plays.append((seat, by_id[i] if i is not None else Play.parse(text, rules)))
    to_beat = msg["to_beat"]
    if to_beat is not None:
        i = text_ids.get(to_beat)
        to_beat = by_id[i] if i is not None else Play.parse(to_beat, rules)
    face_up = msg["face_up"]
    return _new_tuple(Observation, (
        msg["seat"], _PHASES[msg["phase"]], msg["seat"], rules, _counts(msg["hand"]), msg["landlord"],
        msg["bid"], tuple([tuple(b) for b in msg["bidding"]]), msg["robs"],
        tuple(msg["doubles"]), _counts(msg["bottom"]), tuple(plays), tuple(msg["cards_left"]),
        to_beat, msg["to_beat_seat"], msg["multiplier"], _counts(msg["open_hand"]),
        None if face_up is None else tuple(face_up)))


_new_tuple = tuple.__new__
_PHASES = {p.value: p for p in Phase}


def _legal(msg: Dict[str, Any], phase: Phase, plays: List[Play]) -> List[Any]:
    if phase is Phase.PLAYING:
        return [plays[i] for i in msg["legal_ids"]]
    words = {"pass": 0, "call": 1, "1": 1, "2": 2, "3": 3} if phase is Phase.BIDDING else \
        {"pass": False, "double": True, "open": True}
    return [words[w] for w in msg["legal"]]


def serve(bot: Any, name: Optional[str] = None, stdin: Optional[TextIO] = None,
          stdout: Optional[TextIO] = None) -> int:
    """Play as a protocol bot (``docs/protocol.md``) until the arena says ``quit`` or
    closes the input.

    For each ``act`` request it rebuilds the seat's :class:`ddz.Observation` and the legal
    actions (:class:`ddz.Play` objects in the play phase; ints when bidding, bools when
    doubling or opening, as :meth:`ddz.Game.legal_actions` gives them), calls
    ``bot.act(observation, legal)`` and answers with the action. At ``new_hand`` it seeds
    ``random`` (and ``bot.seed(seed)`` if the bot has one) from the arena's seed, so the
    hand is reproducible.

    :param bot: any object with ``act(observation, legal)`` (a :class:`ddz.Bot`).
    :param name: the name announced in ``ready`` (default: the bot's class name).
    :param stdin, stdout: the streams (default the process's).
    :returns: 0 (for ``sys.exit``).
    :raises DdzError: ``bot`` has no callable ``act``.
    """
    if not callable(getattr(bot, "act", None)):
        raise DdzError(f"serve() needs a bot with act(observation, legal), got {bot!r}")
    from ..game.actions import ActionSpace   # start-up time: only DouZero-mode observations need the action space
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    name = name or type(bot).__name__
    rules = space = text_ids = index = plays = None
    hand = _Hand()
    write = stdout.write
    flush = stdout.flush
    for line in stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "act":
            phase = _PHASES[msg["phase"]]
            obs = _observation(msg, rules, hand, plays, text_ids)
            action = bot.act(obs, _legal(msg, phase, plays))
            if phase is Phase.PLAYING:
                aid = index.get(action) if isinstance(action, Play) else None
                answer = {"id": msg["id"], "action_id": space_ids(space, action) if aid is None else aid}
            else:
                answer = {"id": msg["id"], "action": _answer_text(phase, rules, action)}
            write(json.dumps(answer) + "\n")
            flush()
        elif kind == "new_hand":
            hand = _Hand()
            random.seed(msg.get("seed"))
            seed_fn = getattr(bot, "seed", None)
            if callable(seed_fn):
                seed_fn(msg.get("seed"))
        elif kind == "hello":
            rules = Rules.from_json(msg["rules"])
            space = ActionSpace(rules.move_rules)
            text_ids = notation_of(space)[1]
            plays = list(space)
            index = {p: i for i, p in enumerate(plays)}
            write(json.dumps({"type": "ready", "protocol": PROTOCOL_VERSION, "name": name}) + "\n")
            flush()
        elif kind == "quit":
            break
    return 0


def _answer_text(phase: Phase, rules: Rules, action: Any) -> str:
    """The word of a bid, double or open-play answer (``pass``, ``1``..``3``, ``call``,
    ``double``, ``open``)."""
    if phase is Phase.BIDDING:
        if isinstance(action, int) and not isinstance(action, bool):
            return ("pass", "call")[action] if rules.bidding == "rob" and action in (0, 1) else _BID_TEXT.get(action, str(action))
        return str(action)
    if isinstance(action, bool):
        return (_DOUBLE_TEXT if phase is Phase.DOUBLING else _OPEN_TEXT)[action]
    return str(action)


def space_ids(space, action: Any) -> int:
    """The action id of a play answer (a :class:`ddz.Play` or notation)."""
    if isinstance(action, Play):
        return space.id(action)
    return space.id(PASS if action == "pass" else action)
