"""The game as text (``str(game)``, ``game.render(seat=...)``, ``ddz.game.render``): every
phase of the three- and four-player game, the referee's view and each seat's, and what a
seat may not see never shown to it (RULES.md §3–§7)."""

import re

import pytest

import ddz
from ddz import DdzError, Game, Rules
from ddz.game.render import grouped

FOUR = Rules.four_player()


def table(text):
    """``{seat: (role, cards left, hand text, last column)}`` of a rendered table."""
    lines = text.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("  seat  role"))
    header = lines[head]
    hand_at = header.index("hand")
    last_at = max(header.find("this trick"), header.find("said"))
    rows = {}
    for ln in lines[head + 1:]:
        if not ln[:1] in (">", " ") or not ln[2:3].isdigit():
            break
        rows[int(ln[2:6])] = (ln[8:18].strip(), int(ln[18:23]), ln[hand_at:last_at].strip(), ln[last_at:].strip())
    return rows


def check(game):
    """Every view of ``game`` against the game: the referee sees each hand, a seat its own
    (and an open landlord's), the others are hidden until the hand is over."""
    text = str(game)
    assert text == game.render() and not text.endswith("\n")
    assert text.splitlines()[0].startswith(f"Dou Dizhu, seed {game.seed}") and game.phase.value in text
    assert re.search(rf"multiplier x{game.multiplier}(,|$)", text, re.M)
    rows = table(text)
    assert sorted(rows) == list(range(game.seats))
    over = game.result is not None
    for s, (role, left, hand, _) in rows.items():
        assert left == game.cards_left[s] and hand == (grouped(game.hand(s)) or "-")
        assert role == ("landlord" if s == game.landlord else "farmer" if game.landlord is not None
                        else "bids first" if s == game.first_bidder and not over else "")
    for seat in range(game.seats):
        view = game.render(seat=seat)
        assert view.splitlines()[0].endswith(f"(seen by seat {seat})")
        obs = game.observation(seat)
        assert re.search(rf"multiplier x{obs.multiplier}(,|$)", view, re.M)
        for s, (_, left, hand, _) in table(view).items():
            visible = over or s == seat or (obs.open_hand is not None and s == game.landlord)
            assert hand == ((grouped(game.hand(s)) or "-") if visible else "hidden"), (seat, s)
        bottom = ddz.format_cards(game.deal.bottom)
        shown = "bottom " in view and "bottom hidden" not in view
        assert shown == (over or obs.bottom is not None), view
        if shown and game.deal.cards is None:
            assert f"bottom {bottom}" in view


def walk(rules, seed, bots):
    """Render every position of one hand; returns the phases seen."""
    game = Game(rules, seed=seed)
    phases = []
    while True:
        check(game)
        phases.append(game.phase.value)
        if game.current_player is None:
            return game, phases
        seat = game.current_player
        game.step(bots[seat].act(game.observation(seat), game.legal_actions()))


@pytest.mark.parametrize("rules", [Rules(), Rules(doubling=True, bidding="rob", first_bidder="face_up"),
                                   Rules(kickers="repeat", bottom_bonus=True), FOUR],
                         ids=["standard", "doubling-rob-faceup", "repeat-bonus", "four"])
def test_every_position_of_whole_hands(rules):
    seen = set()
    for seed in range(4):
        game, phases = walk(rules, seed, [ddz.GreedyBot()] + [ddz.RandomBot(seed + s) for s in range(rules.seats - 1)])
        seen.update(phases)
        r = game.result
        text = str(game)
        if r.void:
            assert f"void: {r.void}; every score 0" in text
        else:
            assert f"over: the {r.winner} won" in text and " ".join(f"{v:+d}" for v in r.scores) in text
    assert {"bidding", "playing", "over"} <= seen
    assert ("doubling" in seen) == rules.doubling and ("opening" in seen) == (rules.seats == 4)


def test_the_auction_and_a_void_hand():
    game = Game(Rules(all_pass="void"), seed=1)
    first = game.first_bidder
    game.step(0)
    rows = table(str(game))
    assert rows[first][0] == "bids first" and rows[first][3] == "pass" and "no bid yet" in str(game)
    game.step(0)
    game.step(0)
    text = str(game)
    assert game.result.void and text.splitlines()[0].endswith(": over")
    assert "void: everybody passed the auction" in text and "  said" in text
    check(game)


def test_rob_words_and_the_face_up_card():
    game = Game(Rules(bidding="rob", first_bidder="face_up"), seed=3)
    seat, card = game.face_up
    assert f"face-up card {card} (seat {seat})" in str(game)
    game.step("call")
    game.step("rob")
    rows = table(str(game))
    assert rows[seat][3] == "call" and rows[(seat + 1) % 3][3] == "rob"


def test_a_farmers_double_is_hidden_from_the_others_until_both_chose():
    game = Game(Rules(doubling=True), seed=5, first_bidder=0)
    game.step(3)
    lord = game.landlord
    first = game.current_player
    other = next(s for s in range(3) if s not in (lord, first))
    game.step(True)
    assert table(str(game))[first][3] == "double"                 # the referee sees it
    assert table(game.render(seat=first))[first][3] == "double"   # and the seat itself
    assert table(game.render(seat=other))[first][3] == "-"        # not yet the other farmer
    assert "multiplier x2" in str(game) and "multiplier x1" in game.render(seat=other)
    game.step(False)
    assert table(game.render(seat=other))[first][3] == "double"


def test_four_players_bottom_and_open_play():
    game = Game(FOUR, seed=1)
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    lord = game.landlord
    farmer = (lord + 1) % 4
    assert "may play open" in str(game) and "bottom hidden" in game.render(seat=farmer)
    assert "bottom hidden" not in game.render(seat=lord) and "bottom " in game.render(seat=lord)
    assert table(game.render(seat=farmer))[lord][2] == "hidden"
    game.step("open")
    view = game.render(seat=farmer)
    assert table(view)[lord][2] == grouped(game.hand(lord)) and "the landlord plays open (x3)" in view
    assert "multiplier x3" in view
    check(game)


def test_the_trick_column_and_the_play_to_beat():
    game = Game(seed=8)         # the first bidder holds a pair of 3s once it has the bottom
    game.step(3)
    lead = game.current_player
    game.step("33")
    game.step("pass")
    rows = table(str(game))
    assert rows[lead][3] == "33" and rows[(lead + 1) % 3][3] == "pass"
    assert str(game).splitlines()[-1] == f"to beat: 33 (seat {lead})"
    game.step("pass")
    assert str(game).splitlines()[-1] == f"seat {lead} leads"
    assert all(r[3] == "-" for r in table(str(game)).values())     # a new trick


def test_a_bad_seat_is_refused():
    game = Game(seed=1)
    for seat in (3, -1, "0", 1.0):
        with pytest.raises(DdzError, match="seat"):
            game.render(seat=seat)


def test_the_envs_render_the_games_table():
    gym = pytest.importorskip("gymnasium")
    import ddz.envs  # noqa: F401 (registers the env)
    env = gym.make("ddz/DouDizhu-v0", render_mode="ansi")
    env.reset(seed=3)
    assert env.render() == str(env.unwrapped.game)
