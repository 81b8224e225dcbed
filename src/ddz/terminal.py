"""The terminal side of the ``ddz`` command, drawn with ``rich``: progress bars and the
table of ``ddz play`` (a person against bots: two, or three in the four-player game;
RULES.md §3–§7).

The table shows, before each of the person's turns, every seat with its role, cards left
and its last action in the current trick, and, always, the base, the running multiplier
(what the person may see: :attr:`ddz.Observation.multiplier`), the bottom cards once
revealed and the play to beat. The hand is grouped by rank (``33 4 555 ...``). At the end
every hand left is shown with the score; the person may then save the record or play
another hand. Output goes through a :class:`rich.console.Console`, which writes plain text
when the output is not a terminal (logs, tests) and colours when it is.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Dict, List, Optional, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn, \
    TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .search.bots import make_bot
from .core.cards import format_cards
from .errors import DdzError
from .game.state import Game, Phase
from .game.match import Match
from .core.play import Play, PlayType
from .game.render import bid_words, grouped, said, score_factors, seat_list
from .core.rules import Rules

__all__ = ["progress_bar", "grouped", "PlaySession"]   # grouped: from ddz.game.render


class _NoBar:
    def advance(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


class _Bar:
    """A rich progress bar on ``stream`` (the caller decided that it is a terminal)."""

    def __init__(self, total: int, label: str, stream: TextIO) -> None:
        self._progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("hands"), TaskProgressColumn(), TimeRemainingColumn(),
            console=Console(file=stream, force_terminal=True), transient=False)
        self._progress.start()
        self._task = self._progress.add_task(label, total=total)

    def advance(self, n: int = 1) -> None:
        self._progress.advance(self._task, n)

    def close(self) -> None:
        """Stop redrawing and end the bar's line (also after an error or Ctrl-C)."""
        self._progress.stop()


def progress_bar(total: int, label: str, stream: TextIO, enabled: bool):
    """A progress bar of ``total`` hands on ``stream`` when ``enabled`` (the caller checks
    that ``stream`` is a terminal: in a log, redraws are noise), else one that draws
    nothing. Call ``advance()`` per hand and ``close()`` at the end (in a ``finally``)."""
    return _Bar(total, label, stream) if enabled else _NoBar()


def action_words(game: Game, legal: list) -> List[str]:
    """How a person types each legal action (the words ``ddz play`` accepts)."""
    if game.phase is Phase.BIDDING:
        if game.rules.bidding == "points":
            return ["pass" if b == 0 else str(b) for b in legal]
        yes = "rob" if game.bid else "call"
        return [yes if b else "pass" for b in legal]
    if game.phase is Phase.DOUBLING:
        return ["double" if d else "pass" for d in legal]
    if game.phase is Phase.OPENING:
        return ["open" if d else "pass" for d in legal]
    return [str(a) for a in legal]


