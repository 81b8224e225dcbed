#!/usr/bin/env node
// A bot of the ddz arena protocol (docs/protocol.md) in Node.js, standard library only:
// it plays a random legal action, drawn from the hand's seed so that a match is
// reproducible.
//
//     ddz arena "cmd:node examples/bots/random_bot.js" greedy --deals 100
//
// The seed is read from `seed_text`: JSON.parse turns the number `seed` into a double,
// which keeps only 53 bits of a seed that may have 63. process.stdout.write on a pipe
// writes at once (Node buffers nothing of its own), so every answer arrives as written.
"use strict";
const readline = require("readline");

const MASK = (1n << 64n) - 1n;
let state = 0n;

function next() {               // SplitMix64 over BigInt: 64-bit words, exactly
  state = (state + 0x9e3779b97f4a7c15n) & MASK;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    send({ type: "ready", protocol: 1, name: "random-js" });
  } else if (msg.type === "new_hand") {
    state = BigInt(msg.seed_text);
  } else if (msg.type === "act") {
    const pick = Number(next() % BigInt(msg.legal.length));
    send({ id: msg.id, action: msg.legal[pick] });
  } else if (msg.type === "quit") {
    lines.close();
  }
});
lines.on("close", () => process.exit(0));
