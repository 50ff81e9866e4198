// Side-by-side peers for bench/side_by_side.sh. Measures the same operations keel-bench measures,
// with npm packages (never linked into keel): `keccak` (native addon, prebuilt), @noble/hashes
// (pure JS), Node's Buffer hex (C++ in Node core), node:crypto SHA-256 (OpenSSL),
// @chainsafe/hashtree (native SHA-256 of many 64-byte blocks, Lodestar's merkleization hasher) and
// @ethereumjs/rlp. All on the calling thread, timed in wall time (process.hrtime). Prints one JSON
// object: { name: bytes_or_items_per_second }.
//
// Usage: node peers.mjs BODY.rlp
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { RLP } from '@ethereumjs/rlp';
import { hashInto } from '@chainsafe/hashtree';

const require = createRequire(import.meta.url);
const nativeKeccak = require('keccak');

// Runs fn repeatedly for at least `seconds`, returns calls per second (best of 3 rounds).
function rate(fn, seconds = 0.4) {
  let best = 0;
  for (let round = 0; round < 3; round++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < seconds) {
      for (let i = 0; i < 16; i++) fn();
      calls += 16;
      elapsed = Number(process.hrtime.bigint() - start) / 1e9;
    }
    best = Math.max(best, calls / elapsed);
  }
  return best;
}

function pattern(n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + 7) & 0xff;
  return b;
}

const out = {};
let sink = 0;
for (const [label, n] of [['32B', 32], ['136B', 136], ['1KiB', 1024], ['1MiB', 1 << 20]]) {
  const data = pattern(n);
  out[`keccak256_native_${label}`] =
    n * rate(() => { sink ^= nativeKeccak('keccak256').update(data).digest()[0]; });
  out[`keccak256_noble_${label}`] = n * rate(() => { sink ^= keccak_256(data)[0]; });
}
{
  const block = pattern(64);
  out.sha256_64_openssl_node = rate(() => { sink ^= createHash('sha256').update(block).digest()[0]; });
}
{
  // One tree level of 1,024 nodes per call, as keel-bench's BM_Sha256_64ManyDefault.
  const input = pattern(64 * 1024);
  const output = new Uint8Array(32 * 1024);
  out.sha256_64_batch_hashtree = 1024 * rate(() => { hashInto(input, output); sink ^= output[0]; });
}
{
  const data = pattern(1 << 20);
  out.hex_encode_1MiB = data.length * rate(() => { sink ^= data.toString('hex').length; });
}
{
  const body = new Uint8Array(readFileSync(process.argv[2]));
  out.rlp_decode_body = body.length * rate(() => { sink ^= RLP.decode(body).length; });
  out.rlp_body_bytes = body.length;
}
out.sink = sink & 1;
console.log(JSON.stringify(out));
