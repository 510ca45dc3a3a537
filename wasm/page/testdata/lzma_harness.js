// lzma_harness.js runs lzma.js under node for lzma_test.go: it reads a JSON
// list of cases on stdin and writes one JSON result per case on stdout.
// A case is {packed: base64, size, chunk, crc?, worker?}: the stream fed
// to the decoder chunk bytes at a time (0: all at once), or, with worker,
// to the worker's message handler as the page posts it. A result is
// {ok, length, crc, error, pieces}.
"use strict";
const fs = require("fs");
const vm = require("vm");
const path = require("path");
const source = fs.readFileSync(path.join(__dirname, "..", "lzma.js"), "utf8");
const { LZMADecoder, crc32 } = require(path.join(__dirname, "..", "lzma.js"));

function direct(c, packed) {
  const d = new LZMADecoder(c.size, packed.length);
  const step = c.chunk || packed.length || 1;
  if (packed.length === 0) d.run(true);
  for (let i = 0; i < packed.length; i += step) {
    const end = Math.min(packed.length, i + step);
    d.push(packed.subarray(i, end));
    d.run(end === packed.length);
  }
  if (!d.done) throw new Error("harness: not done");
  return { ok: true, length: d.pos, crc: crc32(0, d.out.subarray(0, d.pos)).toString(16).padStart(8, "0") };
}

// worker runs lzma.js as the page's worker does, in a context with a self
// and no module, and posts it the messages the page posts.
function worker(c, packed) {
  const got = [];
  const self = { postMessage: (m) => got.push(m) };
  vm.runInNewContext(source, { self, Uint8Array, Uint16Array, Int32Array, Math, Number, String, Boolean, Error });
  self.onmessage({ data: { size: c.size, inputSize: packed.length, crc: c.crc || "" } });
  const step = c.chunk || packed.length || 1;
  for (let i = 0; i < packed.length; i += step) {
    const piece = packed.slice(i, i + step);
    self.onmessage({ data: { chunk: piece } });
  }
  self.onmessage({ data: { end: true } });
  const parts = got.filter((m) => m.bytes).map((m) => new Uint8Array(m.bytes));
  const err = got.find((m) => m.error);
  if (err) return { ok: false, error: err.error, pieces: parts.length };
  if (!got.some((m) => m.done)) return { ok: false, error: "harness: no done", pieces: parts.length };
  let crc = 0, length = 0;
  for (const p of parts) { crc = crc32(crc, p); length += p.length; }
  return { ok: true, length, crc: crc.toString(16).padStart(8, "0"), pieces: parts.length };
}

const cases = JSON.parse(fs.readFileSync(0, "utf8"));
const out = [];
for (const c of cases) {
  const packed = new Uint8Array(Buffer.from(c.packed, "base64"));
  try {
    out.push(c.worker ? worker(c, packed) : direct(c, packed));
  } catch (e) {
    out.push({ ok: false, error: e instanceof Error ? e.message : "not an Error: " + String(e) });
  }
}
process.stdout.write(JSON.stringify(out));
