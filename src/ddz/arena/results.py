"""What a duplicate match found: :class:`ArenaResult`, its file (read back in every
format it was ever written in), and :func:`merge` of runs over different deals."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..core.rules import Rules
from ..errors import DdzError, quote
from .sprt import Sprt
from .tally import DealValues, Totals, figures

__all__ = ["ArenaResult", "FORMAT_VERSION", "merge"]

FORMAT_VERSION = 2
"""The result file's format. 1 (issue 27): the figures only. 2: also ``format``,
``format_version``, ``ddz_version``, ``first_deal``, ``bot_specs``, ``ratings``,
``points_range``, each bot's ``seconds`` and the per-deal values (``deal_values``:
:class:`ddz.arena.tally.DealValues`), from which every figure is computed again on
reading."""

_FORMAT = "ddz arena result"


def _version() -> str:
    """The running ddz's version."""
    from ..version import __version__   # import chain: ddz.version loads the core; read it only when needed
    return __version__


@dataclass
class ArenaResult:
    """What :func:`run` measured. :meth:`to_dict` gives it as JSON-serializable data,
    :meth:`save` as a file that :meth:`load` reads back; ``str()`` as a table.

    :ivar mode: ``"douzero"`` or ``"game"``. :ivar rules: the :class:`ddz.Rules`.
    :ivar seed: the seed (``None`` for a merge of runs of several seeds).
    :ivar deals: deals played (fewer than asked when the SPRT stopped).
    :ivar deals_requested: deals asked for. :ivar hands: hands (tables) played.
    :ivar bots: per bot a dict: ``name``, ``wp``, ``wp_ci`` ([low, high], 95%: Wilson's
        interval on the deals' effective number, :func:`ddz.arena.stats.wp_interval`),
        ``adp``, ``adp_ci`` (a bootstrap-t interval inside the points' range,
        :func:`ddz.arena.stats.adp_interval`), ``elo``, ``elo_ci`` (from ``wp`` and its
        interval; ``None`` where the WP is 0 or 1: unbounded), ``won`` (the share of its
        seats that won), ``roles`` (``landlord`` and ``farmer``, each with ``wp``,
        ``wp_ci``, ``adp``, ``adp_ci`` and ``deals``: how many deals it held the role in),
        ``decisions``, ``seconds`` (thinking), ``ms_per_decision``, ``forfeits``,
        ``timeouts``.

        ``wp`` is the duplicate score: per deal and opponent ``0.5 + (w_A - w_B) / 2``
        with ``w`` the share of the bot's seats that won at the deal's tables, averaged
        over opponents and deals. In ``douzero`` mode one side wins each table, so it is
        DouZero's WP (the share of deals won over both seatings); in ``game`` mode it is
        0.5 for two equal bots. ``adp`` is the points per deal: DouZero's in its mode (per
        side: the landlord's, or both farmers'), ``ddz``'s settlement per seat in game
        mode. A role's ``wp`` and ``adp`` are the plain win rate and points per deal in
        that role.
    :ivar pairs: per pair of bots ``(A, B)``: ``bots``, A's ``wp``, ``wp_ci``, ``elo``,
        ``elo_ci``, ``adp``, ``adp_ci`` against B, and ``diff``/``diff_ci``: A's mean
        points minus B's per deal.
    :ivar wp_matrix: ``wp_matrix[i][j]``: bot i's WP against bot j (``None`` on the
        diagonal).
    :ivar sprt: the SPRT's parameters and final state (a dict) or ``None``.
    :ivar seconds: wall time of the play (workers warmed up first).
    :ivar workers: processes that played.
    :ivar forfeits: every forfeit: ``deal``, ``pair``, ``table``, ``bot``, ``seat``,
        ``kind``, ``detail``.
    :ivar interrupted: Ctrl-C stopped the run; the figures are those of the deals
        finished (``deals``); :func:`ddz.arena.resume` plays the rest.
    :ivar ratings: three or more bots: per bot ``name``, ``elo``, ``elo_ci``: Bradley-Terry
        ratings fitted to the per-deal pair scores (mean 0), intervals by a bootstrap over
        deals (:func:`ddz.arena.stats.rating_list`); else ``None``.
    :ivar first_deal: the index of the first deal asked for (deals ``first_deal`` to
        ``first_deal + deals_requested - 1`` of the seed).
    :ivar bot_specs: the bots as given by name (``None`` for one given as a Python object:
        such a run cannot be resumed).
    :ivar values: the per-deal values (:class:`ddz.arena.tally.DealValues`); ``None`` in
        a result read from a file of format 1.
    :ivar points_range: ``M``: the ADP intervals lie in ``[-M, M]`` (the largest points per
        seat of a deal, at least 2).
    :ivar ddz_version: the version of ddz that played (the last of a merge's).
    """

    mode: str
    rules: Rules
    seed: Optional[int]
    deals: int
    deals_requested: int
    hands: int
    bots: List[Dict[str, Any]]
    pairs: List[Dict[str, Any]]
    wp_matrix: List[List[Optional[float]]]
    sprt: Optional[Dict[str, Any]]
    seconds: float
    workers: int
    forfeits: List[Dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False
    ratings: Optional[List[Dict[str, Any]]] = None
    first_deal: int = 0
    bot_specs: Optional[List[Optional[str]]] = None
    values: Optional[DealValues] = None
    points_range: Optional[float] = None
    ddz_version: str = field(default_factory=_version)

    @property
    def hands_per_second(self) -> float:
        """Hands played per second of wall time."""
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    @property
    def names(self) -> List[str]:
        """The bots' names."""
        return [b["name"] for b in self.bots]

    def to_dict(self, deal_values: bool = True) -> Dict[str, Any]:
        """Every field as JSON-serializable data (``rules`` as :meth:`ddz.Rules.to_json`;
        a number that is not finite, such as the WP of a role a bot never played, is
        ``None``): the result file's content (format :data:`FORMAT_VERSION`).

        :param deal_values: include the per-deal values (``deal_values``; without them the
            dict cannot be resumed or merged).
        """
        d = {"format": _FORMAT, "format_version": FORMAT_VERSION, "ddz_version": self.ddz_version,
             "mode": self.mode, "rules": self.rules.to_json(), "seed": self.seed, "first_deal": self.first_deal,
             "deals": self.deals, "deals_requested": self.deals_requested, "hands": self.hands,
             "bots": self.bots, "pairs": self.pairs, "wp_matrix": self.wp_matrix, "ratings": self.ratings,
             "sprt": self.sprt, "points_range": self.points_range, "seconds": self.seconds,
             "hands_per_second": self.hands_per_second, "workers": self.workers, "forfeits": self.forfeits,
             "interrupted": self.interrupted, "bot_specs": self.bot_specs}
        d = _finite(d)
        if deal_values:
            d["deal_values"] = None if self.values is None else self.values.to_json()
        return d

    def numbers(self) -> Dict[str, Any]:
        """:meth:`to_dict` without what depends on the machine (``seconds``,
        ``hands_per_second``, ``workers``, each bot's ``seconds`` and
        ``ms_per_decision``): what a run with another number of workers, a resumed run
        and a merge of runs over the same deals reproduce exactly."""
        d = self.to_dict()
        for key in ("seconds", "hands_per_second", "workers"):
            d.pop(key)
        for bot in d["bots"]:
            bot.pop("ms_per_decision", None)
            bot.pop("seconds", None)
        return d

    # -- files ---------------------------------------------------------------------------

    def save(self, path: str) -> None:
        """Write :meth:`to_dict` as JSON to ``path`` (through a temporary file renamed
        over it, so that an interrupted write leaves the previous file).

        :raises DdzError: the file cannot be written.
        """
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(self.to_dict(), f, separators=(",", ":"))
                f.write("\n")
            os.replace(tmp, path)
        except OSError as exc:
            raise DdzError(f"cannot write {path!r}: {exc.strerror or exc}") from None

    @classmethod
    def load(cls, path: str) -> "ArenaResult":
        """Read a result file of any format (:data:`FORMAT_VERSION`).

        :raises DdzError: the file cannot be read, is not JSON, or not an arena result.
        """
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as exc:
            raise DdzError(f"cannot read {path!r}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise DdzError(f"{path!r} is not JSON: {exc}") from None
        try:
            return cls.from_dict(data)
        except DdzError as exc:
            raise DdzError(f"{path!r}: {exc}") from None

    @classmethod
    def from_dict(cls, data: Any) -> "ArenaResult":
        """A result from :meth:`to_dict`'s data of any format version: the figures of
        format 2 are computed again from its per-deal values (so they are those of this
        version of ddz); format 1's are taken as written.

        :raises DdzError: not an arena result, or of a format newer than this ddz reads.
        """
        if not isinstance(data, dict) or "bots" not in data or "mode" not in data:
            raise DdzError(f"not an arena result: {quote(data)}")
        version = data.get("format_version", 1)
        if version == 1 and "format" not in data:
            return _from_v1(cls, data)
        if data.get("format") != _FORMAT or not isinstance(version, int) or not 2 <= version:
            raise DdzError(f"not an arena result of a known format (format {data.get('format')!r}, "
                           f"version {version!r})")
        if version > FORMAT_VERSION:
            raise DdzError(f"an arena result of format {version}: this ddz ({_version()}) reads "
                           f"formats 1 to {FORMAT_VERSION}")
        try:
            rules = Rules.from_json(data["rules"])
            names = [str(b["name"]) for b in data["bots"]]
            specs = data.get("bot_specs")
            sprt = data.get("sprt")
            sprt = None if sprt is None else Sprt(**{k: sprt[k] for k in ("elo0", "elo1", "alpha", "beta",
                                                                         "min_deals")})
            totals = Totals(len(names))
            totals.hands = int(data["hands"])
            for k, b in enumerate(data["bots"]):
                totals.decisions[k] = int(b["decisions"])
                totals.seconds[k] = float(b.get("seconds") or 0.0)
                totals.forfeits[k] = int(b["forfeits"])
                totals.timeouts[k] = int(b["timeouts"])
            totals.forfeit_list = list(data.get("forfeits") or [])
            raw = data.get("deal_values")
            values = None if raw is None else DealValues.from_json(raw, len(names))
        except (KeyError, TypeError, ValueError) as exc:
            raise DdzError(f"an arena result with a missing or bad field ({type(exc).__name__}: {exc})") from None
        if values is None:
            raise DdzError("an arena result of format 2 without its deal values")
        return build(mode=str(data["mode"]), rules=rules, seed=data.get("seed"), names=names,
                     deals_requested=int(data["deals_requested"]), values=values, totals=totals, sprt=sprt,
                     seconds=float(data.get("seconds") or 0.0), workers=int(data.get("workers") or 1),
                     interrupted=bool(data.get("interrupted")), first_deal=int(data.get("first_deal") or 0),
                     bot_specs=specs, ddz_version=str(data.get("ddz_version") or "?"))

    # -- text ------------------------------------------------------------------------------

    def forfeit_lines(self) -> List[str]:
        """Why bots forfeited: a line per bot and kind of forfeit (``start``, ``crash``,
        ``illegal``, ...) with its count and the first one's detail; ``[]`` when none did."""
        seen: Dict[Tuple[str, str], List[Any]] = {}
        for f in self.forfeits:
            key = (str(f.get("bot")), str(f.get("kind")))
            if key in seen:
                seen[key][0] += 1
            else:
                seen[key] = [1, f.get("detail")]
        return [f"forfeit: {bot}: {n} x {kind}" + (f" (first: {detail})" if detail else "")
                for (bot, kind), (n, detail) in seen.items()]

    def never_started(self) -> List[str]:
        """The bots that made no decision and forfeited every hand they sat at because
        their program could not start (``kind == "start"``)."""
        out = []
        for b in self.bots:
            kinds = {f.get("kind") for f in self.forfeits if f.get("bot") == b["name"]}
            if kinds == {"start"} and b["decisions"] == 0:
                out.append(b["name"])
        return out

    def __str__(self) -> str:
        from .text import table   # the table's layout lives with the other printed text
        return table(self)


def _finite(x: Any) -> Any:
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def _nan(x: Any) -> Any:
    """JSON's ``None`` back to NaN where a number was not finite (format 1's figures)."""
    if x is None:
        return math.nan
    if isinstance(x, list):
        return [_nan(v) for v in x]
    return x


def _from_v1(cls, data: Dict[str, Any]) -> "ArenaResult":
    """Format 1 (issue 27's ``to_dict``): the figures as written, no per-deal values."""
    try:
        bots = []
        for b in data["bots"]:
            b = dict(b)
            for key in ("wp", "wp_ci", "adp", "adp_ci", "won", "ms_per_decision"):
                b[key] = _nan(b.get(key))
            b["roles"] = {r: {**v, **{k: _nan(v.get(k)) for k in ("wp", "wp_ci", "adp", "adp_ci")}}
                          for r, v in b["roles"].items()}
            b.setdefault("seconds", b["ms_per_decision"] * b["decisions"] / 1000
                         if math.isfinite(b["ms_per_decision"]) else 0.0)
            bots.append(b)
        return cls(str(data["mode"]), Rules.from_json(data["rules"]), data.get("seed"), int(data["deals"]),
                   int(data["deals_requested"]), int(data["hands"]), bots, list(data["pairs"]),
                   list(data["wp_matrix"]), data.get("sprt"), float(data.get("seconds") or 0.0),
                   int(data.get("workers") or 1), list(data.get("forfeits") or []),
                   bool(data.get("interrupted")), ddz_version="(format 1)")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DdzError(f"an arena result of format 1 with a missing or bad field ({type(exc).__name__}: {exc})") \
            from None


def build(*, mode: str, rules: Rules, seed: Optional[int], names: Sequence[str], deals_requested: int,
          values: DealValues, totals: Totals, sprt: Optional[Sprt], seconds: float, workers: int,
          interrupted: bool = False, first_deal: int = 0, bot_specs: Optional[Sequence[Optional[str]]] = None,
          ddz_version: Optional[str] = None) -> ArenaResult:
    """An :class:`ArenaResult` with every figure computed from ``values`` and ``totals``."""
    nb = len(names)
    pairs = [(a, b) for a in range(nb) for b in range(a + 1, nb)]
    fig = figures(values, names, pairs, mode, sprt)
    for k, b in enumerate(fig["bots"]):
        dec = totals.decisions[k]
        b.update({"decisions": dec, "seconds": totals.seconds[k],
                  "ms_per_decision": 1000 * totals.seconds[k] / dec if dec else 0.0,
                  "forfeits": totals.forfeits[k], "timeouts": totals.timeouts[k]})
    return ArenaResult(mode, rules, seed, len(values), deals_requested, totals.hands, fig["bots"], fig["pairs"],
                       fig["wp_matrix"], fig["sprt"], seconds, workers, list(totals.forfeit_list), interrupted,
                       fig["ratings"], first_deal, None if bot_specs is None else list(bot_specs), values,
                       fig["points_range"], ddz_version or _version())


def totals_of(result: ArenaResult) -> Totals:
    """A result's counts, to go on from them."""
    t = Totals(len(result.bots))
    t.hands = result.hands
    for k, b in enumerate(result.bots):
        t.decisions[k] = b["decisions"]
        t.seconds[k] = b.get("seconds", 0.0)
        t.forfeits[k] = b["forfeits"]
        t.timeouts[k] = b["timeouts"]
    t.forfeit_list = list(result.forfeits)
    return t


def merge(results: Sequence[ArenaResult]) -> ArenaResult:
    """Pool runs over different deals into one result: the same figures as one run over
    all their deals (the deals in ``(seed, deal)`` order; the SPRT, when every run had the
    same, on the pooled deals).

    :param results: two or more :class:`ArenaResult` (or one), each with its per-deal
        values (format 2).
    :raises DdzError: none given; a result without per-deal values; results that differ
        in bots (names or specs), mode or rules; results that share a deal (the same seed
        and deal index).
    """
    results = list(results)
    if not results:
        raise DdzError("merge needs one result or more")
    for i, r in enumerate(results):
        if not isinstance(r, ArenaResult):
            raise DdzError(f"merge takes ArenaResults, got {quote(r)}")
        if r.values is None:
            raise DdzError(f"result {i + 1} has no per-deal values (a file of format 1): it cannot be merged")
    first = results[0]
    for i, r in enumerate(results[1:], 2):
        for what, a, b in (("bots", first.names, r.names), ("mode", first.mode, r.mode),
                           ("rules", first.rules, r.rules), ("bot specs", first.bot_specs, r.bot_specs)):
            if a != b:
                raise DdzError(f"cannot merge: result {i} differs in {what} ({b!r}, not {a!r})")
    seen: Dict[Tuple[int, int], int] = {}
    for i, r in enumerate(results, 1):
        for key in r.values.keys():
            if key in seen:
                raise DdzError(f"cannot merge: results {seen[key]} and {i} share deal {key[1]} of seed {key[0]} "
                               "(a deal counts once)")
            seen[key] = i
    values = DealValues.concat([r.values for r in results])
    totals = Totals(len(first.bots))
    for r in results:
        t = totals_of(r)
        totals.hands += t.hands
        for k in range(len(first.bots)):
            totals.decisions[k] += t.decisions[k]
            totals.seconds[k] += t.seconds[k]
            totals.forfeits[k] += t.forfeits[k]
            totals.timeouts[k] += t.timeouts[k]
    order = {key: n for n, key in enumerate(values.keys())}
    forfeits = [(r.seed, f) for r in results for f in r.forfeits]
    totals.forfeit_list = [f for _, f in sorted(forfeits, key=lambda sf: (order.get((sf[0], sf[1].get("deal")), -1),
                                                                            sf[1].get("pair", []), sf[1].get("table", 0)))]
    sprts = {None if r.sprt is None else tuple(sorted((k, r.sprt[k]) for k in ("elo0", "elo1", "alpha", "beta",
                                                                                "min_deals") if k in r.sprt))
             for r in results}
    sprt = Sprt(**dict(sprts.pop())) if len(sprts) == 1 and None not in sprts else None
    seeds = {s for s, _ in values.seeds}
    return build(mode=first.mode, rules=first.rules, seed=seeds.pop() if len(seeds) == 1 else None,
                 names=first.names, deals_requested=sum(r.deals_requested for r in results), values=values,
                 totals=totals, sprt=sprt, seconds=sum(r.seconds for r in results),
                 workers=max(r.workers for r in results), first_deal=min(r.first_deal for r in results),
                 bot_specs=first.bot_specs, ddz_version=max(results, key=lambda r: r.ddz_version).ddz_version)
