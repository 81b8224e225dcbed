"""Regenerate the perft data files of this directory with the pure-Python reference.

    DDZ_NO_EXTENSIONS=1 PYTHONPATH=src python tests/perft/generate.py [FILE ...]

(all files, or only those named). Each data line is one position: ``deal=H0/H1/H2/BOTTOM``
(rank notation; four hands with ``players=4``), the ``landlord`` (who bid 3 as first
bidder, and did not play open), the ``kickers`` rule, optional ``players``, ``plays``
made from there (comma-separated notation), then ``D<depth> <nodes>`` for each depth,
as in chess perft (EPD) files. Depths are computed while the count stays below a node
budget, so that the reference can produce them in seconds.
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def line_for(rules, deal, landlord, plays, budget, max_depth):
    import ddz
    from ddz.game.perft import perft
    g = ddz.Game(rules, deal=deal, first_bidder=landlord)
    g.step(3)
    if g.phase.value == "opening":
        g.step(False)
    for p in plays:
        g.step(p)
    fields = [f"deal={'/'.join(deal)}", f"landlord={landlord}", f"kickers={rules.kickers}"]
    if rules.players != 3:
        fields.append(f"players={rules.players}")
    fields.append(f"plays={','.join(plays)}")
    depth = 1
    while depth <= max_depth:
        n = perft(g, depth)
        fields.append(f"D{depth} {n}")
        if n > budget:
            break
        depth += 1
    return "; ".join(fields)


def positions(seed_list, rules, midgame):
    """(deal, landlord, plays) from seeded deals; midgame positions after random plays."""
    import ddz
    from ddz.search.bots import RandomBot
    out = []
    for seed in seed_list:
        g = ddz.Game(rules, seed=seed)
        deal = tuple(ddz.format_cards(h) for h in g.deal.hands) + (ddz.format_cards(g.deal.bottom),)
        landlord = seed % rules.seats
        plays = []
        if midgame:
            g = ddz.Game(rules, deal=deal, first_bidder=landlord)
            g.step(3)
            if g.phase.value == "opening":
                g.step(False)
            bot = RandomBot(seed)
            for _ in range(midgame):
                p = bot.act(None, g.legal_actions())
                g.step(p)
                plays.append(str(p))
                if g.phase.value == "over":
                    plays.pop()
                    break
        out.append((deal, landlord, plays))
    return out


def main():
    sys.path.insert(0, os.path.join(HERE, "..", "..", "src"))
    os.environ["DDZ_NO_EXTENSIONS"] = "1"
    import ddz
    assert ddz.IMPLEMENTATION == "reference"
    stamp = time.strftime("%Y-%m-%d")
    files = {
        "opening.txt": [(ddz.STANDARD, positions(range(1, 6), ddz.STANDARD, 0), 60_000, 6),
                        (ddz.REPEAT_KICKERS, positions(range(6, 9), ddz.REPEAT_KICKERS, 0), 60_000, 6)],
        "midgame.txt": [(ddz.STANDARD, positions(range(20, 25), ddz.STANDARD, 18), 200_000, 10),
                        (ddz.REPEAT_KICKERS, positions(range(25, 28), ddz.REPEAT_KICKERS, 18), 200_000, 10)],
    }
    four = ddz.Rules.four_player()
    files["four_player.txt"] = [(four, positions(range(40, 44), four, 0), 40_000, 5),
                                (four, positions(range(44, 48), four, 24), 100_000, 8)]
    wanted = sys.argv[1:] or list(files)
    for name, groups in files.items():
        if name not in wanted:
            continue
        lines = [
            f"# ddz perft data ({name}): leaves of the play-phase legal-move tree (passes are plies).",
            "# Fields: deal=HAND0/HAND1/HAND2[/HAND3]/BOTTOM (rank notation); landlord (the first bidder,",
            "# who bids 3, and does not play open); kickers; players (when not 3); plays made before",
            "# counting; then 'D<depth> <nodes>'.",
            f"# Obtained {stamp} with the pure-Python reference (ddz.core.reference) by",
            "#   DDZ_NO_EXTENSIONS=1 PYTHONPATH=src python tests/perft/generate.py",
            "# The deals are those of ddz.Game(seed=N) for the seeds in generate.py.",
        ]
        for rules, pos, budget, max_depth in groups:
            for deal, landlord, plays in pos:
                lines.append(line_for(rules, deal, landlord, plays, budget, max_depth))
                print(lines[-1], flush=True)
        with open(os.path.join(HERE, name), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
