"""``ddz serve``: the puzzle solver and the replay viewer in a browser (issue 28).

* :mod:`ddz.web.cards`: the SVG card drawing, the one component the page and
  :meth:`ddz.Game._repr_html_` draw cards with (standard library only);
* :mod:`ddz.web.api`: what each JSON API call does, without HTTP;
* :mod:`ddz.web.pool` and :mod:`ddz.web.worker`: the warm solver processes;
* :mod:`ddz.web.server`: the Starlette app (``create_app``); :mod:`ddz.web.cli`: the
  ``ddz serve`` command (uvicorn);
* ``static/``: the page (plain HTML, CSS and JavaScript modules, no build step).

Needs the ``web`` extra (``pip install "ddz[web]"``: Starlette and uvicorn) for the
server; ``import ddz`` never imports this package, and importing it imports neither.
"""
