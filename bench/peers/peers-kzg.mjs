// The peer side of bench/side_by_side_kzg.sh: rust-eth-kzg (the Rust KZG library of
// Lighthouse, Grandine and Lodestar, native through @crate-crypto/node-eth-kzg) on the blob
// keel's kzg_bench calls full_blob() (a xorshift64 stream, each element's first byte zero).
// First checks that it computes what the consensus-spec reference case says (the case's
// path is argv[3]); then times each function, best of `rounds` runs of `reps` calls (wall
// time), and prints one JSON object (milliseconds a call). argv[2]: the folder the peer is
// installed in (build/peers-kzg, outside this folder's lock file: side_by_side_kzg.sh says why).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [peerDir, casePath, roundsArg = '3'] = process.argv.slice(2);
const { DasContextJs } = createRequire(`${peerDir}/`)('@crate-crypto/node-eth-kzg');
const rounds = Number(roundsArg);

const setupStart = performance.now();
const ctx = new DasContextJs();
const setupMs = performance.now() - setupStart;

const hex = (b) => '0x' + Buffer.from(b).toString('hex');
const unhex = (s) => Uint8Array.from(Buffer.from(s.replace(/^0x/, ''), 'hex'));

// The reference case: input blob, output [cells, proofs] (the yaml's quoted 0x strings, in
// order: the blob first, then 128 cells, then 128 proofs).
const strings = [...readFileSync(casePath, 'utf8').matchAll(/'(0x[0-9a-f]*)'/g)].map((m) => m[1]);
if (strings.length !== 1 + 128 + 128) throw new Error(`unexpected case layout: ${strings.length} strings`);
const ref = ctx.computeCellsAndKzgProofs(unhex(strings[0]));
for (let i = 0; i < 128; ++i) {
  if (hex(ref.cells[i]) !== strings[1 + i]) throw new Error(`reference case: cell ${i} differs`);
  if (hex(ref.proofs[i]) !== strings[129 + i]) throw new Error(`reference case: proof ${i} differs`);
}

const blob = new Uint8Array(131072);
let x = 0x9e3779b97f4a7c15n;
const mask = (1n << 64n) - 1n;
for (let i = 0; i < blob.length; ++i) {
  x ^= (x << 13n) & mask;
  x ^= x >> 7n;
  x ^= (x << 17n) & mask;
  if (i % 32 !== 0) blob[i] = Number(x & 0xffn);
}

function best(reps, f) {
  f();
  let min = Infinity;
  for (let r = 0; r < rounds; ++r) {
    const t = performance.now();
    for (let i = 0; i < reps; ++i) f();
    min = Math.min(min, (performance.now() - t) / reps);
  }
  return min;
}

const all = ctx.computeCellsAndKzgProofs(blob);
const upper = [], upperCells = [];
for (let k = 64; k < 128; ++k) {
  upper.push(k);
  upperCells.push(all.cells[k]);
}
const recovered = ctx.recoverCellsAndKzgProofs(upper, upperCells);
for (let k = 0; k < 128; ++k)
  if (hex(recovered.proofs[k]) !== hex(all.proofs[k])) throw new Error(`recovery: proof ${k} differs`);

console.log(JSON.stringify({
  setup_ms: setupMs,
  compute_cells_ms: best(20, () => ctx.computeCells(blob)),
  compute_cells_and_proofs_ms: best(3, () => ctx.computeCellsAndKzgProofs(blob)),
  recover_ms: best(3, () => ctx.recoverCellsAndKzgProofs(upper, upperCells)),
  commitment_ms: best(5, () => ctx.blobToKzgCommitment(blob)),
  // The first 8 bytes of proofs 0 and 127, as keel's BM_KzgComputeCellsAndProofs labels them.
  fingerprint: `${hex(all.proofs[0]).slice(2, 18)}/${hex(all.proofs[127]).slice(2, 18)}`,
}));
