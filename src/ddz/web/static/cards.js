// The card drawing of the page: every card is a <use> of a symbol that the server put
// into the page from ddz.web.cards.sprite(), the same faces Game._repr_html_ draws.

export const RANKS = "3456789TJQKA2BR";
const NS = "http://www.w3.org/2000/svg";
const NAMES = { T: "10", B: "small joker", R: "big joker", back: "card face down" };

// One card: <svg class="ddz-card" data-rank="Q"><use href="#ddz-card-Q"/></svg>.
export function card(rank, extraClass = "") {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", ("ddz-card " + extraClass).trim());
  svg.setAttribute("viewBox", "0 0 50 70");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", NAMES[rank] || rank);
  svg.dataset.rank = rank;
  const use = document.createElementNS(NS, "use");
  use.setAttribute("href", "#ddz-card-" + rank);
  svg.appendChild(use);
  return svg;
}

// 15 counts of card notation, for drawing while someone types (the server reads the
// notation for real): ranks 3-9, 10 or T, J, Q, K, A, 2, B/R (or 小王/大王), any case;
// spaces, commas and + are skipped. null for anything else.
export function parseCards(text) {
  const counts = new Array(15).fill(0);
  const s = text.replace(/小王/g, "B").replace(/大王/g, "R").replace(/10/g, "T").toUpperCase();
  for (const ch of s) {
    if (" \t,+-".includes(ch)) continue;
    const r = RANKS.indexOf(ch);
    if (r < 0) return null;
    counts[r] += 1;
  }
  return counts;
}

export function formatCounts(counts) {
  return counts.map((n, r) => RANKS[r].repeat(n)).join("");
}

// A hand (notation or counts) as a row of overlapping cards; onClick(rank) on a click.
export function hand(cards, { small = false, onClick = null } = {}) {
  const counts = typeof cards === "string" ? (parseCards(cards) || new Array(15).fill(0)) : cards;
  const row = document.createElement("span");
  row.className = "hand" + (small ? " small" : "");
  counts.forEach((n, r) => {
    for (let i = 0; i < n; i++) {
      const c = card(RANKS[r]);
      if (onClick) {
        c.classList.add("clickable");
        c.addEventListener("click", () => onClick(RANKS[r]));
      }
      row.appendChild(c);
    }
  });
  return row;
}

// A seat's part of the trick, a bid or a double: a play drawn small, anything else as text.
export function shown(text) {
  const span = document.createElement("span");
  span.className = "shown";
  if (text == null) return span;
  const counts = /^[3-9TJQKA2BR+]+$/.test(text) ? parseCards(text) : null;
  if (counts) span.appendChild(hand(counts, { small: true }));
  else span.textContent = text;
  return span;
}

// The table: a row per seat with its role, cards left, hand and what it last did.
// seats: [{name, role, hand, shown, active}]
export function table(container, seats) {
  container.replaceChildren();
  for (const s of seats) {
    const row = document.createElement("div");
    row.className = "seat" + (s.active ? " active" : "");
    const who = document.createElement("div");
    who.className = "who";
    const left = s.hand ? (parseCards(s.hand) || []).reduce((a, b) => a + b, 0) : 0;
    who.innerHTML = `<b></b><span class="role"></span><span class="left"></span>`;
    who.children[0].textContent = s.name;
    who.children[1].textContent = s.role || "";
    who.children[2].textContent = `${left} card${left === 1 ? "" : "s"}`;
    row.append(who, hand(s.hand || ""), shown(s.shown));
    container.appendChild(row);
  }
}
