"""Bots from anywhere, by one name each (the arena's ``BOT`` arguments).

* a built-in by name: ``random``, ``greedy``, ``solver`` (:class:`ddz.search.bots.SolverBot`),
  ``expert`` (:class:`ddz.ExpertBot`);
* a Python class or factory by ``module:Name`` (``mypkg.bots:MyBot``): called with
  ``seed=`` when it takes one, else with no argument;
* a protocol program by ``cmd:./mybot --flag`` (``docs/protocol.md``);
* the field's rule baselines, where the ``douzero`` package is installed: DouZero's
  ``RLCardAgent`` (its port of RLCard's rule model) as ``douzero-rlcard`` and its
  ``RandomAgent`` as ``douzero-random``, fed DouZero information sets
  (:func:`ddz.interop.douzero_infoset`) in the play phase; they bid and double as
  :class:`ddz.GreedyBot` (DouZero's agents only play cards).

A :class:`BotSpec` makes a fresh bot for every seat of every table, seeded from the arena's
seed, the deal, the table and the seat, so that a table's play depends on nothing else.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, Callable, List, Optional

from ..errors import DdzError

__all__ = ["BotSpec", "bot_spec", "BUILTIN", "DouZeroAgentBot"]

BUILTIN = ("random", "greedy", "solver", "expert", "douzero-rlcard", "douzero-random")
"""The bot names the arena knows (besides ``module:Name`` and ``cmd:...``)."""


class BotSpec:
    """How the arena makes one bot: its ``name`` and ``make(seed, seat) -> bot``.

    ``kind`` is ``"python"`` (a fresh object per seat and table) or ``"protocol"`` (one
    program per seat, kept between hands: :class:`ddz.arena.protocol.ProtocolBot`).
    """

    def __init__(self, name: str, factory: Callable[[int], Any], kind: str = "python", text: Any = None) -> None:
        self.name = name
        self.factory = factory
        self.kind = kind
        self.text = name if text is None else text     # what rebuilds it in a worker process

    def __repr__(self) -> str:
        return f"BotSpec({self.name!r})"

    def make(self, seed: int) -> Any:
        """A new bot seeded with ``seed`` (an int >= 0)."""
        return self.factory(seed)


def _builtin(name: str) -> Callable[[int], Any]:
    if name == "expert":
        from ..search.expert import ExpertBot   # start-up time: a bot's code is imported when the bot is made
        return lambda seed: ExpertBot(seed=seed)
    if name in ("douzero-rlcard", "douzero-random"):
        try:
            if name == "douzero-rlcard":
                from douzero.evaluation.rlcard_agent import RLCardAgent  # noqa: F401
            else:
                from douzero.evaluation.random_agent import RandomAgent  # noqa: F401
        except ImportError as exc:
            raise DdzError(f"bot {name!r} needs DouZero's package: pip install --no-deps douzero "
                           f"(and rlcard for douzero-rlcard): {exc}") from None
        return lambda seed: DouZeroAgentBot(name)
    from ..search.bots import make_bot   # start-up time: a bot's code is imported when the bot is made
    return lambda seed: make_bot(name, seed)


def _takes_seed(fn) -> bool:
    try:
        return "seed" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _python(text: str) -> Callable[[int], Any]:
    module, _, attr = text.partition(":")
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise DdzError(f"bot {text!r}: cannot import module {module!r}: {exc}") from None
    obj = mod
    for part in attr.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise DdzError(f"bot {text!r}: module {module!r} has no {attr!r}")
    if not callable(obj):
        raise DdzError(f"bot {text!r}: {attr!r} is not a class or a factory")
    if _takes_seed(obj):
        return lambda seed: obj(seed=seed)
    return lambda seed: obj()


def _protocol_spec(text: str, command: str) -> BotSpec:
    """The spec of ``cmd:COMMAND``: the command is split and its program found before any
    process starts (:func:`ddz.arena.protocol.parse_command`); the name is the program's
    file name, printable (the program's ``ready`` may give another)."""
    from .protocol import ProtocolBot, parse_command, printable_name   # start-up time: imported when the bot is made
    try:
        argv = parse_command(command)
    except DdzError as exc:
        raise DdzError(f"bot {text!r}: {exc}") from None
    name = printable_name(argv[0].replace("\\", "/").rsplit("/", 1)[-1])
    return BotSpec(name, lambda seed: ProtocolBot(argv), "protocol", text)


def bot_spec(bot: Any) -> BotSpec:
    """The :class:`BotSpec` of a bot argument.

    :param bot: a name (``"greedy"``, ``"expert"``, ``"douzero-rlcard"``...), a
        ``"module:Name"``, a ``"cmd:program args"``, a :class:`BotSpec`, a class (made
        with ``seed=`` when it takes one), or a bot object (used as it is at every seat:
        give a class to have one per seat).
    :raises DdzError: an unknown name, a module or attribute that is not there, an empty
        or unreadable command or a program not found (nothing is run), DouZero's agents without the ``douzero`` package, or an object with no
        ``act``.
    """
    if isinstance(bot, BotSpec):
        return bot
    if isinstance(bot, str):
        text = bot.strip()
        if text.startswith("cmd:"):
            command = text[4:].strip()
            if not command:
                raise DdzError(f"bot {bot!r}: 'cmd:' needs a program to run, e.g. cmd:./mybot")
            return _protocol_spec(text, command)
        key = text.lower()
        if key in BUILTIN:
            return BotSpec(key, _builtin(key), text=key)
        if ":" in text:
            return BotSpec(text.rsplit(":", 1)[1], _python(text), text=text)
        raise DdzError(f"unknown bot {bot!r}: give one of {', '.join(BUILTIN)}, a Python class as "
                       "module:Class, or a protocol program as cmd:./mybot")
    if inspect.isclass(bot):
        if not callable(getattr(bot, "act", None)):
            raise DdzError(f"bot class {bot.__name__} has no act(observation, legal)")
        cls = bot
        return BotSpec(cls.__name__, (lambda seed: cls(seed=seed)) if _takes_seed(cls) else (lambda seed: cls()),
                       text=cls)
    if callable(getattr(bot, "act", None)):
        return BotSpec(type(bot).__name__, lambda seed: bot, text=bot)
    raise DdzError(f"not a bot: {bot!r} (a name, 'module:Class', 'cmd:program', a class or an object with act())")


class DouZeroAgentBot:
    """One of DouZero's agents (``douzero.evaluation``) playing a seat of a
    :class:`ddz.Game`: ``"douzero-rlcard"`` (``RLCardAgent``) or ``"douzero-random"``
    (``RandomAgent``). In the play phase it builds the seat's DouZero information set
    (:func:`ddz.interop.douzero_infoset`), asks the agent and maps its card list back to
    the legal :class:`ddz.Play`; it bids and doubles as :class:`ddz.GreedyBot`. The agents
    draw from the global ``random`` module, which the arena seeds for every hand.

    :raises DdzError: (at the first decision) the agent's card list is not a legal move.
    """

    def __init__(self, name: str) -> None:
        from ..search.bots import GreedyBot   # start-up time: a bot's code is imported when the bot is made
        self.name = name
        self._agent = None
        self._greedy = GreedyBot()

    def __repr__(self) -> str:
        return f"DouZeroAgentBot({self.name!r})"

    def _make_agent(self, position: str):
        if self.name == "douzero-rlcard":
            from douzero.evaluation.rlcard_agent import RLCardAgent   # optional dependency (DouZero)
            return RLCardAgent(position)
        from douzero.evaluation.random_agent import RandomAgent   # optional dependency (DouZero)
        return RandomAgent()

    def act(self, observation, legal: List[Any]) -> Any:
        """Bidding and doubling only (as GreedyBot): the play phase needs the game."""
        return self._greedy.act(observation, legal)

    def act_game(self, game, observation, legal: List[Any]) -> Any:
        """The decision of the seat to act in ``game`` (the arena's entry point)."""
        if observation.phase != "playing":
            return self._greedy.act(observation, legal)
        from ..interop import douzero_infoset, to_douzero   # start-up time: only DouZero's agents need the conversions
        info = douzero_infoset(game, legal=False)
        info.legal_actions = [to_douzero(p) for p in legal]
        if self._agent is None:
            self._agent = self._make_agent(info.player_position)
        cards = sorted(self._agent.act(info))
        for p, dz in zip(legal, info.legal_actions):
            if dz == cards:
                return p
        raise DdzError(f"{self.name} played {cards}, which is not a legal move here")


def spec_text(spec: BotSpec) -> Optional[Any]:
    """What rebuilds ``spec`` in another process (its text, or the picklable object)."""
    return spec.text
