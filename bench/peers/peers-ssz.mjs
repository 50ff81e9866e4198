// Side-by-side peer for keel/ssz: Lodestar's SSZ stack from npm (@chainsafe/ssz 1.9.0 with
// @lodestar/types 1.50.0, hashing through @chainsafe/hashtree, the native SHA-256 tree hasher
// Lodestar uses). Measures, on one thread:
//   - SHA-256 of 64-byte blocks with hashtree.hashInto (hashes/s), in batches of 1024;
//   - for each real mainnet beacon block given (raw SSZ of <fork>.BeaconBlock): deserialize
//     (MB/s), hash_tree_root of a freshly decoded value (ms: decode + root, less decode, since
//     @chainsafe/ssz caches a value's root), and the root, which must equal the block's
//     canonical root (the caller compares).
//   node peers-ssz.mjs FORK:BLOCK.ssz ...
import { readFileSync } from 'node:fs';
import { hashInto } from '@chainsafe/hashtree';
import { setHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import { ssz } from '@lodestar/types';

setHasher(hasher);

// Calls f repeatedly for at least `seconds`; returns seconds per call.
function time(f, seconds) {
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < seconds || n < 3) {
    f();
    ++n;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  }
  return elapsed / n;
}

const toHex = (b) => '0x' + Buffer.from(b).toString('hex');

const input = new Uint8Array(1024 * 64).map((_, i) => (i * 31 + 7) & 0xff);
const output = new Uint8Array(1024 * 32);
const sha = 1024 / time(() => hashInto(input, output), 1);

const blocks = process.argv.slice(2).map((arg) => {
  const [fork, file] = arg.split(':');
  const bytes = new Uint8Array(readFileSync(file));
  const type = ssz[fork].BeaconBlock;
  const value = type.deserialize(bytes);
  const decode_s = time(() => type.deserialize(bytes), 1);
  // hashTreeRoot caches the root on the value object: time decode + root on fresh values and
  // take the decode time off.
  const both_s = time(() => type.hashTreeRoot(type.deserialize(bytes)), 1);
  const root_s = both_s - decode_s;
  return { fork, file, bytes: bytes.length, root: toHex(type.hashTreeRoot(value)),
           decode_ms: decode_s * 1e3, decode_mb_s: bytes.length / decode_s / 1e6, root_ms: root_s * 1e3 };
});
console.log(JSON.stringify({ sha256_64_per_s: sha, blocks }));
