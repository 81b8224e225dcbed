// The page: two views (the puzzle solver and the replay viewer), chosen by ?view=.
import { initSolver } from "./solver.js";
import { initReplay } from "./replay.js";

const views = { solve: document.getElementById("solve-view"), replay: document.getElementById("replay-view") };
const steppers = {};

function show(view) {
  for (const [name, el] of Object.entries(views)) {
    el.hidden = name !== view;
    document.getElementById(`tab-${name}`).classList.toggle("current", name === view);
  }
  document.body.dataset.view = view;
}

for (const name of Object.keys(views)) {
  document.getElementById(`tab-${name}`).addEventListener("click", (ev) => {
    ev.preventDefault();
    const params = new URLSearchParams(location.search);
    params.set("view", name);
    history.pushState(null, "", "?" + params.toString());
    show(name);
  });
}
window.addEventListener("popstate", () => show(new URLSearchParams(location.search).get("view") || "solve"));

// ← and → step the visible view's line (not while typing)
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, textarea, select")) return;
  const stepper = steppers[document.body.dataset.view];
  if (!stepper) return;
  if (ev.key === "ArrowLeft") stepper.go(stepper.at - 1);
  else if (ev.key === "ArrowRight") stepper.go(stepper.at + 1);
});

const params = new URLSearchParams(location.search);
show(params.get("view") === "replay" ? "replay" : "solve");
steppers.solve = await initSolver(params);
steppers.replay = initReplay();
document.body.dataset.ready = "1";
