// AssemblyScript source of the proof-of-work kernel (src/jobs/mining/pow-kernel.wasm, built by
// `pnpm --filter @rootline/chain-miner build:kernel`; see docs/adr/065-pow-wasm-kernel.md).
// It searches SHA-256(prefix + decimal nonce) over a range of nonces in one call: the prefix's full 64-byte
// blocks are compressed once (the midstate), then each nonce costs the compression of the tail block(s) only.
// Four nonces are hashed at once, one per 32-bit lane of a 128-bit SIMD vector.

// Scratch memory below --memoryBase (16384), where the compiler places no static data.
const K_PTR: usize = 0; // the 64 round constants, each splatted over 4 lanes
const W_PTR: usize = 1024; // message schedule of the first tail block (and of the prefix blocks), 64 vectors
const MID_PTR: usize = 2048; // midstate, 8 vectors
const PRE_PTR: usize = 2176; // working state after the first tail block's rounds that see no digit, 8 vectors
const OUT_PTR: usize = 2688; // state after the tail, 8 vectors
const LANE_PTR: usize = 2816; // each lane's tail bytes (up to 2 blocks), 128 bytes per lane
const LANE_SIZE: usize = 128;
/** Where the caller writes the message `prefix + first nonce` (UTF-8), at most INPUT_CAPACITY bytes. */
const INPUT_PTR: usize = 4096;
const INPUT_CAPACITY: i32 = 8192;
const W2_PTR: usize = 12288; // message schedule of a second tail block, 64 vectors

const K_DATA = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const H_DATA = memory.data<u32>([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

for (let i: usize = 0; i < 64; i++) v128.store(K_PTR + (i << 4), i32x4.splat(load<u32>(K_DATA + (i << 2))));

export function inputOffset(): usize {
  return INPUT_PTR;
}

export function inputCapacity(): i32 {
  return INPUT_CAPACITY;
}

function rotr(x: v128, n: i32): v128 {
  return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n));
}

/** Extends the 16 words at `w` to the 64 of the message schedule, 4 lanes. */
function expand(w: usize): void {
  for (let i: usize = 16; i < 64; i++) {
    const w15 = v128.load(w + ((i - 15) << 4));
    const w2 = v128.load(w + ((i - 2) << 4));
    const s0 = v128.xor(v128.xor(rotr(w15, 7), rotr(w15, 18)), i32x4.shr_u(w15, 3));
    const s1 = v128.xor(v128.xor(rotr(w2, 17), rotr(w2, 19)), i32x4.shr_u(w2, 10));
    const next = i32x4.add(i32x4.add(v128.load(w + ((i - 16) << 4)), s0), i32x4.add(v128.load(w + ((i - 7) << 4)), s1));
    v128.store(w + (i << 4), next);
  }
}

/**
 * SHA-256 rounds [first, last) (multiples of 8) over the schedule at `w`, from the working state at `from`, 4 lanes. With
 * `chain`, the result is added to that chaining value (a finished compression); without, it is the working
 * state after round `last - 1`. `to` may equal `from` or `chain`.
 */
