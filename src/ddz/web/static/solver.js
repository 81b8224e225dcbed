// The puzzle solver: set up a position (cards, notation or a Position string), solve it
// on the server, show who wins, every winning first move and the line, move by move.
import { RANKS, card, formatCounts, hand, parseCards, table } from "./cards.js";
import { Stepper, postJSON } from "./api.js";

const $ = (id) => document.getElementById(id);
const DECK = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1];
const FIELDS = ["landlord", "to_move", "to_beat", "last"];   // what the form edits; other fields kept as text

const state = { seats: 2, hands: ["", "", ""], landlord: 0, toMove: 0, toBeat: "", last: 1,
                extra: [], active: 0 };
let controller = null;
let answer = null;
let stepper = null;

// -- the position as text (ddz.Position's text form) ---------------------------------
function positionText() {
  const hands = state.hands.slice(0, state.seats).map((h) => h.replace(/\s+/g, "") || "-");
  const parts = [hands.join("/")];
  if (state.landlord !== 0) parts.push(`landlord=${state.landlord}`);
  if (state.toMove !== state.landlord) parts.push(`to_move=${state.toMove}`);
  if (state.toBeat.trim()) parts.push(`to_beat=${state.toBeat.replace(/\s+/g, "")}`, `last=${state.last}`);
  return parts.concat(state.extra).join(" ");
}

function loadText(text) {
  const words = text.trim().split(/\s+/);
  if (!words[0]) return;
  const hands = words[0].split("/").map((h) => (h === "-" ? "" : h));
  state.seats = hands.length === 3 ? 3 : 2;
  state.hands = [0, 1, 2].map((i) => hands[i] || "");
  const kv = {};
  state.extra = [];
  for (const w of words.slice(1)) {
    const [k, v] = w.split("=", 2);
    if (FIELDS.includes(k)) kv[k] = v;
    else if (k === "kickers" && v === "repeat" && $("rules").value === "standard") $("rules").value = "repeat";
    else state.extra.push(w);
  }
  state.landlord = Number(kv.landlord || 0) % state.seats;
  state.toMove = kv.to_move !== undefined ? Number(kv.to_move) % state.seats : state.landlord;
  state.toBeat = kv.to_beat || "";
  state.last = kv.last !== undefined ? Number(kv.last) % state.seats : (state.toMove + state.seats - 1) % state.seats;
  state.active = 0;
  render();
}

function shareURL() {
  const params = new URLSearchParams({ view: "solve", position: positionText() });
  if ($("rules").value !== "standard") params.set("rules", $("rules").value);
  if ($("score").checked) params.set("score", "1");
  return "?" + params.toString();
}

// -- the setup form ---------------------------------------------------------------------
function render() {
  for (const input of document.querySelectorAll('input[name="seats"]')) input.checked = Number(input.value) === state.seats;
  const body = $("seats").tBodies[0];
  body.replaceChildren();
  for (let i = 0; i < state.seats; i++) {
    const tr = document.createElement("tr");
    tr.dataset.seat = i;
    tr.className = i === state.active ? "active" : "";
    tr.innerHTML = `<th>Seat ${i}</th>
      <td><input type="radio" name="landlord" value="${i}" id="landlord-${i}" aria-label="seat ${i} is the landlord"></td>
      <td><input type="radio" name="to-move" value="${i}" id="to-move-${i}" aria-label="seat ${i} moves"></td>
      <td class="hand-cell"><input class="hand-input" id="hand-${i}" spellcheck="false" aria-label="hand of seat ${i}">
          <span class="cards" id="cards-${i}"></span></td>`;
    body.appendChild(tr);
    const input = tr.querySelector(".hand-input");
    input.value = state.hands[i];
    input.addEventListener("input", () => { state.hands[i] = input.value; drawSeat(i); update(); });
    input.addEventListener("focus", () => setActive(i));
    tr.addEventListener("click", () => setActive(i));
    tr.querySelector(`#landlord-${i}`).checked = state.landlord === i;
    tr.querySelector(`#landlord-${i}`).addEventListener("change", () => { state.landlord = i; update(); });
    tr.querySelector(`#to-move-${i}`).checked = state.toMove === i;
    tr.querySelector(`#to-move-${i}`).addEventListener("change", () => { state.toMove = i; update(); });
    drawSeat(i);
  }
  $("to-beat").value = state.toBeat;
  update();
}

