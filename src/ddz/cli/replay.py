"""``ddz replay``: replay and check recorded hands and matches."""

from __future__ import annotations

import json
import sys

from ..errors import DdzError


def _load_records(path: str) -> list:
    try:
        if path == "-":                     # standard input, e.g. `ddz selfplay --out - | ddz replay -`
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except UnicodeDecodeError as exc:
        raise DdzError(f"{path!r} is not UTF-8 text (byte {exc.start}: {exc.reason}); "
                       f"records are JSON") from None
    except OSError as exc:
        raise DdzError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    stripped = text.strip()
    if not stripped:
        raise DdzError(f"{path!r} is empty")
    try:
        data = _json(stripped)
        if data == []:
            raise DdzError(f"{path!r} holds an empty list: no records")
        return data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        pass
    except ValueError as exc:  # too deep, or an integer too long for int()
        raise DdzError(f"{path!r} is not a record file: {exc}") from None
    records = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(_json(line))
        except json.JSONDecodeError as exc:
            raise DdzError(f"{path!r} line {n} is not JSON: {exc.msg}") from None
        except ValueError as exc:
            raise DdzError(f"{path!r} line {n} is not a record: {exc}") from None
    return records


def _json(text: str):
    """``json.loads``, with nesting too deep for the parser as a ValueError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def cmd_replay(args) -> int:
    """`ddz replay`: check game records and summarise them (``-v``: a line per hand;
    ``-vv``: also its deal and actions). Returns the exit status."""
    from .. import cli   # looked up per call on the package (tests replace its helpers); at the top: a cycle
    from ..core.implementation import engine_note
    from ..errors import RecordError
    from ..game.state import Game
    from ..game.match import MATCH_FORMAT, Match
    from ..terminal import progress_bar
    records = _load_records(args.file)
    verbose = args.verbose
    n = len(records)
    finished = voids = unfinished = redeals = lord_wins = matches = 0
    totals: list = []                  # per seat; four-player records add a fourth

    def hands():
        """(label, Game) of every hand: a hand record, or each hand of a match record."""
        nonlocal matches
        for i, rec in enumerate(records, 1):
            is_match = isinstance(rec, dict) and rec.get("format") == MATCH_FORMAT
            try:
                if is_match:
                    m = Match.from_record(rec)
                    matches += 1
                    if verbose:
                        won = ", ".join(map(str, m.winners)) or "none yet"
                        print(f"match {i}: {m.hands_played} of {m.hands} hands, totals "
                              f"{' '.join(f'{v:+d}' for v in m.totals)}, winners {won}")
                    for k, g in enumerate(m.games, 1):
                        yield f"match {i} hand {k}", g
                else:
                    yield f"hand {i}", Game.from_record(rec)
            except RecordError as exc:
                raise RecordError(f"{'match' if is_match else 'hand'} {i} of {args.file!r}: {exc}") from None
            progress.advance()

    progress = progress_bar(n, "replay", sys.stderr, not verbose and cli._isatty(sys.stderr))
    try:
        for label, game in hands():
            r = game.result
            redeals += game.redeals
            if r is None:
                unfinished += 1
            elif r.void:
                voids += 1
            else:
                finished += 1
                lord_wins += r.winner == "landlord"
                totals += [0] * (len(r.scores) - len(totals))
                for s_, v in enumerate(r.scores):
                    totals[s_] += v
            if not verbose:
                continue
            head = f"{label}: seed {game.seed}"
            if game.redeals:
                head += f", {game.redeals} redeal{'s' if game.redeals > 1 else ''}"
            if r is None:
                print(head + f": not finished ({len(game.actions)} actions, phase {game.phase})")
            elif r.void:
                print(head + f": void ({r.void}), scores {' '.join('+0' for _ in r.scores)}")
            else:
                print(head + f": landlord seat {r.landlord} (base {r.base}), {r.winner} win, "
                      f"S = {r.score}, scores {' '.join(f'{v:+d}' for v in r.scores)}")
            if verbose < 2:
                continue
            d = game.deal.to_json()
            for s_, hand in enumerate(d["hands"]):
                print(f"  seat {s_}: {hand}")
            print(f"  bottom: {d['bottom']}")
            print("  " + ", ".join(f"{a['seat']}:{a['action']}" for a in game.to_record()["actions"]))
    finally:
        progress.close()
    total = finished + voids + unfinished
    rows = [("hands", f"{total} ({finished} played out, {voids} void, {unfinished} unfinished)"),
            ("redeals", f"{redeals}"),
            ("landlord wins", f"{lord_wins} of {finished}"),
            ("score totals", " ".join(f"seat {s_} {v:+d}" for s_, v in enumerate(totals))),
            ("engine", engine_note())]
    if matches:
        rows.insert(0, ("matches", f"{matches}"))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    print(f"{total} hand{'s' if total != 1 else ''} replayed and checked"
          + (f" ({matches} match{'es' if matches != 1 else ''})" if matches else ""))
    return 0