function rounds(w: usize, from: usize, to: usize, first: usize, last: usize, chain: usize, add: bool): void {
  let a = v128.load(from);
  let b = v128.load(from, 16);
  let c = v128.load(from, 32);
  let d = v128.load(from, 48);
  let e = v128.load(from, 64);
  let f = v128.load(from, 80);
  let g = v128.load(from, 96);
  let h = v128.load(from, 112);
  // Eight rounds per pass, the state words renamed instead of moved: `first` and `last` are multiples of 8.
  let t1: v128;
  for (let i = first; i < last; i += 8) {
    const k = K_PTR + (i << 4);
    const m = w + (i << 4);
    t1 = i32x4.add(
      i32x4.add(h, v128.xor(v128.xor(rotr(e, 6), rotr(e, 11)), rotr(e, 25))),
      i32x4.add(v128.bitselect(f, g, e), i32x4.add(v128.load(k, 0), v128.load(m, 0))),
    );
    d = i32x4.add(d, t1);
    h = i32x4.add(
      t1,
      i32x4.add(v128.xor(v128.xor(rotr(a, 2), rotr(a, 13)), rotr(a, 22)), v128.bitselect(c, a, v128.xor(a, b))),
    );
    t1 = i32x4.add(
      i32x4.add(g, v128.xor(v128.xor(rotr(d, 6), rotr(d, 11)), rotr(d, 25))),
      i32x4.add(v128.bitselect(e, f, d), i32x4.add(v128.load(k, 16), v128.load(m, 16))),
    );
    c = i32x4.add(c, t1);
    g = i32x4.add(
      t1,
      i32x4.add(v128.xor(v128.xor(rotr(h, 2), rotr(h, 13)), rotr(h, 22)), v128.bitselect(b, h, v128.xor(h, a))),
    );
    t1 = i32x4.add(
      i32x4.add(f, v128.xor(v128.xor(rotr(c, 6), rotr(c, 11)), rotr(c, 25))),
      i32x4.add(v128.bitselect(d, e, c), i32x4.add(v128.load(k, 32), v128.load(m, 32))),
    );
    b = i32x4.add(b, t1);
    f = i32x4.add(
      t1,
      i32x4.add(v128.xor(v128.xor(rotr(g, 2), rotr(g, 13)), rotr(g, 22)), v128.bitselect(a, g, v128.xor(g, h))),
    );
    t1 = i32x4.add(
      i32x4.add(e, v128.xor(v128.xor(rotr(b, 6), rotr(b, 11)), rotr(b, 25))),
      i32x4.add(v128.bitselect(c, d, b), i32x4.add(v128.load(k, 48), v128.load(m, 48))),
    );
    a = i32x4.add(a, t1);
    e = i32x4.add(
      t1,
      i32x4.add(v128.xor(v128.xor(rotr(f, 2), rotr(f, 13)), rotr(f, 22)), v128.bitselect(h, f, v128.xor(f, g))),
    );
    t1 = i32x4.add(
      i32x4.add(d, v128.xor(v128.xor(rotr(a, 6), rotr(a, 11)), rotr(a, 25))),
      i32x4.add(v128.bitselect(b, c, a), i32x4.add(v128.load(k, 64), v128.load(m, 64))),
    );
    h = i32x4.add(h, t1);
    d = i32x4.add(
      t1,
      i32x4.add(v128.xor(v128.xor(rotr(e, 2), rotr(e, 13)), rotr(e, 22)), v128.bitselect(g, e, v128.xor(e, f))),
    );
    t1 = i32x4.add(
      i32x4.add(c, v128.xor(v128.xor(rotr(h, 6), rotr(h, 11)), rotr(h, 25))),
      i32x4.add(v128.bitselect(a, b, h), i32x4.add(v128.load(k, 80), v128.load(m, 80))),
    );
    g = i32x4.add(g, t1);
    c = i32x4.add(
      t1,
      i32x4.add(v128.xor(v128.xor(rotr(d, 2), rotr(d, 13)), rotr(d, 22)), v128.bitselect(f, d, v128.xor(d, e))),
    );
    t1 = i32x4.add(
      i32x4.add(b, v128.xor(v128.xor(rotr(g, 6), rotr(g, 11)), rotr(g, 25))),
      i32x4.add(v128.bitselect(h, a, g), i32x4.add(v128.load(k, 96), v128.load(m, 96))),
    );
    f = i32x4.add(f, t1);
    b = i32x4.add(
      t1,
      i32x4.add(v128.xor(v128.xor(rotr(c, 2), rotr(c, 13)), rotr(c, 22)), v128.bitselect(e, c, v128.xor(c, d))),
    );
    t1 = i32x4.add(
      i32x4.add(a, v128.xor(v128.xor(rotr(f, 6), rotr(f, 11)), rotr(f, 25))),
      i32x4.add(v128.bitselect(g, h, f), i32x4.add(v128.load(k, 112), v128.load(m, 112))),
    );
    e = i32x4.add(e, t1);
    a = i32x4.add(
      t1,
      i32x4.add(v128.xor(v128.xor(rotr(b, 2), rotr(b, 13)), rotr(b, 22)), v128.bitselect(d, b, v128.xor(b, c))),
    );
  }
  if (add) {
    a = i32x4.add(v128.load(chain), a);
    b = i32x4.add(v128.load(chain, 16), b);
    c = i32x4.add(v128.load(chain, 32), c);
    d = i32x4.add(v128.load(chain, 48), d);
    e = i32x4.add(v128.load(chain, 64), e);
    f = i32x4.add(v128.load(chain, 80), f);
    g = i32x4.add(v128.load(chain, 96), g);
    h = i32x4.add(v128.load(chain, 112), h);
  }
  v128.store(to, a);
  v128.store(to, b, 16);
  v128.store(to, c, 32);
  v128.store(to, d, 48);
  v128.store(to, e, 64);
  v128.store(to, f, 80);
  v128.store(to, g, 96);
  v128.store(to, h, 112);
}

/** The big-endian word at `ptr`. */
function wordAt(ptr: usize): i32 {
  return bswap<i32>(load<i32>(ptr));
}

/** Adds `n` to the ASCII decimal number in [from, to) of a lane's bytes; a carry out of the first digit is dropped. */
function addToDigits(lane: usize, from: i32, to: i32, n: i32): void {
  let carry = n;
  for (let p = to - 1; carry !== 0 && p >= from; p--) {
    const v = i32(load<u8>(lane + p)) - 48 + carry;
    carry = v / 10;
    store<u8>(lane + p, u8(48 + (v % 10)));
  }
}

