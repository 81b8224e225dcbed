"""What a protocol program says, checked (``docs/protocol.md``; issue 40): its command
before it runs, its ``ready``, its name, and each answer, so that the arena
(:class:`ddz.arena.protocol.ProtocolBot`) fails fast and says why.

* :class:`Forfeit` (a hand lost) and :class:`BotStartError` (a program that never
  started: the match stops);
* :func:`parse_command`: a ``cmd:`` bot's arguments, its program found, nothing run;
* :func:`printable_name`: a name safe to print in a table;
* :func:`ready_name`, :func:`answer_of`, :func:`parse_action`: the answers, field by field.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import unicodedata
from typing import Any, Dict, List, Optional, Sequence

from ..core.play import Play
from ..core.rules import Rules
from ..errors import DdzError
from ..game.phase import Phase

__all__ = ["Forfeit", "BotStartError", "NAME_LIMIT", "printable_name", "parse_command", "ready_name",
           "answer_of", "parse_action"]

NAME_LIMIT = 40
"""The longest bot name shown (characters); longer names are cut (:func:`printable_name`)."""


class Forfeit(Exception):
    """A protocol bot lost the hand by forfeit: ``kind`` is ``"garbage"`` (an answer that
    is no JSON object with an action), ``"illegal"`` (an action not among the legal
    ones), ``"crash"`` (the program exited or closed its output) or ``"start"`` (it never
    answered ``hello``); ``detail`` says what happened."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class BotStartError(DdzError):
    """A protocol program did not start: it cannot be run, exited, answered ``hello`` with
    something other than a ``ready`` of this protocol version, or said nothing within the
    ready time. Raised at the program's first start (the whole match stops: ``ddz arena``
    exits with status 2), since no hand of a program that never started can be played;
    a program that played and fails to start again forfeits the hand instead
    (``Forfeit("start", ...)``)."""


