"""Hand records (``docs/records.md``): the format and its versions 1–5, writing one
(:meth:`ddz.Game.to_record`) and replaying one with every check (:meth:`ddz.Game.from_record`)."""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Mapping, Type, TypeVar

from ..core.cards import is_integer
from ..core.play import Play
from ..core.rules import Rules
from ..errors import DdzError, DealError, RecordError, quote
from .deal import Deal, check_bonus_deal, is_legacy_rng
from .phase import Phase
from .results import Result

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "GameRecords"]

RECORD_FORMAT = "ddz-record"
RECORD_VERSION = 5
#: the last version whose seeded deals came from ``random.Random(seed)`` (version 5 deals
#: from the deal stream, ``ddz.game.deal``); a game replayed from such a record keeps that
#: generator and is written back as this version
LEGACY_DEAL_VERSION = 4

_ADDED_IN_3 = ("all_pass", "max_redeals", "players", "straights", "doubling_bombs", "first_bidder",
               "bid_rounds", "wings", "four_with_two", "airplane_rank")
_ADDED_IN_4 = ("beat_reading", "chain_from_four", "bomb_on_rocket")

#: per record version, the Rules fields added after it: a record of that version lacks
#: them, and they take their defaults (version 2 added ``banned``, version 3 the fields of
#: ``_ADDED_IN_3``, version 4 those of ``_ADDED_IN_4``)
_RULES_ADDED = {1: ("banned",) + _ADDED_IN_3 + _ADDED_IN_4, 2: _ADDED_IN_3 + _ADDED_IN_4, 3: _ADDED_IN_4,
                4: (), 5: ()}


#: every field a hand record may hold (docs/records.md); ``result`` and ``face_up`` (version
#: 3; ``null`` in older ones, whose rules have no face-up card) may be missing, and ``meta``
#: (a tool's notes, e.g. the arena's: never read on replay) is optional in every version
_RECORD_FIELDS = frozenset({"format", "version", "rules", "seed", "dealt_from_seed", "first_bidder", "face_up",
                            "deals", "actions", "result", "meta"})
_ACTION_FIELDS = frozenset({"seat", "phase", "action"})
_RESULT_FIELDS = frozenset(f.name for f in dataclasses.fields(Result))


def _known_fields(data: Mapping[str, Any], known: Any, what: str) -> None:
    """The one rule of records for unknown fields (docs/records.md): there are none.

    :raises RecordError: ``data`` has a field outside ``known``, naming it and ``what``.
    """
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise RecordError(f"{what} has unknown field(s) {unknown}; its fields are {sorted(known)} "
                          "(a record holds exactly the fields of its version: docs/records.md)")


def _record_rules(data: Any, version: int) -> Rules:
    """The ``rules`` of a record: an object with exactly every field of :class:`Rules`
    of the record's version (docs/records.md); a missing field is an error, not a
    default, so that a record always says which rules it was played by."""
    added = _RULES_ADDED[version]
    if isinstance(data, Mapping):
        late = sorted(k for k in added if k in data)
        if late:
            raise RecordError(f"the record's rules: a version {version} record has no field(s) {late} "
                              f"(added in a later version)")
    try:
        return Rules.from_json(data, defaults=added)
    except DdzError as exc:
        raise RecordError(f"the record's rules: {exc}") from None


_G = TypeVar("_G", bound="GameRecords")