/** True when the lane's digest at OUT_PTR has at least `difficulty` leading zero bits. */
function laneMeets(lane: usize, difficulty: i32): bool {
  let left = difficulty;
  for (let w: usize = 0; w < 8 && left > 0; w++) {
    const word = load<u32>(OUT_PTR + (w << 4) + (lane << 2));
    if (left >= 32) {
      if (word !== 0) return false;
    } else if (word >>> (32 - left) !== 0) return false;
    left -= 32;
  }
  return true;
}

/**
 * Searches the `count` nonces that follow the message at INPUT_PTR: `msgLen` bytes, of which the first
 * `prefixLen` are the constant prefix and the rest the first nonce in decimal. Every nonce of the range must
 * have that many digits. Returns the offset from the first nonce of the first one whose SHA-256 has at least
 * `difficulty` leading zero bits, or -1.
 */
export function search(prefixLen: i32, msgLen: i32, count: i32, difficulty: i32): i32 {
  // The midstate: the prefix's full blocks, compressed once per call.
  for (let w: usize = 0; w < 8; w++) v128.store(MID_PTR + (w << 4), i32x4.splat(load<i32>(H_DATA + (w << 2))));
  const full = prefixLen >> 6;
  for (let b = 0; b < full; b++) {
    const block = INPUT_PTR + (b << 6);
    for (let j: usize = 0; j < 16; j++) v128.store(W_PTR + (j << 4), i32x4.splat(wordAt(block + (j << 2))));
    expand(W_PTR);
    rounds(W_PTR, MID_PTR, MID_PTR, 0, 64, MID_PTR, true);
  }

  // The tail: the prefix's last partial block, the digits, 0x80, zeros and the message length in bits.
  const tailStart = full << 6;
  const tailLen = msgLen - tailStart;
  const blocks = (tailLen + 9 + 63) >> 6;
  const from = prefixLen - tailStart; // the digits, in tail coordinates
  for (let lane: usize = 0; lane < 4; lane++) {
    const ptr = LANE_PTR + lane * LANE_SIZE;
    memory.fill(ptr, 0, LANE_SIZE);
    memory.copy(ptr, INPUT_PTR + tailStart, tailLen);
    store<u8>(ptr + tailLen, 0x80);
    store<i32>(ptr + (blocks << 6) - 4, bswap<i32>(msgLen << 3));
    addToDigits(ptr, from, tailLen, i32(lane));
  }
  // Words without digits are the same in every lane and for every nonce, and the expansion leaves the first
  // 16 words of a schedule alone: set once. So are the first block's rounds before its first digit word.
  for (let j: usize = 0; j < 16; j++) {
    v128.store(W_PTR + (j << 4), i32x4.splat(wordAt(LANE_PTR + (j << 2))));
    v128.store(W2_PTR + (j << 4), i32x4.splat(wordAt(LANE_PTR + 64 + (j << 2))));
  }
  const firstWord = from >> 2;
  const lastWord = (tailLen - 1) >> 2;
  const preRounds = usize(firstWord) & ~7;
  rounds(W_PTR, MID_PTR, PRE_PTR, 0, preRounds, 0, false);
  const shift = 32 - (difficulty < 32 ? difficulty : 32);

  for (let i = 0; i < count; i += 4) {
    for (let j = firstWord; j <= lastWord; j++) {
      const at = LANE_PTR + (usize(j) << 2);
      let v = i32x4.splat(wordAt(at));
      v = i32x4.replace_lane(v, 1, wordAt(at + LANE_SIZE));
      v = i32x4.replace_lane(v, 2, wordAt(at + 2 * LANE_SIZE));
      v = i32x4.replace_lane(v, 3, wordAt(at + 3 * LANE_SIZE));
      v128.store(j < 16 ? W_PTR + (usize(j) << 4) : W2_PTR + (usize(j - 16) << 4), v);
    }
    expand(W_PTR);
    rounds(W_PTR, PRE_PTR, OUT_PTR, preRounds, 64, MID_PTR, true);
    if (blocks === 2) {
      expand(W2_PTR);
      rounds(W2_PTR, OUT_PTR, OUT_PTR, 0, 64, OUT_PTR, true);
    }
    // Coarse test on the first word (exact up to 32 bits of difficulty), then the exact one, lane by lane.
    const first = v128.load(OUT_PTR);
    const hit = difficulty === 0 || v128.any_true(i32x4.eq(i32x4.shr_u(first, shift), i32x4.splat(0)));
    if (hit) {
      for (let lane: usize = 0; lane < 4; lane++) {
        if (i + i32(lane) < count && laneMeets(lane, difficulty)) return i + i32(lane);
      }
    }
    for (let lane: usize = 0; lane < 4; lane++) addToDigits(LANE_PTR + lane * LANE_SIZE, from, tailLen, 4);
  }
  return -1;
}
