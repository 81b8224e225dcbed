"""The card drawing: one SVG component for the web app and for notebooks (issue 28).

Each card face is drawn once, here, by :func:`card_face` (the inside of a
``viewBox="0 0 50 70"``). Two consumers use it:

* the web app (``ddz serve``): :func:`sprite` turns every face into an SVG ``<symbol>``
  that the server puts into the page once; ``static/cards.js`` draws a card as
  ``<svg class="ddz-card"><use href="#ddz-card-Q"/></svg>``;
* notebooks: :func:`card_svg` and :func:`hand_html` inline whole ``<svg>`` elements
  (no script, no external reference, so the output survives being saved), used by
  :meth:`ddz.Game._repr_html_` through :func:`game_html`.

Cards are drawn by rank only (the rules never look at suits, RULES.md §1): ``3`` .. ``2``
black, the small joker ``B`` black and the big joker ``R`` red, and a card back for cards
not shown. Imports nothing but the standard library and public ``ddz`` names, so that
``Game._repr_html_`` works without the web extra.
"""

from __future__ import annotations

import html
from typing import Any, List, Optional, Sequence, Union

__all__ = ["RANKS", "WIDTH", "HEIGHT", "card_face", "card_svg", "sprite", "hand_html",
           "game_html", "counts_of"]

#: the rank characters in rank order (RULES.md §1 notation): ``T`` is the 10, ``B``/``R``
#: the small and big jokers
RANKS = "3456789TJQKA2BR"
WIDTH, HEIGHT = 50, 70          # the viewBox of one card
_LABELS = {"T": "10"}
_INK = {"R": "#c8102e"}         # the big joker is red; every other card black
_BLACK = "#1a1a1a"
_BACK = "back"


def card_face(rank: str) -> str:
    """The SVG elements of one card (inside a ``0 0 50 70`` viewBox).

    :param rank: one of :data:`RANKS`, or ``"back"`` for a card face down.
    :returns: SVG markup (no outer ``<svg>``).
    :raises KeyError: an unknown rank.
    """
    frame = (f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="5" '
             'fill="#fff" stroke="#555" stroke-width="1.2"/>')
    if rank == _BACK:
        return (f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="5" fill="#2f5d8a" '
                'stroke="#555" stroke-width="1.2"/><rect x="5" y="5" width="40" height="60" rx="3" '
                'fill="none" stroke="#9cc0e4" stroke-width="1.5" stroke-dasharray="3 2"/>')
    if rank not in RANKS:
        raise KeyError(rank)
    ink = _INK.get(rank, _BLACK)
    if rank in "BR":
        letters = "".join(f'<tspan x="7" dy="{0 if i == 0 else 8}">{c}</tspan>'
                          for i, c in enumerate("JOKER"))
        return (frame + f'<text x="7" y="11" font-family="sans-serif" font-size="8" font-weight="700" '
                f'fill="{ink}" text-anchor="middle">{letters}</text>'
                f'<text x="29" y="46" font-family="sans-serif" font-size="24" fill="{ink}" '
                f'text-anchor="middle">&#9733;</text>')
    label = _LABELS.get(rank, rank)
    size = 13 if len(label) > 1 else 15
    return (frame + f'<text x="{4 if len(label) > 1 else 5}" y="16" font-family="sans-serif" '
            f'font-size="{size}" font-weight="700" fill="{ink}">{label}</text>'
            f'<text x="28" y="50" font-family="serif" font-size="26" fill="{ink}" '
            f'text-anchor="middle">{label}</text>')


def sprite() -> str:
    """Every face (and the back) as an ``<symbol id="ddz-card-R">`` of one hidden
    ``<svg>``: what ``ddz serve`` puts into the page for ``static/cards.js``."""
    symbols = "".join(f'<symbol id="ddz-card-{r}" viewBox="0 0 {WIDTH} {HEIGHT}">{card_face(r)}</symbol>'
                      for r in (*RANKS, _BACK))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" style="display:none" aria-hidden="true">'
            f'{symbols}</svg>')


def card_svg(rank: str, width: int = 36) -> str:
    """One card as a whole inline ``<svg>`` element (``width`` pixels wide)."""
    height = round(width * HEIGHT / WIDTH)
    name = "card face down" if rank == _BACK else _LABELS.get(rank, rank)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="ddz-card" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{width}" height="{height}" role="img" aria-label="{name}" data-rank="{rank}">'
            f'{card_face(rank)}</svg>')