class GameRecords:
    """Records of :class:`ddz.Game` (a part of the class, by concept: the game's state
    lives in ``ddz.game.state``, which composes this mixin)."""

    __slots__ = ()

    def to_record(self) -> Dict[str, Any]:
        """The hand as a JSON-serializable record (format in ``docs/records.md``).

        :returns: ``{"format", "version", "rules", "seed", "dealt_from_seed",
            "first_bidder", "face_up", "deals", "actions", "result"}``; ``face_up`` is
            ``{"seat", "card"}`` with ``Rules.first_bidder="face_up"`` (else ``None``);
            ``result`` is ``None`` while the hand is not over. ``version`` is
            :data:`RECORD_VERSION`, or 4 for a game replayed from a record of version 4 or
            older (its seed deals with ``random.Random``: docs/records.md).
        """
        actions = []
        calls = set(self._calls)
        for i, (seat, action) in enumerate(self.actions):
            if isinstance(action, Play):
                phase, text = "playing", str(action)
            elif isinstance(action, bool) and self.seats == 4:   # no doubling with four: open play
                phase, text = "opening", "open" if action else "pass"
            elif isinstance(action, bool):
                phase, text = "doubling", ("double" if seat != self.landlord else "redouble") if action else "pass"
            else:
                phase = "bidding"
                if not action:
                    text = "pass"
                elif self.rules.bidding == "points":
                    text = str(action)
                else:
                    text = "call" if i in calls else "rob"
            actions.append({"seat": seat, "phase": phase, "action": text})
        r = self.rules
        return {
            "format": RECORD_FORMAT,
            "version": LEGACY_DEAL_VERSION if is_legacy_rng(self._rng) else RECORD_VERSION,
            "rules": r.to_json(),
            "seed": self.seed, "dealt_from_seed": self._dealt_from_seed,
            "first_bidder": self.first_bidder,
            "face_up": None if self.face_up is None else {"seat": self.face_up[0], "card": self.face_up[1]},
            "deals": [d.to_json() for d in self._deals],
            "actions": actions,
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_record(cls: Type[_G], record: Mapping[str, Any]) -> _G:
        """Replay a record (see ``docs/records.md``), checking every action.

        :param record: a dict as made by :meth:`to_record` (e.g. from ``json.load``).
        :returns: the :class:`Game` after the last recorded action.
        :raises RecordError: a malformed record, a field its version does not have (at
            any level: docs/records.md has one rule for unknown fields), more deals than
            the rules allow in a hand (said before any deal is parsed), a deal that the
            seed does not deal, an action by the wrong seat or illegal (the message names
            the first bad action by index and seat), or a result that differs from the
            replayed one (a ``null`` or missing result is not checked: it is computed).
        """
        if not isinstance(record, Mapping):
            raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
        version = record.get("version")
        if (record.get("format") != RECORD_FORMAT or isinstance(version, bool)
                or not isinstance(version, int) or version not in _RULES_ADDED):
            raise RecordError(f"not a {RECORD_FORMAT} record of version 1..{RECORD_VERSION}: "
                              f"format {record.get('format')!r}, version {version!r}")
        missing = {"rules", "seed", "dealt_from_seed", "first_bidder", "deals", "actions"} - set(record)
        if missing:
            raise RecordError(f"the record lacks {sorted(missing)}")
        _known_fields(record, _RECORD_FIELDS, "a record")
        if "meta" in record and not isinstance(record["meta"], dict):
            raise RecordError(f"a record's meta is a JSON object of a tool's notes, not {quote(record['meta'])}")
        rules = _record_rules(record["rules"], version)
        deals = record["deals"]
        if not isinstance(deals, list) or not deals:
            raise RecordError("the record has no deals")
        most = rules.max_redeals + 1 if rules.all_pass == "redeal" else 1
        if len(deals) > most:     # refused before any deal is parsed: copies cost nothing to write
            raise RecordError(f"the record has {len(deals)} deals; its rules allow at most {most} in a hand "
                              f"(all_pass={rules.all_pass!r}, max_redeals={rules.max_redeals}, RULES.md §3)")
        try:
            parsed = [Deal.parse(d, rules) for d in deals]
            seeded = record["dealt_from_seed"]
            if not isinstance(seeded, bool):
                raise RecordError(f"dealt_from_seed must be true or false, got {seeded!r}")
            if not is_integer(record["seed"]):
                raise RecordError(f"the record's seed must be an integer, got {record['seed']!r}")
            fb = record["first_bidder"]     # always written as the seat that spoke first
            if isinstance(fb, bool) or not isinstance(fb, int) or not 0 <= fb < rules.seats:
                raise RecordError(f"the record's first_bidder must be a seat 0..{rules.seats - 1}, got {quote(fb)}")
            face_up = record.get("face_up")
            if isinstance(face_up, Mapping):
                _known_fields(face_up, ("seat", "card"), "the record's face_up")
            if face_up is not None and rules.first_bidder != "face_up":
                raise RecordError(f"the record has a face-up card {face_up!r} but its rules have "
                                  f"first_bidder={rules.first_bidder!r}: only 'face_up' turns one")
            turned = rules.first_bidder == "face_up" and face_up is not None
            want = (face_up.get("seat"), face_up.get("card")) if isinstance(face_up, Mapping) else face_up
            want = tuple(want) if isinstance(want, (list, tuple)) else want
            game = cls(rules, seed=record["seed"], deal=None if seeded else parsed[0],
                       first_bidder=None if turned else record["first_bidder"],
                       face_up=want if turned and not seeded else None, _legacy=version <= LEGACY_DEAL_VERSION)
            if turned:      # the face-up card decides the first bidder: it must be the recorded one
                if game.face_up != want or game.first_bidder != record["first_bidder"]:
                    raise RecordError(f"the recorded face-up card {face_up!r} and first bidder "
                                      f"{record['first_bidder']!r} are not what seed {game.seed} turns: "
                                      f"{game.face_up!r}, seat {game.first_bidder}")
        except RecordError:
            raise
        except DdzError as exc:
            raise RecordError(f"bad record header: {exc}") from None
        if not seeded:
            if rules.bottom_bonus:
                for k, d in enumerate(parsed[1:], start=1):
                    try:
                        check_bonus_deal(d)
                    except DealError as exc:
                        raise RecordError(f"deal {k}: {exc}") from None
            game._pending = parsed[1:]
        else:
            game._check_seeded_deal(deals, 0)
        actions = record["actions"]
        if not isinstance(actions, list):
            raise RecordError("the record's actions must be a list")
        for i, entry in enumerate(actions):
            if not isinstance(entry, Mapping) or "seat" not in entry or "action" not in entry:
                raise RecordError(f"action {i}: not an object with 'seat' and 'action': {quote(entry)}")
            if not entry.keys() <= _ACTION_FIELDS:
                _known_fields(entry, _ACTION_FIELDS, f"action {i}")
            seat, action = entry["seat"], entry["action"]
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise RecordError(f"action {i}: 'seat' must be an int (a seat), not "
                                  f"{type(seat).__name__}: {seat!r}")
            if game.phase is Phase.OVER:
                raise RecordError(f"action {i} (seat {seat}): {action!r} comes after the hand is over")
            if seat != game.current_player:
                raise RecordError(f"action {i}: recorded for seat {seat!r}, but seat {game.current_player} is to act")
            phase = entry.get("phase")
            if phase is not None and phase != game.phase.value:
                raise RecordError(f"action {i} (seat {seat}): recorded in phase {phase!r}, "
                                  f"but the game is {game.phase.value!r}")
            if isinstance(action, bool) or not isinstance(action, (str, int)):
                raise RecordError(f"action {i} (seat {seat}): 'action' must be action text such as "
                                  f"'pass', '3' or '333+4', not {type(action).__name__}: {action!r}")
            dealt = len(game.deals)
            try:
                game.step(action)
            except DdzError as exc:
                raise RecordError(f"action {i} (seat {seat}, {game.phase.value}) {action!r} is illegal: {exc}") from None
            if len(game.deals) != dealt:        # a redeal
                if len(game.deals) > len(parsed):
                    raise RecordError(f"action {i} (seat {seat}): everybody passed, so the hand is "
                                      f"redealt, but the record has only {len(parsed)} deal(s)")
                if seeded:
                    game._check_seeded_deal(deals, dealt)
        if len(game.deals) != len(parsed):
            raise RecordError(f"the record has {len(parsed)} deals but its actions use {len(game.deals)}")
        want = record.get("result")
        if want is None:
            return game
        if not isinstance(want, Mapping):
            raise RecordError(f"the record's result must be an object or null, not {type(want).__name__}: {quote(want)}")
        _known_fields(want, _RESULT_FIELDS, "the recorded result")
        have = None if game.result is None else game.result.to_json()
        if version <= 3 and have is not None:
            for key in ("void", "open_play"):      # results gained them within version 3
                if key not in want:
                    have.pop(key)
        if want != have:
            raise RecordError(f"the recorded result {want!r} differs from the replayed one {have!r}")
        return game

    def _check_seeded_deal(self, deals: List[Any], k: int) -> None:
        """Deal ``k`` of a seeded record must be what the seed dealt.

        :raises RecordError: it is not (a wrong seed, or an edited deal): said before any
            action is replayed on it, so a wrong seed is not reported as an illegal action.
        """
        if self._deals[k].to_json() != deals[k]:
            which = "the first deal" if k == 0 else f"deal {k} (after {k} redeal{'s' if k > 1 else ''})"
            how = (" with random.Random, as in a record of version 4 or older" if is_legacy_rng(self._rng)
                   else " with the deal stream of a version 5 record")
            raise RecordError(f"{which} of the record is not what seed {self.seed} deals{how}: the seed, "
                              f"the deal or the version was changed (dealt_from_seed is true)")
