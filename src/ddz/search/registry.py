"""The one registry of bots and the one grammar of bot specs (issue 40).

Every place that makes a bot from text (:func:`ddz.search.bots.make_bot`, ``ddz selfplay
--bots``, ``ddz play --bot``, :mod:`ddz.distributed` and the arena) reads it here:

* ``name`` -- a registered bot (:func:`names`: ``random``, ``greedy``, ``solver``,
  ``expert``, ``expert-2026-12``, ``douzero-rlcard``, ``douzero-random``, ``neural``; names are read
  case-insensitively);
* ``name:key=value[,key=value]`` -- with options, typed and checked against the options the
  bot registered (``expert:samples=4,threshold=20``); a bot that registered a positional
  argument takes it first (``douzero:DIR`` or ``douzero:DIR,key=value``);
* ``py:module:Name`` -- a Python class whose instances have ``act(observation, legal)``,
  or a function declared a bot factory with :func:`bot_factory`; made with ``seed=`` when
  it takes one. A bare ``module:Name`` is read the same way when ``module`` is not a
  registered name;
* ``cmd:program args`` -- a program spoken to over the bot protocol (``docs/protocol.md``;
  the arena's only: it needs the arena to start and stop it).

:func:`parse_spec` reads the text without importing anything; :func:`check_spec` also
imports what a ``py:`` spec names (and a built-in's optional dependency) and checks it is a
bot, calling nothing; :func:`make` makes the bot. Later work registers into the same
registry with :func:`register`. A factory is a callable or its dotted path
``"package.module:name"``, imported at the first make: a bot defined above the ``search``
layer (the arena's DouZero adapters, its protocol programs) registers without an import
against the layers (docs/DESIGN.md).
"""

from __future__ import annotations

import importlib
import inspect
import math
import re
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from ..errors import DdzError, quote

__all__ = ["Option", "Entry", "Spec", "register", "unregister", "names", "entry", "parse_spec", "check_spec",
           "make", "is_seeded", "bot_factory", "is_bot_factory"]

_NAME = re.compile(r"[a-z][a-z0-9_.-]*\Z")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")
MAX_SPEC = 4096
"""The longest spec text read (characters)."""


class Option(NamedTuple):
    """One option a registered bot takes (``name:key=value``).

    :param type: ``int``, ``float``, ``bool`` or ``str``. :param doc: what it does (and its
        default, which is the factory's own: an option not given is not passed).
    :param low, high: the inclusive range of an ``int`` or ``float`` (``None``: unbounded).
    """
    type: type
    doc: str = ""
    low: Optional[float] = None
    high: Optional[float] = None


class Entry(NamedTuple):
    """A registered bot (see :func:`register`)."""
    name: str
    factory: Union[Callable[..., Any], str]
    options: Mapping[str, Option]
    positional: Optional[str]
    doc: str
    kind: str
    seeded: bool
    requires: Tuple[str, ...]
    check: Union[Callable[..., Any], str, None] = None


class Spec(NamedTuple):
    """A bot spec read by :func:`parse_spec`.

    ``kind`` is ``"builtin"`` (a registered ``name``), ``"python"`` (``module``:``attr``)
    or ``"protocol"`` (``command``); ``options`` the typed options, in key order;
    ``positional`` a registered bot's positional argument; ``text`` the canonical text,
    which :func:`parse_spec` reads back to the same spec (what rebuilds the bot in another
    process); ``label`` a short name for tables (the name, the class or the program).
    """
    kind: str
    name: str
    options: Tuple[Tuple[str, Any], ...]
    positional: Optional[str]
    text: str
    label: str


_REGISTRY: Dict[str, Entry] = {}


