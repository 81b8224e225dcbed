// The replay viewer: open or paste records, the server replays and checks them, step
// through each hand's bids, doubles and plays, and see the score at the end.
import { card, hand, table } from "./cards.js";
import { Stepper, postJSON } from "./api.js";

const $ = (id) => document.getElementById(id);
let hands = [];
let current = null;
let stepper = null;

const FACTORS = [["bombs", "bombs"], ["rocket", "rocket"], ["spring", "spring"], ["anti_spring", "anti-spring"],
                 ["doubles", "doubles"], ["robs", "robs"], ["bottom_bonus", "bottom bonus"], ["open_play", "open play"]];

let opened = "";      // the text the hands came from: /api/lost_at reads it again
let asked = 0;        // the hand a lost-at answer belongs to (a later choice drops it)

async function open(text) {
  opened = text;
  asked++;
  $("replay-error").hidden = true;
  $("replay-status").textContent = "Replaying…";
  try {
    const ans = await postJSON("/api/replay", { text });
    hands = ans.hands;
    const sel = $("hand-select");
    sel.replaceChildren();
    hands.forEach((h, i) => sel.appendChild(new Option(`${h.label}: ${summary(h)}`, `${i}`)));
    $("replay-status").textContent = `${hands.length} hand${hands.length === 1 ? "" : "s"} replayed and checked.`;
    $("replay-panel").hidden = false;
    select(0);
  } catch (e) {
    $("replay-status").textContent = "";
    $("replay-error").textContent = e.message;
    $("replay-error").hidden = false;
    $("replay-panel").hidden = true;
  }
}

function summary(h) {
  const r = h.result;
  if (!r) return `not finished (${h.phase})`;
  if (r.void) return `void: ${r.void}`;
  return `landlord seat ${r.landlord}, ${r.winner} win, score ${r.score}`;
}

function select(i) {
  current = hands[i];
  $("hand-select").value = `${i}`;
  const h = current;
  // seed_text, never seed: JSON numbers are doubles here, which keep 53 bits of a 64-bit seed
  $("hand-summary").textContent = (h.seed_text === null ? "no seed" : `seed ${h.seed_text}`) +
    (h.deals.length > 1 ? `, ${h.deals.length - 1} redeal(s)` : "");
  const log = $("replay-log");
  log.replaceChildren();
  h.actions.forEach((a, k) => {
    const li = document.createElement("li");
    li.textContent = `seat ${a.seat} ${a.phase}: ${a.action}`;
    li.addEventListener("click", () => stepper.go(k + 1));
    log.appendChild(li);
  });
  $("lost-at").textContent = "";
  $("lost-at-run").disabled = !(h.seats === 3 && h.frames.some((f, k) => k && h.actions[k - 1].phase === "playing"));
  stepper.reset(h.frames.length);
}

// The open-card result along the hand (ddz.lost_at in a solver worker): the summary beside
// the record, and the move after which the result first changed marked in the log.
async function lostAt() {
  const i = Number($("hand-select").value);
  const mine = ++asked;
  $("lost-at").textContent = "Solving the open-card game after every play…";
  $("lost-at-run").disabled = true;
  try {
    const ans = await postJSON("/api/lost_at", { text: opened, hand: i });
    if (mine !== asked) return;
    if (ans.stopped) {
      $("lost-at").textContent = `Stopped (${ans.stopped}): no answer.`;
      return;
    }
    $("lost-at").textContent = ans.summary;
    const log = [...$("replay-log").children];
    const first = ans.first_span ? ans.first_span[1] : null;
    for (const m of ans.moves) {
      if (!m.move) continue;
      const li = log[ans.first_action + m.move - 1];
      if (!li) continue;
      li.title = m.landlord_wins === null ? "open-card result unknown" :
        `after it the ${m.landlord_wins ? "landlord" : "farmers"} win by best play`;
      if (first !== null && m.move === first && ans.first_span[0] === first) {
        li.classList.add("lost");
        const note = document.createElement("span");
        note.className = "note";
        note.textContent = "the result changed here";
        li.appendChild(note);
      }
    }
  } catch (e) {
    if (mine === asked) $("lost-at").textContent = e.message;
  } finally {
    if (mine === asked) $("lost-at-run").disabled = false;
  }
}

function drawFrame(k) {
  const h = current;
  const f = h.frames[k];
  const seats = f.hands.map((cards, i) => ({
    name: `Seat ${i}`,
    role: f.landlord === null ? (k === 0 && i === h.first_bidder ? "bids first" : "") : i === f.landlord ? "landlord" : "farmer",
    hand: cards, shown: f.shown[i], active: i === f.to_act,
  }));
  table($("replay-table"), seats);
  const bottom = document.createElement("div");
  bottom.className = "seat bottom";
  const label = document.createElement("div");
  label.className = "who";
  label.innerHTML = "<b>Bottom</b>";
  const cards = h.deals[f.deal].bottom;
  bottom.append(label, f.landlord === null ? backs(cards.length) : hand(cards, { small: true }));
  $("replay-table").appendChild(bottom);
  const n = h.actions.length;
  const a = k ? h.actions[k - 1] : null;
  const last = k === h.frames.length - 1;
  $("replay-label").textContent = (a ? `Action ${k} of ${n}: seat ${a.seat} ${describe(a)}` : `Deal ${f.deal + 1}: ${n} actions`) +
    (last && h.result ? ` — ${summary(h)}` : "");
  [...$("replay-log").children].forEach((li, i) => li.classList.toggle("current", i === k - 1));
  drawBreakdown(last ? h.result : null);
}

function describe(a) {
  if (a.phase === "playing") return a.action === "pass" ? "passes" : `plays ${a.action}`;
  if (a.phase === "bidding") return a.action === "pass" ? "passes the bid" : `bids ${a.action}`;
  return `${a.phase}: ${a.action}`;
}

function backs(n) {
  const span = hand(new Array(15).fill(0), { small: true });
  for (let i = 0; i < n; i++) span.appendChild(card("back"));
  return span;
}

function drawBreakdown(r) {
  const box = $("breakdown");
  box.hidden = !r;
  if (!r) return;
  box.replaceChildren();
  if (r.void) {
    box.textContent = `Void hand: ${r.void}. Every score is 0.`;
    return;
  }
  const t = document.createElement("table");
  t.className = "breakdown";
  const row = (k, v) => {
    const tr = t.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = v;
  };
  row("winner", `${r.winner} (landlord seat ${r.landlord})`);
  row("bid", r.breakdown.bid);
  for (const [key, name] of FACTORS) if (r.breakdown[key] !== 1) row(name, `×${r.breakdown[key]}`);
  row("multiplier", `×${r.multiplier}`);
  row("score S = bid × multiplier", r.score);
  row("by seat", r.scores.map((v, i) => `seat ${i}: ${v > 0 ? "+" : ""}${v}`).join(", "));
  box.appendChild(t);
}

export function initReplay() {
  stepper = new Stepper("replay", drawFrame);
  $("replay-open").addEventListener("click", () => open($("record-text").value));
  $("hand-select").addEventListener("change", () => { asked++; select(Number($("hand-select").value)); });
  $("lost-at-run").addEventListener("click", lostAt);
  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (!file) return;
    const text = await file.text();
    $("record-text").value = text.length <= 200000 ? text : "";
    open(text);
  });
  return stepper;
}
