// Side-by-side peer for keel/ssz: Lodestar's SSZ stack from npm (@chainsafe/ssz 1.9.0 with
// @lodestar/types 1.50.0, hashing through @chainsafe/hashtree, the native SHA-256 tree hasher
// Lodestar uses). Measures, on one thread:
//   - SHA-256 of 64-byte blocks with hashtree.hashInto (hashes/s), in batches of 1024;
//   - for each input given as KIND:FORK:FILE (raw SSZ):
//       block   a <fork>.BeaconBlock (the real mainnet blocks);
//       signed  a <fork>.SignedBeaconBlock, rooted as its message (the generated block);
//     deserialize (MB/s), hash_tree_root of a freshly decoded value (ms: decode + root, less
//     decode, since @chainsafe/ssz caches a value's root), and the root, which must equal the
//     block's canonical root (the caller compares);
//       state   a <fork>.BeaconState (the generated 1M-validator state), the way Lodestar loads
//     one: deserializeToViewDU (a tree whose nodes are not hashed yet), then hashTreeRoot of
//     that fresh view; each timed over at least 2 runs.
//   node peers-ssz.mjs KIND:FORK:FILE ...
import { readFileSync } from 'node:fs';
import { hashInto } from '@chainsafe/hashtree';
import { setHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import { ssz } from '@lodestar/types';

setHasher(hasher);

// Calls f repeatedly for at least `seconds` and `runs` calls; returns seconds per call.
function time(f, seconds, runs = 3) {
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < seconds || n < runs) {
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

// Times decode and decode + root; root time is the difference.
function measure(decode, rootOf, bytes, seconds, runs) {
  const decode_s = time(decode, seconds, runs);
  const both_s = time(() => rootOf(decode()), seconds, runs);
  return { bytes: bytes.length, root: toHex(rootOf(decode())), decode_ms: decode_s * 1e3,
           decode_mb_s: bytes.length / decode_s / 1e6, root_ms: (both_s - decode_s) * 1e3 };
}

const blocks = process.argv.slice(2).map((arg) => {
  const [kind, fork, file] = arg.split(':');
  const bytes = new Uint8Array(readFileSync(file));
  const t = ssz[fork];
  if (kind === 'block') {
    return measure(() => t.BeaconBlock.deserialize(bytes), (v) => t.BeaconBlock.hashTreeRoot(v),
                   bytes, 1, 3);
  }
  if (kind === 'signed') {
    return measure(() => t.SignedBeaconBlock.deserialize(bytes),
                   (v) => t.BeaconBlock.hashTreeRoot(v.message), bytes, 1, 3);
  }
  if (kind === 'state') {
    return measure(() => t.BeaconState.deserializeToViewDU(bytes), (v) => v.hashTreeRoot(),
                   bytes, 0, 2);
  }
  throw new Error(`unknown input kind ${kind} (want block, signed or state)`);
});
console.log(JSON.stringify({ sha256_64_per_s: sha, blocks }));