function setActive(i) {
  state.active = i;
  for (const tr of $("seats").tBodies[0].rows) tr.classList.toggle("active", Number(tr.dataset.seat) === i);
  $("active-seat").textContent = i;
}

function drawSeat(i) {
  const counts = parseCards(state.hands[i]);
  const input = $(`hand-${i}`);
  input.classList.toggle("invalid", counts === null);
  const holder = $(`cards-${i}`);
  holder.replaceChildren();
  if (counts) {
    holder.appendChild(hand(counts, { onClick: (rank) => {
      const c = parseCards(state.hands[i]);
      c[RANKS.indexOf(rank)] -= 1;
      state.hands[i] = formatCounts(c);
      input.value = state.hands[i];
      drawSeat(i);
      update();
    } }));
  }
}

function used() {
  const total = new Array(15).fill(0);
  for (const h of state.hands.slice(0, state.seats).concat([state.toBeat])) {
    const c = parseCards(h);
    if (c) c.forEach((n, r) => (total[r] += n));
  }
  return total;
}

function drawPalette() {
  const left = used().map((n, r) => DECK[r] - n);
  const pal = $("palette");
  pal.replaceChildren();
  RANKS.split("").forEach((rank, r) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pick";
    b.dataset.rank = rank;
    b.disabled = left[r] <= 0;
    b.title = `${left[r]} left`;
    b.append(card(rank), Object.assign(document.createElement("small"), { textContent: `×${Math.max(0, left[r])}` }));
    b.addEventListener("click", () => {
      const i = state.active;
      const c = parseCards(state.hands[i]);
      if (!c) return;
      c[r] += 1;
      state.hands[i] = formatCounts(c);
      $(`hand-${i}`).value = state.hands[i];
      drawSeat(i);
      update();
    });
    pal.appendChild(b);
  });
}

function update() {
  const sel = $("last-player");
  sel.replaceChildren();
  for (let i = 0; i < state.seats; i++) {
    if (i === state.toMove) continue;
    sel.appendChild(new Option(`${i}`, `${i}`, false, i === state.last));
  }
  if (state.last === state.toMove || state.last >= state.seats) state.last = Number(sel.options[0].value);
  sel.value = `${state.last}`;
  sel.disabled = !state.toBeat.trim();
  $("position-text").value = positionText();
  $("share").href = shareURL();
  setActive(Math.min(state.active, state.seats - 1));
  drawPalette();
}

// -- solving ---------------------------------------------------------------------------
function setStatus(text, kind = "") {
  const s = $("status");
  s.textContent = text;
  s.className = kind;
}

async function solve() {
  if (controller) return;
  const t0 = performance.now();
  const seconds = parseFloat($("time-limit").value);
  const body = { position: positionText(), rules: $("rules").value, score: $("score").checked, all_moves: true };
  if (seconds > 0) body.time_limit = seconds;
  controller = new AbortController();
  $("solve").disabled = true;
  $("cancel").disabled = false;
  document.body.dataset.solving = "1";
  setStatus("Solving…");
  const ticker = setInterval(() => setStatus(`Solving… ${((performance.now() - t0) / 1000).toFixed(1)} s`), 250);
  history.replaceState(null, "", shareURL());
  try {
    const ans = await postJSON("/api/solve", body, controller.signal);
    showAnswer(ans);
    const ms = performance.now() - t0;
    window.ddzTiming = { roundTripMs: ms, searchSeconds: ans.seconds };
    if (ans.exact) setStatus(`Solved in ${Math.round(ms)} ms (search ${(ans.seconds * 1000).toFixed(0)} ms, ${ans.nodes.toLocaleString()} positions).`);
    else setStatus(`No answer: the ${ans.stopped} stopped the search.`, "error");
  } catch (e) {
    if (e.name === "AbortError") setStatus("Cancelled: the search was stopped.", "cancelled");
    else setStatus(e.message, "error");
  } finally {
    clearInterval(ticker);
    controller = null;
    $("solve").disabled = false;
    $("cancel").disabled = true;
    delete document.body.dataset.solving;
  }
}

function seatName(ans, i) {
  return `Seat ${i} (${i === ans.landlord ? "landlord" : "farmer"})`;
}

