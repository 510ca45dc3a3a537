// lzma.js decodes game.wasm.lzma, the game in LZMA (the .lzma format xz
// writes with --format=lzma), for a browser that gets neither brotli nor
// zstd: one on plain http at a LAN address or an invite's, where gzip is
// all it asks for and LZMA sends about a third fewer bytes. It runs as the
// page's worker: the page posts the compressed bytes as they arrive and
// gets the game's bytes back in pieces, which it compiles as they come
// (see index.html). Under node it exports the decoder, for the tests.
//
// The format, as this decoder reads it: a 13-byte header (one byte of
// lc/lp/pb, the dictionary's size, the decoded size or all ones when the
// stream ends with a marker), then one range-coded stream. The stream is a
// sequence of packets, each a literal byte or a match (a length and a
// distance back into what was decoded, or one of the last four distances
// again), coded bit by bit against adaptive probabilities chosen by what
// came before. Every read is checked: a corrupt or hostile stream ends in
// an Error naming what was wrong, never in a hang or a write out of bounds.
"use strict";

// The most a stream may decode to: game.wasm is about 15 MB.
const LZMA_MAX_SIZE = 256 << 20;

// Input the decoder keeps in hand before it decodes a packet while more is
// still to come: a packet reads far fewer bytes than this.
const LZMA_MARGIN = 256;

class LZMADecoder {
  // size is the decoded size the server states (X-Uncompressed-Length);
  // the header's must agree with it where the header states one.
  constructor(size, inputSize) {
    if (!(Number.isInteger(size) && size >= 0 && size <= LZMA_MAX_SIZE)) {
      throw new Error("lzma: decoded size " + size + " out of range");
    }
    this.size = size;
    this.out = new Uint8Array(size);
    this.in = new Uint8Array(Math.max(1024, Math.min(inputSize || 0, size + (size >>> 2) + 1024)));
    this.inLen = 0;   // bytes received
    this.inPos = 0;   // bytes read
    this.pos = 0;     // bytes decoded
    this.started = false;
    this.done = false;
  }

  // push adds received bytes, growing the buffer by half as it fills.
  push(chunk) {
    if (this.inLen + chunk.length > this.in.length) {
      const grown = new Uint8Array(Math.max(this.inLen + chunk.length, this.in.length * 1.5 | 0));
      grown.set(this.in.subarray(0, this.inLen));
      this.in = grown;
    }
    this.in.set(chunk, this.inLen);
    this.inLen += chunk.length;
  }

  // run decodes what the input received so far allows, all of it when
  // last (the input is complete). It returns how many bytes are decoded;
  // this.done says the stream ended.
  run(last) {
    if (this.done) return this.pos;
    if (!this.started) {
      if (this.inLen < 18) {
        if (last) throw new Error("lzma: truncated header");
        return 0;
      }
      this.header();
    }
    this.decode(last);
    return this.pos;
  }

  header() {
    const b = this.in;
    let p = b[0];
    if (p >= 9 * 5 * 5) throw new Error("lzma: bad properties byte " + p);
    this.lc = p % 9; p = (p / 9) | 0;
    this.lp = p % 5;
    this.pb = (p / 5) | 0;
    this.dict = (b[1] | b[2] << 8 | b[3] << 16 | b[4] << 24) >>> 0;
    let known = false;
    for (let i = 5; i < 13; i++) if (b[i] !== 0xff) known = true;
    if (known) {
      if (b[11] !== 0 || b[12] !== 0) throw new Error("lzma: decoded size too large");
      const n = b[5] + b[6] * 2 ** 8 + b[7] * 2 ** 16 + b[8] * 2 ** 24 + b[9] * 2 ** 32 + b[10] * 2 ** 40;
      if (n !== this.size) throw new Error("lzma: the header says " + n + " bytes, the server " + this.size);
    }
    this.knownSize = known;
    if (b[13] !== 0) throw new Error("lzma: the range coder's first byte is not 0");
    this.range = 0xffffffff;
    this.code = (b[14] * 2 ** 24 + (b[15] << 16 | b[16] << 8 | b[17])) >>> 0;
    if (this.code === this.range) throw new Error("lzma: bad range coder start");
    this.inPos = 18;
    // The probabilities, each 11 bits, all starting at a half.
    this.probs = new Uint16Array(PROBS + (0x300 << (this.lc + this.lp))).fill(1024);
    this.state = 0;
    this.rep0 = this.rep1 = this.rep2 = this.rep3 = 0;
    this.started = true;
  }

