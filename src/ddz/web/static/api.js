// POST a JSON body to the server's API; the answer's JSON, or an Error carrying the
// server's message (a DdzError's own words for bad input).
export async function postJSON(path, body, signal) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = { error: `the server answered ${res.status} ${res.statusText}` };
  }
  if (!res.ok) {
    const err = new Error(data.error || `HTTP ${res.status}`);
    err.status = res.status;
    err.type = data.type;
    throw err;
  }
  return data;
}

// Step through frames with four buttons, the arrow keys and a label.
export class Stepper {
  constructor(prefix, render) {
    this.render = render;
    this.count = 0;
    this.at = 0;
    for (const [name, fn] of [["start", () => 0], ["back", (i) => i - 1], ["next", (i) => i + 1],
                              ["end", () => this.count - 1]]) {
      document.getElementById(`${prefix}-${name}`).addEventListener("click", () => this.go(fn(this.at)));
    }
  }
  reset(count, at = 0) {
    this.count = count;
    this.go(at);
  }
  go(i) {
    if (!this.count) return;
    this.at = Math.max(0, Math.min(this.count - 1, i));
    this.render(this.at);
  }
}