function showAnswer(ans) {
  answer = ans;
  const el = $("answer");
  el.dataset.exact = ans.exact;
  el.dataset.win = ans.win;
  el.dataset.landlordWins = ans.landlord_wins;
  if (!ans.exact) {
    el.textContent = ans.stopped === "cancelled" ? "Cancelled: no answer."
      : `No answer: the ${ans.stopped} (${ans.time_limit} s) stopped the search` +
        (ans.nodes ? ` after ${ans.nodes.toLocaleString()} positions.` : ".") + " Try a longer time limit.";
  } else {
    const winner = ans.landlord_wins ? `The landlord (seat ${ans.landlord}) wins`
      : ans.seats === 2 ? `The farmer (seat ${1 - ans.landlord}) wins` : "The farmers win";
    let text = `${winner}: seat ${ans.to_move}, to move, ${ans.win ? "wins" : "loses"} with best play.`;
    if (ans.value !== null) text += ` Score ${ans.value > 0 ? "+" : ""}${ans.value} for the landlord (by seat: ${ans.scores.map((v) => (v > 0 ? "+" : "") + v).join(", ")}).`;
    el.textContent = text;
  }
  $("moves-title").textContent = ans.value !== null ? "Best first moves:" : "Winning first moves:";
  const moves = $("moves");
  moves.replaceChildren();
  if (ans.exact && !ans.moves.length) moves.textContent = "none: every move loses";
  for (const m of ans.moves) {
    const chip = document.createElement("span");
    chip.className = "chip";
    chip.textContent = m;
    moves.appendChild(chip);
  }
  const list = $("line-moves");
  list.replaceChildren();
  ans.line.forEach((step, k) => {
    const li = document.createElement("li");
    li.textContent = `seat ${step.seat}: ${step.move}`;
    li.addEventListener("click", () => stepper.go(k + 1));
    list.appendChild(li);
  });
  $("answer-panel").hidden = false;
  stepper.reset(ans.exact ? ans.line.length + 1 : 1);
}

function drawFrame(k) {
  const ans = answer;
  const step = k ? ans.line[k - 1] : null;
  const hands = step ? step.hands : ans.hands;
  const trick = step ? step.trick : initialTrick(ans);
  const toMove = step ? (step.seat + 1) % ans.seats : ans.to_move;
  const over = hands.some((h) => !h);
  table($("line-table"), hands.map((h, i) => ({
    name: `Seat ${i}`, role: i === ans.landlord ? "landlord" : "farmer", hand: h, shown: trick[i],
    active: !over && i === toMove,
  })));
  const n = ans.line.length;
  $("line-label").textContent = !step ? `Start: seat ${ans.to_move} to move (${n} moves in the line)`
    : `Move ${k} of ${n}: seat ${step.seat} ${step.move === "pass" ? "passes" : "plays " + step.move}` +
      (over ? ` and goes out: ${ans.landlord_wins ? "the landlord wins" : "the farmers win"}` : "");
  [...$("line-moves").children].forEach((li, i) => li.classList.toggle("current", i === k - 1));
}

function initialTrick(ans) {
  const trick = new Array(ans.seats).fill(null);
  const m = /(?:^|\s)to_beat=(\S+)\s+last=(\d)/.exec(ans.position);
  if (m) trick[Number(m[2])] = m[1];
  return trick;
}

export async function initSolver(params) {
  const info = await fetch("/api/info").then((r) => r.json());
  for (const name of info.presets) $("rules").appendChild(new Option(name, name));
  $("time-limit").max = info.time_limit;
  $("time-limit").value = Math.min(10, info.time_limit);
  if (params.get("rules") && info.presets.includes(params.get("rules"))) $("rules").value = params.get("rules");
  $("score").checked = params.get("score") === "1";
  stepper = new Stepper("line", drawFrame);
  for (const input of document.querySelectorAll('input[name="seats"]')) {
    input.addEventListener("change", () => {
      state.seats = Number(input.value);
      if (state.landlord >= state.seats) state.landlord = 0;
      if (state.toMove >= state.seats) state.toMove = state.landlord;
      render();
    });
  }
  $("to-beat").addEventListener("input", () => { state.toBeat = $("to-beat").value; update(); });
  $("last-player").addEventListener("change", () => { state.last = Number($("last-player").value); update(); });
  $("rules").addEventListener("change", update);
  $("score").addEventListener("change", update);
  $("position-load").addEventListener("click", () => loadText($("position-text").value));
  $("position-text").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); loadText($("position-text").value); }
  });
  $("setup").addEventListener("submit", (ev) => { ev.preventDefault(); solve(); });
  $("cancel").addEventListener("click", () => controller && controller.abort());
  loadText(params.get("position") || "RAQQJJT999844/B22AAT886633");
  return stepper;
}