  // bit decodes one bit against the probability at probs[i], adapting it.
  bit(i) {
    const probs = this.probs;
    const p = probs[i];
    const bound = (this.range >>> 11) * p;
    let b;
    if (this.code < bound) {
      this.range = bound;
      probs[i] = p + ((2048 - p) >>> 5);
      b = 0;
    } else {
      this.range -= bound;
      this.code -= bound;
      probs[i] = p - (p >>> 5);
      b = 1;
    }
    if (this.range < 0x1000000) {
      this.range = this.range * 256;
      this.code = this.code * 256 + this.in[this.inPos++];
    }
    return b;
  }

  // direct decodes n bits of even odds, most significant first.
  direct(n) {
    let v = 0;
    for (; n > 0; n--) {
      this.range = Math.floor(this.range / 2);
      let b = 0;
      if (this.code >= this.range) {
        this.code -= this.range;
        b = 1;
      }
      v = v * 2 + b;
      if (this.range < 0x1000000) {
        this.range = this.range * 256;
        this.code = this.code * 256 + this.in[this.inPos++];
      }
    }
    return v;
  }

  // tree decodes n bits, most significant first, each against the
  // probability its prefix picks among those from base.
  tree(base, n) {
    let m = 1;
    for (let i = 0; i < n; i++) m = (m << 1) | this.bit(base + m);
    return m - (1 << n);
  }

  // reverseTree is tree with the bits least significant first.
  reverseTree(base, n) {
    let m = 1, v = 0;
    for (let i = 0; i < n; i++) {
      const b = this.bit(base + m);
      m = (m << 1) | b;
      v |= b << i;
    }
    return v;
  }

  // length decodes a match's length less 2 with the coder at base.
  length(base, posState) {
    if (this.bit(base + LEN_CHOICE) === 0) return this.tree(base + LEN_LOW + (posState << 3), 3);
    if (this.bit(base + LEN_CHOICE2) === 0) return 8 + this.tree(base + LEN_MID + (posState << 3), 3);
    return 16 + this.tree(base + LEN_HIGH, 8);
  }

  // distance decodes a match's distance less 1 for a length (less 2) of len.
  distance(len) {
    const slot = this.tree(POS_SLOT + (Math.min(len, 3) << 6), 6);
    if (slot < 4) return slot;
    const n = (slot >>> 1) - 1;
    const base = (2 | (slot & 1)) * 2 ** n;
    if (slot < 14) return base + this.reverseTree(SPEC_POS + base - slot, n);
    return base + this.direct(n - 4) * 16 + this.reverseTree(ALIGN, 4);
  }

  decode(last) {
    const out = this.out, size = this.size;
    const pbMask = (1 << this.pb) - 1, lpMask = (1 << this.lp) - 1, lc = this.lc;
    let pos = this.pos, state = this.state;
    let rep0 = this.rep0, rep1 = this.rep1, rep2 = this.rep2, rep3 = this.rep3;
    for (;;) {
      if (!last && this.inPos + LZMA_MARGIN > this.inLen) break;
      if (this.inPos > this.inLen) throw new Error("lzma: truncated stream");
      if (pos === size && this.knownSize) {
        this.done = true;
        break;
      }
      const posState = pos & pbMask;
      if (this.bit(IS_MATCH + (state << 4) + posState) === 0) {
        if (pos === size) throw new Error("lzma: more than the " + size + " bytes stated");
        const prev = pos > 0 ? out[pos - 1] : 0;
        const lit = LITERAL + 0x300 * (((pos & lpMask) << lc) + (prev >>> (8 - lc)));
        let sym = 1;
        if (state >= 7) {
          let match = out[pos - rep0 - 1];
          do {
            const mb = (match >>> 7) & 1;
            match <<= 1;
            const b = this.bit(lit + ((1 + mb) << 8) + sym);
            sym = (sym << 1) | b;
            if (mb !== b) break;
          } while (sym < 0x100);
        }
        while (sym < 0x100) sym = (sym << 1) | this.bit(lit + sym);
        out[pos++] = sym - 0x100;
        state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
        continue;
      }
      let len;
      if (this.bit(IS_REP + state) === 0) {
        rep3 = rep2; rep2 = rep1; rep1 = rep0;
        len = this.length(LEN_CODER, posState);
        state = state < 7 ? 7 : 10;
        rep0 = this.distance(len);
        if (rep0 === 0xffffffff) {
          if (this.inPos > this.inLen) throw new Error("lzma: truncated stream");
          if (pos !== size) throw new Error("lzma: ended after " + pos + " of " + size + " bytes");
          this.done = true;
          break;
        }
        if (rep0 >= pos || rep0 >= Math.max(this.dict, 4096)) {
          throw new Error("lzma: a match " + (rep0 + 1) + " bytes back at byte " + pos);
        }
      } else {
        if (pos === 0) throw new Error("lzma: a repeated match before any byte");
        if (this.bit(IS_REP_G0 + state) === 0) {
          if (this.bit(IS_REP0_LONG + (state << 4) + posState) === 0) {
            if (pos === size) throw new Error("lzma: more than the " + size + " bytes stated");
            state = state < 7 ? 9 : 11;
            out[pos] = out[pos - rep0 - 1];
            pos++;
            continue;
          }
        } else {
          let d;
          if (this.bit(IS_REP_G1 + state) === 0) {
            d = rep1;
          } else {
            if (this.bit(IS_REP_G2 + state) === 0) {
              d = rep2;
            } else {
              d = rep3;
              rep3 = rep2;
            }
            rep2 = rep1;
          }
          rep1 = rep0;
          rep0 = d;
        }
        len = this.length(REP_LEN_CODER, posState);
        state = state < 7 ? 8 : 11;
      }
      len += 2;
      if (len > size - pos) throw new Error("lzma: a match past the " + size + " bytes stated");
      let from = pos - rep0 - 1;
      if (rep0 + 1 >= len) {
        out.copyWithin(pos, from, from + len);
        pos += len;
      } else {
        for (const end = pos + len; pos < end;) out[pos++] = out[from++];
      }
    }
    this.pos = pos; this.state = state;
    this.rep0 = rep0; this.rep1 = rep1; this.rep2 = rep2; this.rep3 = rep3;
    if (last && !this.done) throw new Error("lzma: truncated stream");
  }
}