def register(name: str, factory: Union[Callable[..., Any], str], *, options: Optional[Mapping[str, Any]] = None,
             positional: Optional[str] = None, doc: str = "", kind: str = "python", seeded: bool = True,
             requires: Sequence[str] = (), replace: bool = False,
             check: Union[Callable[..., Any], str, None] = None) -> Entry:
    """Register a bot under ``name``.

    :param name: lower case, ``[a-z][a-z0-9_.-]*``; not ``py`` or ``cmd``.
    :param factory: a callable returning a bot, or its path ``"package.module:name"``
        (imported at the first :func:`make`). It is called with ``seed=`` (an int >= 0 or
        ``None``) when it takes a ``seed``, the positional argument under the keyword
        ``positional`` and the options given as keywords.
    :param options: ``{key: Option or type}``: the options ``name:key=value`` may give.
    :param positional: the keyword of a required positional argument
        (``register("douzero", ..., positional="directory")`` reads ``douzero:DIR``).
    :param doc: one line for listings. :param kind: ``"python"`` (an object with ``act``)
        or ``"protocol"`` (a program the arena runs).
    :param seeded: whether its ``seed`` decides its play (``False``: it draws from the
        global ``random`` module, which the arena and ``ddz.distributed`` seed per hand).
    :param requires: modules it needs (an optional dependency): :func:`check_spec` imports
        them, so a missing one is an error before any match starts.
    :param replace: allow a name already registered.
    :param check: a callable or its path, called by :func:`check_spec` with the positional
        argument (under its keyword) when there is one: a cheap check that the bot can be
        made (files present, say), raising :class:`DdzError` when not, so that a match does
        not start with a bot that cannot play.
    :returns: the :class:`Entry`.
    :raises DdzError: a bad name, factory, option or kind, or a name already registered.
    """
    if not isinstance(name, str) or not _NAME.match(name) or name in ("py", "cmd"):
        raise DdzError(f"a bot name is lower case letters, digits and '_.-', starting with a letter "
                       f"(not py or cmd), got {quote(name)}")
    if name in _REGISTRY and not replace:
        raise DdzError(f"bot {name!r} is registered already (register(..., replace=True) replaces it)")
    for what, fn in (("factory", factory), ("check", check)):
        if not (callable(fn) or (isinstance(fn, str) and _path_parts(fn) is not None) or (what, fn) == ("check", None)):
            raise DdzError(f"a bot {what} is a callable or its path 'package.module:name', got {quote(fn)}")
    opts: Dict[str, Option] = {}
    for key, opt in dict(options or {}).items():
        if isinstance(opt, type):
            opt = Option(opt)
        if not isinstance(key, str) or not re.match(r"[a-z][a-z0-9_]*\Z", key) or not isinstance(opt, Option) \
                or opt.type not in (int, float, bool, str):
            raise DdzError(f"bot {name!r}: option {quote(key)} must be a lower-case identifier with an "
                           f"Option (or the type int, float, bool or str), got {quote(opt)}")
        opts[key] = opt
    if positional is not None and (not isinstance(positional, str) or not positional.isidentifier()):
        raise DdzError(f"bot {name!r}: positional must be a keyword name, got {quote(positional)}")
    if kind not in ("python", "protocol"):
        raise DdzError(f"bot {name!r}: kind is 'python' or 'protocol', got {quote(kind)}")
    found = _REGISTRY[name] = Entry(name, factory, opts, positional, str(doc), kind, bool(seeded), tuple(requires),
                                    check)
    return found


def unregister(name: str) -> None:
    """Remove a bot :func:`register` added (a test's clean-up). :raises DdzError: unknown."""
    if name not in _REGISTRY:
        raise DdzError(f"no bot {name!r} is registered")
    del _REGISTRY[name]


def names() -> List[str]:
    """The registered names, in registration order (the built-ins first)."""
    return list(_REGISTRY)


def entry(name: str) -> Entry:
    """The :class:`Entry` of a registered name. :raises DdzError: an unknown name."""
    found = _REGISTRY.get(name.lower() if isinstance(name, str) else name)
    if found is None:
        raise DdzError(_unknown(name))
    return found