class PlaySession:
    """``ddz play``: hands between a person at ``seat`` and a bot at every other seat (two,
    or three with four players), until the person stops.

    :param rules: the :class:`ddz.Rules`.
    :param seat: the person's seat (0 .. seats - 1).
    :param bot: the bots' name (``"greedy"``, ``"random"`` or ``"solver"``).
    :param seed: the first hand's seed (each later hand takes the next seed of a generator
        seeded with it, as do the bots).
    :param stdin: where the person's lines come from (``readline()``).
    :param stdout: where the table is drawn.
    :param auto_pass: pass for the person when nothing in the hand can beat the play to beat.
    :param save: a file to which every finished hand's record is appended (JSON lines), or
        ``None``.
    """

    def __init__(self, rules: Rules, seat: int, bot: str, seed: int, stdin: TextIO, stdout: TextIO,
                 auto_pass: bool = True, save: Optional[str] = None, hands: Optional[int] = None) -> None:
        self.rules, self.me, self.bot_name, self.seed = rules, seat, bot, seed
        self.stdin, self.auto_pass, self.save = stdin, auto_pass, save
        self.console = Console(file=stdout, highlight=False, emoji=False)
        self.stdout = stdout
        self.totals = [0] * rules.seats
        self.match_hands = hands      # play a ddz.Match of this many hands (None: hand after hand)
        self.hands = 0

    # -- output --
    def say(self, text="", style: Optional[str] = None) -> None:
        """One line (plain text: no markup is parsed, so card notation is never a tag)."""
        self.console.print(text if isinstance(text, Text) else Text(str(text), style=style or ""),
                           soft_wrap=True)

    def ask(self, prompt: str) -> Optional[str]:
        """Print ``prompt`` and read a line; ``None`` when the input has ended."""
        self.console.print(Text(prompt, style="bold"), end="", soft_wrap=True)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def _name(self, game: Game, seat: int) -> str:
        if game.landlord is None:
            return f"seat {seat}"
        return f"seat {seat} ({'landlord' if seat == game.landlord else 'farmer'})"

    def _describe(self, game: Game, seat: int, action) -> str:
        """A log line for the action that ``seat`` just took."""
        who = "you" if seat == self.me else self._name(game, seat)
        if isinstance(action, Play):
            if not action:
                return f"{who} pass{'es' if seat != self.me else ''}"
            return f"{who} play{'s' if seat != self.me else ''} {action}"
        if isinstance(action, bool) and game.seats == 4:     # the four-player open play (RULES.md §7)
            if action:
                return f"{who} play{'s' if seat != self.me else ''} open (x3)"
            return f"{who} do{'es' if seat != self.me else ''} not play open"
        if isinstance(action, bool):
            if action:
                return f"{who} {'redouble' if seat == game.landlord else 'double'}{'s' if seat != self.me else ''}"
            return f"{who} do{'es' if seat != self.me else ''} not double"
        if not action:
            return f"{who} pass{'es' if seat != self.me else ''}"
        if game.rules.bidding == "rob":
            verb = bid_words(game.observation(seat).bidding, True)[-1]
            return f"{who} {verb}{'s' if seat != self.me else ''} the landlord"
        return f"{who} bid{'s' if seat != self.me else ''} {action}"

    def table(self, game: Game) -> None:
        """The table: seats, roles, cards left, last actions; base, multiplier, bottom."""
        obs = game.observation(self.me)
        t = Table(title=None, show_edge=True, expand=False, pad_edge=True)
        for col in ("seat", "player", "role", "cards", "this trick" if game.phase is Phase.PLAYING else "said"):
            t.add_column(col)
        last = said(game, obs.doubles, obs.bidding)
        for seat in range(game.seats):
            player = "you" if seat == self.me else f"{self.bot_name} bot"
            if game.landlord is None:
                role = "bids first" if seat == game.first_bidder else ""
            else:
                role = "LANDLORD" if seat == game.landlord else "farmer"
            mark = "▶ " if seat == game.current_player else "  "
            style = "bold" if seat == self.me else ""
            t.add_row(Text(mark + str(seat), style=style), Text(player, style=style),
                      Text(role, style="bold red" if role == "LANDLORD" else ""),
                      str(obs.cards_left[seat]), last.get(seat, ""))
        self.console.print(t)
        parts = [f"bid {game.bid}" if game.bid else "no bid yet", f"multiplier x{obs.multiplier}"]
        if obs.bottom is not None:
            deal = game.deal
            bottom = " ".join(str(c) for c in deal.cards[-1]) if deal.cards else format_cards(deal.bottom)
            parts.append(f"bottom {bottom}")
        if game.phase is Phase.PLAYING:
            parts.append(f"to beat {game.to_beat} (seat {obs.to_beat_seat})" if game.to_beat is not None
                         else ("you lead" if game.current_player == self.me else f"seat {game.current_player} leads"))
        self.say(" · ".join(parts))
        if obs.open_hand is not None and obs.landlord != self.me:
            self.say(f"the landlord plays open: {grouped(obs.open_hand)}")
        self.say(f"your hand: {grouped(obs.hand)}", style="bold")

    def moves(self, game: Game) -> None:
        """``?``: every legal action, grouped by play type in the play phase."""
        legal = game.legal_actions()
        if game.phase is not Phase.PLAYING:
            self.say(f"legal: {', '.join(action_words(game, legal))} ({len(legal)} in all)")
            return
        by_type: Dict[PlayType, List[str]] = {}
        for p in legal:
            by_type.setdefault(p.type, []).append(str(p))
        self.say(f"legal: {len(legal)} in all")
        for t, words in by_type.items():
            self.say(f"  {t.name.lower().replace('_', ' ')} ({len(words)}): {' '.join(words)}")

    # -- the game --
    def run(self) -> int:
        """Play hands until the person stops. Returns the exit status (0; 2 when the input
        ends in the middle of a hand)."""
        master = random.Random(self.seed)
        bots = {s: make_bot(self.bot_name, master.getrandbits(63)) for s in range(self.rules.seats) if s != self.me}
        seed = self.seed
        self.say(f"ddz: you are seat {self.me}; seats {', '.join(str(s) for s in sorted(bots))} are "
                 f"{self.bot_name} bots. Type plays in notation (333+4, 34567, BR), 'pass', "
                 f"'?' for every legal move, 'quit' to stop.")
        match = None
        if self.match_hands:
            match = Match(self.rules, self.match_hands, seed=self.seed)
            self.say(f"a match of {self.match_hands} hand{'s' if self.match_hands != 1 else ''}: the highest total wins (void hands do not count)")
        while True:
            game = Game(self.rules, seed=seed) if match is None else match.game
            status = self.play_hand(game, bots)
            if status is not None:
                return status
            if match is not None:
                self.say(f"match: {match.hands_played} of {match.hands} hands played")
                if match.finished:
                    won = seat_list(match.winners)
                    verdict = "you lose" if self.me not in match.winners else "you win" if len(match.winners) == 1 \
                        else "you share the win"
                    self.say(f"the match is over: {won} win{'s' if len(match.winners) == 1 else ''} "
                             f"({verdict})", style="bold")
                    return 0
            status = self.after_hand(game)
            if status is not None:
                return status
            if match is not None:
                match.next_hand()
            else:
                seed = master.getrandbits(63)

    def play_hand(self, game: Game, bots) -> Optional[int]:
        """One hand; ``None`` when it ended, else the exit status (quit, or input ended)."""
        self.hands += 1
        self.say()
        self.say(f"hand {self.hands} (seed {game.seed})", style="bold underline")
        deals_seen = 0
        shown_landlord = False
        while game.phase is not Phase.OVER:
            if len(game.deals) != deals_seen:
                if deals_seen:
                    self.say(f"everybody passed: the cards are dealt again "
                             f"({game.redeals} of at most {game.rules.max_redeals} redeals)")
                deals_seen = len(game.deals)
                self.say(f"your hand: {grouped(game.hand(self.me))}", style="bold")
                first = game.first_bidder
                self.say(f"{'you bid' if first == self.me else f'seat {first} bids'} first")
            if game.landlord is not None and not shown_landlord:
                shown_landlord = True
                deal = game.deal
                who = "you are" if game.landlord == self.me else f"seat {game.landlord} is"
                if game.observation(self.me).bottom is None:     # four players: the farmers do not see it
                    self.say(f"{who} the landlord (bid {game.bid}); it takes the {game.rules.bottom_size} "
                             "bottom cards unseen", style="bold")
                else:
                    bottom = " ".join(str(c) for c in deal.cards[-1]) if deal.cards else format_cards(deal.bottom)
                    self.say(f"{who} the landlord (bid {game.bid}); bottom cards: {bottom}", style="bold")
            seat = game.current_player
            if seat != self.me:
                action = bots[seat].act(game.observation(seat), game.legal_actions())
                game.step(action)
                self.say(self._describe(game, seat, action))
                continue
            legal = game.legal_actions()
            if self.auto_pass and game.phase is Phase.PLAYING and len(legal) == 1 and not legal[0]:
                beaten = game.to_beat
                game.step(legal[0])
                self.say(f"you pass (auto-pass: nothing in your hand beats {beaten})")
                continue
            self.table(game)
            while True:
                text = self.ask(self._prompt(game))
                if text is None:
                    print("ddz: error: input ended before the hand was over", file=sys.stderr)
                    return 2
                if text.lower() in ("quit", "exit"):   # not "q": Q is the queen
                    self.say("bye")
                    return 0
                if text in ("?", "help", "h"):
                    self.moves(game)
                    continue
                if not text:
                    continue
                try:
                    game.step(text)
                except DdzError as exc:
                    self.say(f"not allowed: {exc}. Try again.", style="yellow")
                    continue
                action = game.actions[-1][1]
                self.say(self._describe(game, self.me, action))
                break
        self.show_end(game)
        return None

    def _prompt(self, game: Game) -> str:
        if game.phase is Phase.BIDDING:
            words = ", ".join(action_words(game, game.legal_actions()))
            if game.rules.bidding == "points":
                return f"your bid ({words}): "
            return f"call/rob the landlord? ({words}): " if game.bid else f"call the landlord? ({words}): "
        if game.phase is Phase.DOUBLING:
            return f"double? ({', '.join(action_words(game, game.legal_actions()))}): "
        if game.phase is Phase.OPENING:
            return f"play open, your hand shown to all, x3? ({', '.join(action_words(game, game.legal_actions()))}): "
        if game.to_beat is None:
            return "you lead: your play (e.g. 33, 555+7; ? lists moves): "
        return f"to beat {game.to_beat}: your play or pass (? lists moves): "

    def show_end(self, game: Game) -> None:
        """The result, every hand left, and the running totals."""
        r = game.result
        self.say()
        if r.void:
            self.say(f"the hand is void: {r.void}; nobody scores", style="bold")
        else:
            verdict = "you win" if self.me in r.winners else "you lose"
            self.say(f"{seat_list(r.winners)} won ({r.winner}): {verdict}.",
                     style="bold green" if self.me in r.winners else "bold")
            self.say(f"score S = {r.score} ({score_factors(r)}); scores: "
                     + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(r.scores)))
        t = Table(title="hands at the end", show_edge=True)
        t.add_column("seat")
        t.add_column("role")
        t.add_column("cards left")
        for s in range(game.seats):
            role = "" if r.landlord is None else ("landlord" if s == r.landlord else "farmer")
            t.add_row(f"{s}{' (you)' if s == self.me else ''}", role, grouped(game.hand(s)) or "-")
        self.console.print(t)
        for s in range(game.seats):
            self.totals[s] += r.scores[s]
        self.say(f"after {self.hands} hand{'s' if self.hands != 1 else ''}: "
                 + ", ".join(f"seat {s}{' (you)' if s == self.me else ''} {v:+d}" for s, v in enumerate(self.totals)))
        if self.save:
            self._write(self.save, game, "a")

    def _write(self, path: str, game: Game, mode: str) -> bool:
        try:
            with open(path, mode, encoding="utf-8") as f:
                if mode == "a":
                    f.write(json.dumps(game.to_record(), separators=(",", ":")) + "\n")
                else:
                    json.dump(game.to_record(), f, indent=1)
                    f.write("\n")
        except OSError as exc:
            self.say(f"cannot write {path!r}: {exc.strerror or exc}", style="yellow")
            return False
        self.say(f"record {'appended to' if mode == 'a' else 'saved to'} {path} (ddz replay {path} checks it)")
        return True

    def after_hand(self, game: Game) -> Optional[int]:
        """Ask whether to play again or save; ``None`` to play again, else the exit status."""
        while True:
            text = self.ask("again? (y: new hand, s: save this hand's record, n: quit): ")
            if text is None or text.lower() in ("n", "no", "quit", "exit"):
                self.say("bye")
                return 0
            if text.lower() in ("y", "yes", ""):
                return None
            if text.lower() in ("s", "save"):
                default = f"ddz-hand-{game.seed}.json"
                path = self.ask(f"file name [{default}]: ")
                if path is None:
                    self.say("bye")
                    return 0
                self._write(path or default, game, "w")
                continue
            self.say("say y, s or n")