def counts_of(cards: Union[str, Sequence[int]]) -> List[int]:
    """15 counts of notation or of a count vector (not validated beyond that)."""
    if isinstance(cards, str):
        import ddz   # start-up time: numpy (parse_cards) only for notation; drawing needs none
        return [int(c) for c in ddz.parse_cards(cards)]
    return [int(c) for c in cards]


def hand_html(cards: Union[str, Sequence[int]], width: int = 36, overlap: float = 0.55,
              face_down: int = 0) -> str:
    """A hand as a row of overlapping inline cards, lowest rank first.

    :param cards: notation (``"33TTBR"``) or 15 counts.
    :param width: card width in pixels.
    :param overlap: the fraction of each card covered by the next one.
    :param face_down: draw this many card backs instead (a hidden hand).
    :returns: an HTML ``<span>``; ``"(none)"`` in grey when there are no cards.
    """
    ranks = [_BACK] * face_down if face_down else [
        RANKS[r] for r, n in enumerate(counts_of(cards)) for _ in range(n)]
    if not ranks:
        return '<span style="color:#888">(none)</span>'
    shift = -round(width * overlap)
    parts = [card_svg(r, width).replace("<svg ", f'<svg style="margin-left:{shift if i else 0}px;'
                                                  'vertical-align:middle" ', 1)
             for i, r in enumerate(ranks)]
    return '<span style="display:inline-block;white-space:nowrap">' + "".join(parts) + "</span>"


def _last_actions(game: Any) -> List[Optional[str]]:
    """Each seat's latest action of the deal being played, as record text (``None``:
    none yet). The actions of a void deal (one pass per seat, RULES.md §3) come first."""
    last: List[Optional[str]] = [None] * game.seats
    actions = game.to_record()["actions"]
    for a in actions[game.redeals * game.seats:]:
        last[a["seat"]] = a["action"]
    return last


def game_html(game: Any) -> str:
    """A :class:`ddz.Game` as HTML for notebooks (``Game._repr_html_``): each seat's
    role, cards left, latest action and hand drawn with :func:`hand_html`, the bottom
    cards, the bid and multiplier, and the result once the hand is over.

    :param game: a :class:`ddz.Game`.
    :returns: an HTML ``<div>`` (inline styles only).
    """
    esc = html.escape
    phase = str(game.phase)
    head = f"<b>ddz.Game</b> seed {game.seed}, phase <b>{esc(phase)}</b>"
    if game.landlord is not None:
        head += f", landlord seat {game.landlord}, bid {game.bid}, multiplier ×{game.multiplier}"
    rows = []
    last = _last_actions(game)
    for seat in range(game.seats):
        role = "" if game.landlord is None else ("landlord" if seat == game.landlord else "farmer")
        turn = " ◀ to act" if game.current_player == seat else ""
        said = "" if last[seat] is None else f"last: <code>{esc(last[seat])}</code>"
        rows.append(
            f'<tr><td style="padding:2px 8px;white-space:nowrap"><b>seat {seat}</b> {role}{turn}<br>'
            f'<span style="color:#666">{sum(game.hand(seat))} cards {said}</span></td>'
            f'<td style="padding:2px 8px">{hand_html(game.hand(seat))}</td></tr>')
    bottom = game.deal.bottom
    shown = hand_html(bottom, 28) if game.landlord is not None else hand_html((), 28, face_down=sum(bottom))
    rows.append(f'<tr><td style="padding:2px 8px"><b>bottom</b></td><td style="padding:2px 8px">{shown}</td></tr>')
    foot = ""
    r = game.result
    if r is not None:
        if r.void:
            foot = f"<div>void: {esc(r.void)}</div>"
        else:
            factors = ", ".join(f"{k} ×{v}" if k != "bid" else f"bid {v}"
                                for k, v in r.breakdown.items() if k == "bid" or v != 1)
            scores = " ".join(f"{s:+d}" for s in r.scores)
            foot = (f"<div><b>{esc(r.winner)} win</b>: {factors}; score {r.score}; "
                    f"scores by seat {scores}</div>")
    return (f'<div class="ddz-game" style="font-family:sans-serif;font-size:13px">'
            f"<div>{head}</div><table>{''.join(rows)}</table>{foot}</div>")
