"""The learning curve of the shipped model's training run (issue 43) as a chart:

    python bench/plot_learning_curve.py docs/img/learning_curve.png

``POINTS`` are ``(frames, wp, low, high)`` per saved set of weights, as
``bench/train_curve.py FOLDER --deals 200 --seed 4301 --against douzero-rlcard`` printed them
(bench/README.md, "The shipped model"). Needs matplotlib."""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

POINTS = [(3059200, 0.598, 0.555, 0.639), (5059200, 0.672, 0.630, 0.712), (7060000, 0.640, 0.599, 0.679),
          (9060000, 0.675, 0.633, 0.714), (11060000, 0.677, 0.635, 0.717), (13060000, 0.705, 0.662, 0.744),
          (15060000, 0.690, 0.646, 0.731), (17060000, 0.698, 0.655, 0.737), (20548800, 0.713, 0.672, 0.750)]


def main(out: str) -> None:
    f = [p[0] / 1e6 for p in POINTS]
    wp = [p[1] for p in POINTS]
    err = [[p[1] - p[2] for p in POINTS], [p[3] - p[1] for p in POINTS]]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.errorbar(f, wp, yerr=err, marker="o", capsize=3, label="vs douzero-rlcard (200 deals each, 95% CI)")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.axhline(0.70, color="tab:red", lw=0.8, ls="--", label="issue 43 target 0.70")
    ax.set_xlabel("frames (millions, DouZero's count)")
    ax.set_ylabel("WP, douzero mode")
    ax.set_ylim(0.45, 0.85)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("ddz.train on one thread: WP against DouZero's rule bot", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "learning_curve.png")
