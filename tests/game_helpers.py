"""Helpers shared by the game tests: deals built by hand, records built by hand."""

from ddz.cards import RANK_CHARS, deck_counts, parse_cards


def fill_deal(seat0="", seat1="", seat2="", bottom=""):
    """A rank-notation deal in which each seat holds at least the given cards (seat
    hands before the bottom cards); the rest of the deck fills the hands up to 17 and the
    bottom up to 3, lowest ranks first, in the order bottom, seat 0, seat 1, seat 2."""
    want = [parse_cards(x).astype(int) for x in (seat0, seat1, seat2, bottom)]
    pool = deck_counts(1).astype(int) - sum(want)
    assert (pool >= 0).all(), "the required cards exceed one deck"
    sizes = [17, 17, 17, 3]
    for i in (3, 0, 1, 2):
        while want[i].sum() < sizes[i]:
            r = next(r for r in range(15) if pool[r])
            pool[r] -= 1
            want[i][r] += 1
        assert want[i].sum() == sizes[i], f"part {i} holds too many required cards"
    return tuple("".join(RANK_CHARS[r] * int(c) for r, c in enumerate(w)) for w in want)


def record(deal, actions, *, first_bidder=0, rules=None, result=None, seed=0):
    """A record built by hand: ``actions`` is a list of ``(seat, action text)``."""
    rules = rules or {}
    return {
        "format": "ddz-record", "version": 1,
        "rules": {"kickers": "distinct", "bidding": "points", "doubling": False,
                  "bottom_bonus": False, **rules},
        "seed": seed, "dealt_from_seed": False, "first_bidder": first_bidder,
        "deals": [{"hands": list(deal[:3]), "bottom": deal[3]}],
        "actions": [{"seat": s, "action": a} for s, a in actions],
        "result": result,
    }