// Where each group of probabilities starts in the one array.
const IS_MATCH = 0;                      // 12 states x 16 position states
const IS_REP = IS_MATCH + 192;           // 12
const IS_REP_G0 = IS_REP + 12;
const IS_REP_G1 = IS_REP_G0 + 12;
const IS_REP_G2 = IS_REP_G1 + 12;
const IS_REP0_LONG = IS_REP_G2 + 12;     // 12 x 16
const POS_SLOT = IS_REP0_LONG + 192;     // 4 length states x 64 slots
const SPEC_POS = POS_SLOT + 256;         // distances 4..127: 114 (+1)
const ALIGN = SPEC_POS + 115;            // 16
const LEN_CHOICE = 0, LEN_CHOICE2 = 1, LEN_LOW = 2, LEN_MID = 2 + 128, LEN_HIGH = 2 + 256;
const LEN_SIZE = LEN_HIGH + 256;
const LEN_CODER = ALIGN + 16;
const REP_LEN_CODER = LEN_CODER + LEN_SIZE;
const LITERAL = REP_LEN_CODER + LEN_SIZE; // 0x300 per literal state
const PROBS = LITERAL;

// crc32 continues the IEEE CRC-32 crc (0 to start) over bytes.
const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();
function crc32(crc, bytes) {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

// As the page's worker: {size, inputSize, crc} first (the decoded size
// and CRC-32 the server states, crc in 8 hex digits or "" for none), then
// {chunk} for each piece of the download and {end: true} after the last.
// It answers with {bytes} for each piece decoded (a quarter of a megabyte
// or more), then {done: true}, or {error} once; the last piece goes only
// once the CRC-32 of all of them is the one stated.
if (typeof self !== "undefined" && typeof self.postMessage === "function" && typeof module === "undefined") {
  let dec = null, want = "", crc = 0, sent = 0, failed = false;
  const post = (end) => {
    const piece = dec.out.slice(sent, end);
    sent = end;
    crc = crc32(crc, piece);
    return piece;
  };
  self.onmessage = (e) => {
    if (failed) return;
    const m = e.data;
    try {
      if (dec === null) {
        dec = new LZMADecoder(m.size, m.inputSize);
        want = String(m.crc || "").toLowerCase();
        return;
      }
      if (m.chunk) dec.push(new Uint8Array(m.chunk.buffer || m.chunk, m.chunk.byteOffset || 0, m.chunk.byteLength));
      dec.run(Boolean(m.end));
      if (!dec.done) {
        if (dec.pos - sent >= (256 << 10)) {
          const piece = post(dec.pos);
          self.postMessage({ bytes: piece.buffer }, [piece.buffer]);
        }
        return;
      }
      const piece = post(dec.pos);
      const got = crc.toString(16).padStart(8, "0");
      if (want && got !== want) throw new Error("lzma: decoded bytes have CRC-32 " + got + ", the server states " + want);
      self.postMessage({ bytes: piece.buffer }, [piece.buffer]);
      self.postMessage({ done: true });
    } catch (err) {
      failed = true;
      self.postMessage({ error: String(err && err.message || err) });
    }
  };
}

if (typeof module !== "undefined") module.exports = { LZMADecoder, LZMA_MAX_SIZE, crc32 };