def bot_factory(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Declare a function a bot factory, so that a ``py:module:name`` spec may name it
    (``@ddz.bot_factory``; it is returned as it is, marked). The arena calls it with
    ``seed=`` when it takes one; it returns a bot (an object with ``act``).

    :raises DdzError: ``fn`` is not callable."""
    if not callable(fn):
        raise DdzError(f"bot_factory decorates a function, not {quote(fn)}")
    fn.ddz_bot_factory = True    # type: ignore[attr-defined]
    return fn


def is_bot_factory(obj: Any) -> bool:
    """Whether ``obj`` is a class whose instances have ``act`` or a function declared with
    :func:`bot_factory`: what a ``py:`` spec may name."""
    if inspect.isclass(obj):
        return callable(getattr(obj, "act", None))
    return callable(obj) and getattr(obj, "ddz_bot_factory", False) is True


# -- reading a spec --------------------------------------------------------------------------

def _unknown(name: Any) -> str:
    return (f"unknown bot {quote(name)}: give one of {', '.join(_REGISTRY)} (with options as "
            f"name:key=value), a Python class as py:module:Class, or a protocol program as cmd:./mybot")


def _path_parts(text: str) -> Optional[Tuple[str, str]]:
    module, sep, attr = text.partition(":")
    module, attr = module.strip(), attr.strip()
    if not sep or not _IDENT.match(module) or not _IDENT.match(attr):
        return None
    return module, attr


def _value(name: str, key: str, opt: Option, text: str) -> Any:
    what = f"bot {name!r} option {key}"
    if opt.type is bool:
        low = text.lower()
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise DdzError(f"{what} is true or false, got {text!r}")
    if opt.type is str:
        return text
    try:
        value = int(text, 10) if opt.type is int else float(text)
    except ValueError:
        raise DdzError(f"{what} is {'an int' if opt.type is int else 'a number'}, got {text!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise DdzError(f"{what} is a finite number, got {text!r}")
    if (opt.low is not None and value < opt.low) or (opt.high is not None and value > opt.high):
        span = (f"from {opt.low:,} to {opt.high:,}" if opt.high is not None else f">= {opt.low:,}") \
            if opt.low is not None else f"<= {opt.high:,}"
        raise DdzError(f"{what} must be {span}, got {text!r}")
    return value


def _builtin(found: Entry, rest: Optional[str], text: str) -> Spec:
    positional = None
    options: Dict[str, Any] = {}
    if rest is not None:
        items = rest.split(",")
        if found.positional is not None and items and "=" not in items[0]:
            positional = items.pop(0).strip()
        for item in items:
            key, eq, value = item.partition("=")
            key = key.strip().lower().replace("-", "_")
            if not eq or not key:
                raise DdzError(f"bot {text!r}: options are key=value separated by commas, got {item!r}"
                               + (f" (its positional argument {found.positional} comes first)"
                                  if found.positional else ""))
            if key not in found.options:
                allowed = ", ".join(found.options) or "none"
                raise DdzError(f"bot {found.name!r} has no option {key!r}; its options: {allowed}")
            if key in options:
                raise DdzError(f"bot {text!r}: option {key} given twice")
            options[key] = _value(found.name, key, found.options[key], value.strip())
    if found.positional is not None and not positional:
        raise DdzError(f"bot {found.name!r} needs its {found.positional}: {found.name}:{found.positional.upper()}")
    opts = tuple(sorted(options.items()))
    args = ([positional] if positional else []) + [f"{k}={_text(v)}" for k, v in opts]
    canonical = found.name + (":" + ",".join(args) if args else "")
    return Spec("builtin", found.name, opts, positional, canonical, canonical)


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def parse_spec(text: Any) -> Spec:
    """Read a bot spec (the grammar of the module docstring) without importing anything.

    :param text: a str (or a :class:`Spec`, returned as it is).
    :returns: a :class:`Spec`.
    :raises DdzError: not a str, empty or longer than :data:`MAX_SPEC`; an unknown name;
        an option the bot does not take (the message names those it does), of the wrong
        type or out of range; a ``py:`` spec that is not ``module:Name`` (identifiers);
        ``cmd:`` with no program.
    """
    if isinstance(text, Spec):
        return text
    if not isinstance(text, str):
        raise DdzError(f"a bot spec is a str (a bot name such as 'greedy', 'py:module:Class' or "
                       f"'cmd:./mybot'), not {type(text).__name__}: {quote(text)}")
    raw = text
    text = text.strip()
    if not text or len(text) > MAX_SPEC or (not text.isprintable() and not text.startswith("cmd:")):
        raise DdzError(f"a bot spec is printable text of 1 to {MAX_SPEC:,} characters, got {quote(raw)}")
    head, sep, rest = text.partition(":")
    key = head.strip().lower()
    if key == "cmd":
        command = rest.strip()
        if not command:
            raise DdzError(f"bot {raw!r}: 'cmd:' needs a program to run, e.g. cmd:./mybot")
        label = command.split()[0].rsplit("/", 1)[-1]
        return Spec("protocol", "cmd", (), None, "cmd:" + command, label)
    if key == "py":
        return _python(rest, raw)
    found = _REGISTRY.get(key)
    if found is not None:
        return _builtin(found, rest if sep else None, raw)
    if sep:
        return _python(text, raw)        # the bare module:Name of before issue 40
    raise DdzError(_unknown(raw))


def _python(path: str, raw: str) -> Spec:
    parts = _path_parts(path)
    if parts is None:
        module, _, attr = path.partition(":")
        missing = "the module" if not module.strip() else "the class or factory" if not attr.strip() else None
        raise DdzError(f"bot {raw!r}: a Python bot is py:module:Name with dotted identifiers"
                       + (f" ({missing} is missing)" if missing else ""))
    module, attr = parts
    return Spec("python", f"{module}:{attr}", (), None, f"py:{module}:{attr}", attr.rsplit(".", 1)[-1])


# -- checking and making ---------------------------------------------------------------------

_RESOLVED: Dict[str, Any] = {}


def _import(path: str, what: str) -> Any:
    """The object at ``package.module:attr``. :raises DdzError: not there."""
    found = _RESOLVED.get(path)
    if found is not None:
        return found
    module, attr = _path_parts(path) or ("", "")
    try:
        obj = importlib.import_module(module)
    except ImportError as exc:
        raise DdzError(f"{what}: cannot import module {module!r}: {exc}") from None
    for part in attr.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise DdzError(f"{what}: module {module!r} has no {attr!r}")
    _RESOLVED[path] = obj
    return obj


def check_spec(spec: Any) -> Spec:
    """:func:`parse_spec`, then the checks that need an import but call nothing: a ``py:``
    spec names a class whose instances have ``act`` or a function declared with
    :func:`bot_factory` (``os:system`` is neither); a built-in's optional dependency is
    installed; a built-in registered with a ``check`` passes it (``neural``: a model is
    shipped; ``douzero:DIR``: the folder holds a model).

    :returns: the :class:`Spec`. :raises DdzError: as :func:`parse_spec`, or the above.
    """
    spec = parse_spec(spec)
    if spec.kind == "python":
        obj = _import(spec.name, f"bot {spec.text!r}")
        if not is_bot_factory(obj):
            if inspect.isclass(obj):
                raise DdzError(f"bot {spec.text!r}: class {obj.__name__} has no act(observation, legal)")
            raise DdzError(f"bot {spec.text!r}: {spec.name.partition(':')[2]!r} is neither a bot class (one "
                           f"with act(observation, legal)) nor a function declared with @ddz.bot_factory")
    elif spec.kind == "builtin":
        for module in _REGISTRY[spec.name].requires:
            try:
                importlib.import_module(module)
            except ImportError as exc:
                raise DdzError(f"bot {spec.name!r} needs the module {module!r}, which cannot be imported "
                               f"({exc}): {_REGISTRY[spec.name].doc}") from None
        found = _REGISTRY[spec.name]
        if found.check is not None:
            check = found.check if callable(found.check) else _import(found.check, f"bot {spec.name!r}'s check")
            check(**({found.positional: spec.positional} if found.positional is not None else {}))
    return spec


def is_seeded(spec: Any) -> bool:
    """Whether the bot of ``spec`` plays by its ``seed`` alone (a built-in registered with
    ``seeded=True``); ``False`` for the rest (``py:`` and ``cmd:`` bots too), whose hands
    the arena and :mod:`ddz.distributed` play with the global ``random`` module seeded.

    :raises DdzError: as :func:`parse_spec`."""
    spec = parse_spec(spec)
    return spec.kind == "builtin" and _REGISTRY[spec.name].seeded


def _takes_seed(fn: Any) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def make(spec: Any, seed: Optional[int] = None) -> Any:
    """A new bot from its spec (checked as :func:`check_spec`).

    :param spec: spec text or a :class:`Spec`.
    :param seed: an int >= 0 or ``None``, given as ``seed=`` to a factory that takes one.
    :returns: the bot (a ``cmd:`` spec gives a :class:`ddz.arena.ProtocolBot`, which the
        arena starts and stops).
    :raises DdzError: as :func:`check_spec`; what the factory raises on a bad option.
    """
    spec = check_spec(spec)
    if spec.kind == "protocol":
        factory = _import("ddz.arena.protocol:ProtocolBot", "bot 'cmd:'")
        return factory(spec.text[4:])
    if spec.kind == "python":
        factory = _import(spec.name, f"bot {spec.text!r}")
        return factory(seed=seed) if _takes_seed(factory) else factory()
    found = _REGISTRY[spec.name]
    factory = found.factory if callable(found.factory) else _import(found.factory, f"bot {spec.name!r}")
    kwargs = dict(spec.options)
    if found.positional is not None:
        kwargs[found.positional] = spec.positional
    if _takes_seed(factory):
        kwargs["seed"] = seed
    return factory(**kwargs)


# -- the built-ins ---------------------------------------------------------------------------

_SEARCH = {"threshold": Option(int, "cards left in all hands at or below which it searches", 0, 54 * 2),
           "samples": Option(int, "deals sampled per decision", 1, 10_000),
           "node_limit": Option(int, "positions per solve", 1, 10 ** 9)}

register("random", "ddz.search.bots:RandomBot", doc="a legal action uniformly at random")
register("greedy", "ddz.search.bots:GreedyBot", doc="a deterministic heuristic (GreedyBot)")
register("solver", "ddz.search.bots:SolverBot", options=_SEARCH,
         doc="GreedyBot, then perfect-information Monte Carlo with the endgame solver (SolverBot)")
_EXPERT = {"budget": Option(int, "positions (solver nodes) a decision may search", 1, 10 ** 10),
           "probe": Option(int, "positions for each probe (a sampled deal; none exact: no search)", 1, 10 ** 10),
           "probes": Option(int, "sampled deals tried as probes at most", 1, 10_000),
           "samples": _SEARCH["samples"],
           "node_limit": Option(int, "positions per sampled deal after the probe", 1, 10 ** 9),
           "threshold": Option(int, "no search while more cards are left in all hands", 0, 54 * 2)}
register("expert", "ddz.search.expert:ExpertBot", options=_EXPERT,
         doc="hand splitting, then the sampled endgame (ExpertBot; it improves over time)")
register("expert-2026-12", "ddz.search.expert_2026_12:ExpertBot202612",
         doc="ExpertBot as of December 2026, frozen: a fixed opponent for strength over time")
register("douzero-rlcard", "ddz.arena.bots:douzero_rlcard", seeded=False,
         requires=("douzero.evaluation.rlcard_agent",),
         doc="DouZero's RLCardAgent (pip install --no-deps douzero; and rlcard)")
register("douzero-random", "ddz.arena.bots:douzero_random", seeded=False,
         requires=("douzero.evaluation.random_agent",),
         doc="DouZero's RandomAgent (pip install --no-deps douzero)")
register("douzero", "ddz.neural.bot:douzero_bot", positional="directory", check="ddz.neural.bot:check_model",
         doc="a DouZero model folder (douzero:DIR: three .ckpt files, or train.py's newest) run by "
             "ddz.NeuralBot in numpy, without torch")
register("neural", "ddz.neural.bot:make_neural_bot", check="ddz.neural.bot:check_model",
         doc="the model shipped with ddz (DouZero's network trained by ddz.train) run by ddz.NeuralBot, "
             "without torch")
_OPENSPIEL = {"seconds": Option(float, "the budget of a decision in seconds (default 0.2)", 1e-4, 3600.0),
              "simulations": Option(int, "a fixed number of simulations a decision (reproducible)", 1, 10 ** 7)}
register("openspiel-mcts", "ddz.arena.openspiel:OpenSpielMCTS", options=_OPENSPIEL, requires=("pyspiel",),
         doc="OpenSpiel's MCTSBot on a deal resampled from the seat's information state (pip install open_spiel)")
register("openspiel-ismcts", "ddz.arena.openspiel:OpenSpielISMCTS", options=_OPENSPIEL, requires=("pyspiel",),
         doc="OpenSpiel's ISMCTSBot with ddz's resampler (pip install open_spiel)")
