"""The game as text: the table that ``str(game)`` and :meth:`ddz.Game.render` draw
(RULES.md §3–§7), and the pieces of it that ``ddz play``'s table shares.

Like python-chess's ``str(board)``, a plain ``str(game)`` is the referee's view: every
hand is shown. ``game.render(seat=k)`` is what seat ``k`` may see (RULES.md §5): its own
hand, the cards left of the others, the landlord's hand when it plays open (§7), the
bottom cards once revealed to that seat (§3; with four players the farmers never see
them), the multiplier it may know (§4: a farmer's double is hidden until both farmers
chose). Once the hand is over every hand is shown in both views, as ``ddz play`` does.

A table, in plain ASCII (``Game(seed=7)``; seat 2 bid 3 and led ``33``, seat 0 passed)::

    Dou Dizhu, seed 7: playing, seat 1 to play
    bid 3, multiplier x1, bottom 5H 8S 9H
      seat  role      cards  hand                          this trick
      0     farmer       17  3 555 6 77 8 JJ KK AAA 2 B    pass
    > 1     farmer       17  3 4 6 77 8 9 TTTT QQ K A 2 R  -
      2     landlord     18  444 5 66 88 999 JJ QQ K 22    33
    to beat: 33 (seat 2)

Rows: ``>`` marks the seat to act; ``role`` is ``landlord``/``farmer`` once the auction
is over (``bids first`` before); ``cards`` the cards left; ``hand`` grouped by rank,
lowest first (``hidden`` where the viewer may not see it); the last column is what each
seat said in the auction or doubling, or played in the current trick.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..core.cards import RANK_CHARS, format_cards
from ..core.play import Play

__all__ = ["render", "grouped", "current_trick", "bid_words", "said", "seat_list", "score_factors"]


def grouped(counts: Sequence[int]) -> str:
    """A hand grouped by rank, lowest first: ``'33 4 555 T QQ B R'`` style, one group per
    rank (the jokers are two ranks).

    :param counts: 15 counts (trusted).
    :returns: the groups separated by spaces (``''`` for no cards).
    """
    return " ".join(RANK_CHARS[r] * int(c) for r, c in enumerate(counts) if c)


def current_trick(plays: Sequence[Tuple[int, Play]], seats: int = 3) -> List[Tuple[int, Play]]:
    """The plays of the current trick (RULES.md §5: a trick ends after ``seats - 1``
    passes in a row following a play); empty when the next player leads.

    :param plays: every play of the play phase so far, ``(seat, Play)``, passes included.
    :param seats: players at the table (3 or 4).
    """
    trick: List[Tuple[int, Play]] = []
    passes = 0
    for seat, play in plays:
        if passes == seats - 1:
            trick, passes = [], 0
        trick.append((seat, play))
        passes = passes + 1 if not play else 0
    return [] if passes == seats - 1 else trick


def bid_words(bidding: Sequence[Tuple[int, int]], rob: bool) -> List[str]:
    """The words of the bidding actions of one deal (RULES.md §3): ``pass``, ``1``..``3``;
    with ``rob`` (``Rules.bidding="rob"``) the first yes is ``call`` and later ones ``rob``.

    :param bidding: ``(seat, value)`` in order (:attr:`ddz.Observation.bidding`).
    """
    words, called = [], False
    for _, value in bidding:
        if not value:
            words.append("pass")
        elif not rob:
            words.append(str(value))
        else:
            words.append("rob" if called else "call")
            called = True
    return words


def said(game: Any, doubles: Sequence[Optional[bool]], bidding: Sequence[Tuple[int, int]]) -> Dict[int, str]:
    """What each seat said last in the current phase: its bid, its double (``double``,
    ``redouble``, ``no double``), or its last play of the current trick.

    :param game: a :class:`ddz.Game`.
    :param doubles: per seat ``True``/``False``/``None`` as the viewer may see them
        (:attr:`ddz.Observation.doubles`).
    :param bidding: this deal's bidding actions (:attr:`ddz.Observation.bidding`).
    :returns: ``{seat: word}`` for the seats that spoke.
    """
    phase = game.phase
    if phase == "bidding":
        words = bid_words(bidding, game.rules.bidding == "rob")
        return {seat: word for (seat, _), word in zip(bidding, words)}
    if phase == "doubling":
        return {seat: ("redouble" if seat == game.landlord else "double") if d else "no double"
                for seat, d in enumerate(doubles) if d is not None}
    if phase == "opening":
        return {}
    return {seat: str(play) for seat, play in current_trick(game.plays, game.seats)}


def seat_list(seats: Sequence[int]) -> str:
    """Seats as English: ``'seat 1'``, ``'seats 1 and 2'``, ``'seats 0, 1 and 3'``."""
    names = [str(s) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return f"seats {', '.join(names[:-1])} and {names[-1]}"


def score_factors(result: Any) -> str:
    """The factors of a :class:`ddz.Result`'s score (RULES.md §6) that apply, e.g.
    ``'bid 3, bombs x4, spring x2'``."""
    return ", ".join(f"bid {v}" if k == "bid" else f"{k} x{v}" for k, v in result.breakdown.items()
                     if k == "bid" or v != 1)


def _bottom_text(game: Any) -> str:
    """The bottom cards with their suits when the deal has them."""
    deal = game.deal
    return " ".join(str(c) for c in deal.cards[-1]) if deal.cards is not None else format_cards(deal.bottom)


_VERBS = {"bidding": "bid", "doubling": "double", "opening": "choose open play", "playing": "play"}


def render(game: Any, seat: Optional[int] = None) -> str:
    """The table of ``game`` as plain text (see the module docstring).

    :param game: a :class:`ddz.Game`.
    :param seat: ``None`` for the referee's view (every hand); a seat for what it may see.
    :returns: a ``str`` of several lines (no trailing newline).
    :raises DdzError: ``seat`` is not a seat of the game.
    """
    seats = game.seats
    over = game.result is not None
    if seat is None:
        views = [game.observation(s) for s in range(seats)]     # each seat sees its own choices
        doubles = [views[s].doubles[s] for s in range(seats)]
        view = views[0]
        multiplier = game.multiplier
        hands = [game.hand(s) for s in range(seats)]
        bottom_seen = game.landlord is not None
    else:
        view = game.observation(seat)
        doubles = list(view.doubles)
        multiplier = view.multiplier
        hands = [game.hand(s) if over else view.hand if s == seat else
                 view.open_hand if s == view.landlord else None for s in range(seats)]
        bottom_seen = view.bottom is not None
    current = game.current_player
    rules = game.rules
    head = f"Dou Dizhu, seed {game.seed}"
    if rules != type(rules)():
        head += f", {rules!r}"
    head += f": {game.phase.value}"
    if current is not None:
        head += f", seat {current} to {_VERBS[game.phase.value]}"
    if seat is not None:
        head += f" (seen by seat {seat})"
    lines = [head]
    info = [f"bid {game.bid}" if game.bid else "no bid yet", f"multiplier x{multiplier}"]
    if bottom_seen or over:
        info.append(f"bottom {_bottom_text(game)}")
    elif game.landlord is not None:
        info.append("bottom hidden")
    if game.face_up is not None and game.phase == "bidding":
        info.append(f"face-up card {game.face_up[1]} (seat {game.face_up[0]})")
    if game.redeals:
        info.append(f"{game.redeals} redeal{'s' if game.redeals != 1 else ''}")
    lines.append(", ".join(info))
    words = said(game, doubles, view.bidding)
    texts = [grouped(h) or "-" if h is not None else "hidden" for h in hands]
    width = max(4, max(len(t) for t in texts))
    last = "this trick" if game.phase == "playing" or (over and game.plays) else "said"
    lines.append(f"  seat  role      cards  {'hand':<{width}}  {last}".rstrip())
    left = game.cards_left
    for s in range(seats):
        if game.landlord is None:
            role = "bids first" if s == game.first_bidder and not over else ""
        else:
            role = "landlord" if s == game.landlord else "farmer"
        mark = ">" if s == current else " "
        lines.append(f"{mark} {s:<4}  {role:<10}{left[s]:>5}  {texts[s]:<{width}}  {words.get(s, '-')}".rstrip())
    if game.phase == "playing":
        lines.append(f"to beat: {game.to_beat} (seat {game.to_beat_seat})" if game.to_beat is not None
                     else f"seat {current} leads")
    elif game.phase == "opening":
        lines.append(f"the landlord (seat {game.landlord}) may play open: its hand shown to all, x3")
    if view.open_hand is not None and not over:
        lines.append("the landlord plays open (x3)")
    if over:
        r = game.result
        if r.void:
            lines.append(f"void: {r.void}; every score 0")
        else:
            who = f"seat {r.landlord}" if r.winner == "landlord" else seat_list(r.winners)
            lines.append(f"over: the {r.winner} won ({who}); S = {r.score} ({score_factors(r)}); scores "
                         + " ".join(f"{v:+d}" for v in r.scores))
    return "\n".join(lines)
