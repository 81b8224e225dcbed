"""``ddz arena plot`` (issue 40): a result drawn as PNG and SVG, format 1 files too, and
the errors (another extension; matplotlib missing is a clear error, not a traceback)."""

import pathlib

import pytest

import ddz
import ddz.arena
from ddz.arena import ArenaResult
from ddz.cli import main

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"


def test_plot_png_and_svg(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from ddz.arena.plot import figure
    path = str(tmp_path / "r.json")
    ddz.arena.run(["greedy", "random"], deals=35, seed=1, mode="game", sprt="0,100", save=path)
    png, svg = tmp_path / "chart.png", tmp_path / "chart.svg"
    assert main(["arena", "plot", path, "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert main(["arena", "plot", str(DATA / "arena_result_v2.json"), "-o", str(svg)]) == 0
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "greedy" in text
    fig = figure(ArenaResult.load(path))
    titles = [ax.get_title() for ax in fig.axes]
    assert any(t.startswith("SPRT of greedy against random") for t in titles)
    old = figure(ArenaResult.load(str(DATA / "arena_result_v1.json")))      # format 1: no deal values
    assert len(old.axes) >= 4


def test_plot_errors(tmp_path, monkeypatch, capsys):
    r = ArenaResult.load(str(DATA / "arena_result_v2.json"))
    from ddz.arena import plot as arena_plot
    with pytest.raises(ddz.DdzError, match=".png or .svg"):
        arena_plot.plot(r, str(tmp_path / "chart.pdf"))

    def missing():
        raise ddz.DdzError('ddz arena plot needs matplotlib: pip install "ddz[plot]"')
    monkeypatch.setattr(arena_plot, "_matplotlib", missing)
    assert main(["arena", "plot", str(DATA / "arena_result_v2.json"), "-o", str(tmp_path / "c.png")]) == 2
    assert "ddz[plot]" in capsys.readouterr().err