def printable_name(name: str, limit: int = NAME_LIMIT) -> str:
    """``name`` made safe to print in a table: every control, format, separator (other
    than the space) or unassigned character written as a ``\\xNN``/``\\uNNNN`` escape,
    so that no terminal escape sequence or line break is ever printed raw, and the result
    cut to ``limit`` characters (the last one ``…``). ``""`` becomes ``"?"``.

    :param name: a str.
    :param limit: the longest result (>= 2).
    :returns: a str of printable characters, at most ``limit`` long.
    """
    out = []
    for ch in name:
        cat = unicodedata.category(ch)
        if ch == " " or not (cat[0] in "CZ"):
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    text = "".join(out).strip() or "?"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def parse_command(command: Any, cwd: Optional[str] = None) -> List[str]:
    """The argument list of a ``cmd:`` bot's command, checked without running anything.

    :param command: a str split as a POSIX shell would (quotes and backslashes; no
        variables, globs or pipes: no shell runs), or a list of str.
    :param cwd: the directory the program will run in (a relative program path is
        looked up there).
    :returns: ``[program, arg, ...]``.
    :raises DdzError: an empty command, a quote left open, or a program that is neither
        an executable file (when the name holds a ``/``) nor found on ``PATH``.
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:          # "No closing quotation", "No escaped character"
            raise DdzError(f"cannot read the command {command!r}: {str(exc).lower()} (it is split "
                           "as a shell would, without running one)") from None
    elif isinstance(command, (list, tuple)) and all(isinstance(c, str) for c in command):
        argv = list(command)
    else:
        raise DdzError(f"a protocol bot's command is a str or a list of str, not {type(command).__name__}")
    if not argv or not argv[0]:
        raise DdzError(f"a protocol bot needs a command (a program and its arguments), got {command!r}")
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        path = program if cwd is None or os.path.isabs(program) else os.path.join(cwd, program)
        if not os.path.isfile(path):
            raise DdzError(f"cannot run {program!r}: no such file")
        if not os.access(path, os.X_OK):
            raise DdzError(f"cannot run {program!r}: the file is not executable (chmod +x, or name "
                           "its interpreter first: cmd:python3 mybot.py)")
    elif shutil.which(program) is None:
        raise DdzError(f"cannot run {program!r}: no such program on PATH (give a path such as ./{program})")
    return argv


def ready_name(line: bytes, version: int) -> Optional[str]:
    """Check a program's answer to ``hello`` (docs/protocol.md, "Starting"): a ``ready``
    message of protocol ``version`` (an int), with an optional str ``name``.

    :returns: the name it gives, or ``None``.
    :raises Forfeit: ``"start"`` naming what is wrong (not JSON, not ``ready``, another
        or no protocol version, a name that is not a str).
    """
    try:
        msg = json.loads(line)
    except ValueError:
        msg = None
    if not isinstance(msg, dict) or msg.get("type") != "ready":
        raise Forfeit("start", f"the answer to 'hello' is not a 'ready' message: {line[:200]!r}")
    got = msg.get("protocol")
    if type(got) is not int or got != version:
        raise Forfeit("start", f"the program speaks protocol {got!r:.40}; the arena speaks "
                               f"{version} ('ready' must say \"protocol\":{version})")
    name = msg.get("name")
    if name is not None and not isinstance(name, str):
        raise Forfeit("start", f"'ready' gives a name that is not a string: {name!r:.60}")
    return name


def answer_of(line: bytes, rid: int, late: Any = ()) -> Optional[Dict[str, Any]]:
    """The answer a line holds to request ``rid`` (docs/protocol.md, "The answer"), or
    ``None`` for an answer to a request that timed out or was forfeited (ignored).

    :param line: the line read (without its newline).
    :param rid: the id of the request waiting for its answer.
    :param late: ids of earlier requests that timed out or whose answer was a forfeit.
    :returns: the answer object (its action not yet read: :func:`parse_action`).
    :raises Forfeit: ``"garbage"``: not JSON, not an object, no ``id``, or an ``id`` that
        is not the integer id of this request or of one that timed out or was forfeited
        (``-1``, ``1.0``, ``"7"``, an id not sent yet, the id of a request already
        answered).
    """
    try:
        answer = json.loads(line)
    except ValueError:
        raise Forfeit("garbage", f"not JSON: {line[:200]!r}") from None
    if not isinstance(answer, dict):
        raise Forfeit("garbage", f"the answer is not a JSON object: {line[:200]!r}")
    if "id" not in answer:
        raise Forfeit("garbage", f"the answer has no 'id' (the request's is {rid}): {line[:200]!r}")
    got = answer["id"]
    if type(got) is int and got == rid:
        return answer
    if type(got) is int and got in late:
        return None
    raise Forfeit("garbage", f"the answer's id must be the integer id of the request, {rid}, not {got!r:.40}")


def parse_action(answer: Any, legal: Sequence[Any], legal_ids: Optional[Sequence[int]], text_ids: Dict[str, int],
                 phase: Phase, rules: Rules) -> Any:
    """The legal action an answer names (``docs/protocol.md``: exactly one of
    ``"action"``, as notation or the words of the request's ``legal``, and
    ``"action_id"``, in the play phase only).

    :raises Forfeit: ``"garbage"`` for an answer of no such shape (neither field, both,
        ``action_id`` outside the play phase or not an int), ``"illegal"`` for an action
        that is not legal.
    """
    if not isinstance(answer, dict):
        raise Forfeit("garbage", f"the answer is not a JSON object: {answer!r:.200}")
    has_action, has_id = "action" in answer, "action_id" in answer
    if has_action and has_id:
        raise Forfeit("garbage", f"the answer gives both 'action' and 'action_id' (give one): {answer!r:.200}")
    if not (has_action or has_id):
        raise Forfeit("garbage", f"the answer has no 'action' or 'action_id': {answer!r:.200}")
    if phase is Phase.PLAYING:
        if has_id:
            aid = answer["action_id"]
            if type(aid) is not int:
                raise Forfeit("garbage", f"action_id must be an int, got {aid!r:.100}")
        elif isinstance(answer["action"], str):
            text = answer["action"].strip()
            aid = text_ids.get(text)
            if aid is None:
                try:
                    aid = text_ids.get(str(Play.parse(text, rules)))   # notation not in canonical order
                except DdzError:
                    aid = None
            if aid is None:
                raise Forfeit("illegal", f"{text!r:.100} is not a play")
        else:
            raise Forfeit("garbage", f"'action' must be a str (a play's notation), got {answer['action']!r:.100}")
        try:
            return legal[legal_ids.index(aid)]
        except ValueError:
            pass
        raise Forfeit("illegal", f"action id {aid} ({answer.get('action', '')!s:.60}) is not legal here")
    if has_id:
        raise Forfeit("garbage", f"action_id is for the play phase; in phase {phase.value} answer with 'action'")
    action = answer["action"]
    if isinstance(action, bool):
        action = ("double" if phase is Phase.DOUBLING else "open") if action else "pass"
    if isinstance(action, int):
        action = str(action)
    if not isinstance(action, str):
        raise Forfeit("garbage", f"'action' must be a str, got {action!r:.100}")
    word = action.strip().lower()
    if phase is Phase.BIDDING:
        names = {"pass": 0, "0": 0, "1": 1, "2": 2, "3": 3, "call": 1, "rob": 1}
    else:
        names = {"pass": False, "0": False, "false": False, "no": False, "double": True, "redouble": True,
                 "open": True, "1": True, "true": True, "yes": True}
    value = names.get(word)
    for a in legal:
        if value is not None and a == value and type(a) is type(value):
            return a
    raise Forfeit("illegal", f"{action!r:.60} is not one of the legal actions {list(legal)} in phase {phase.value}")
