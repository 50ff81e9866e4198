// Prints the side-by-side table of bench/side_by_side.sh from ROUNDS keel-bench JSON files and
// ROUNDS peers.mjs JSON files, measured in alternation:
//   node report.mjs ROUNDS keel_1.json .. keel_R.json peers_1.json .. peers_R.json
// Every figure is a wall-time rate on one thread on each side, and the best (highest) of the
// rounds on its side: the machine's other load only ever slows a run down.
//
// Wall time on keel's side: Google Benchmark computes bytes_per_second and items_per_second over
// the benchmark thread's CPU time unless the benchmark asked for UseRealTime() (its name then ends
// in /real_time). A CPU-time rate leaves out the time the thread waited for a core, which a peer
// timed by the clock does not, so each such rate is rescaled here by cpu_time / real_time.
import { readFileSync } from 'node:fs';

const [roundsArg, ...files] = process.argv.slice(2);
const rounds = Number(roundsArg);
if (!(rounds >= 1) || files.length !== 2 * rounds) {
  console.error('usage: node report.mjs ROUNDS keel_1.json .. keel_R.json peers_1.json .. peers_R.json');
  process.exit(2);
}
const keelRuns = files.slice(0, rounds).map((f) => JSON.parse(readFileSync(f, 'utf8')).benchmarks);
const peerRuns = files.slice(rounds).map((f) => JSON.parse(readFileSync(f, 'utf8')));

// keel's wall-time rate for benchmark `name` (with or without a /real_time suffix), best of the
// rounds.
function keel(name, field) {
  let best = 0;
  for (const run of keelRuns) {
    const b = run.find((x) => x.name === name || x.name === `${name}/real_time`);
    if (!b || b.error_occurred) throw new Error(`keel-bench did not report ${name}`);
    const wall = b.name.endsWith('/real_time') ? b[field] : (b[field] * b.cpu_time) / b.real_time;
    best = Math.max(best, wall);
  }
  return best;
}
const label = (name) =>
  keelRuns[0].find((x) => x.name === name || x.name === `${name}/real_time`)?.label ?? '?';
const peer = (key) => Math.max(...peerRuns.map((p) => p[key]));

const gb = (x) => `${(x / 1e9).toFixed(3)} GB/s`;
const mops = (x) => `${(x / 1e6).toFixed(2)} M/s`;
const rows = [];
const row = (what, keelValue, peerName, peerValue, fmt) =>
  rows.push([what, fmt(keelValue), peerName, fmt(peerValue), `${(keelValue / peerValue).toFixed(2)}x`]);

const perm = keel('BM_KeccakF1600', 'items_per_second');
for (const [label, n] of [['32B', 32], ['136B', 136], ['1KiB', 1024], ['1MiB', 1048576]]) {
  const k = keel(`BM_Keccak256/${n}`, 'bytes_per_second');
  row(`keccak256 ${label}`, k, 'npm keccak (native)', peer(`keccak256_native_${label}`), gb);
  row(`keccak256 ${label}`, k, '@noble/hashes', peer(`keccak256_noble_${label}`), gb);
}
const keccak1m = keel('BM_Keccak256/1048576', 'bytes_per_second');
row('keccak256 1MiB', keccak1m, 'bare keccak_f1600 calls x 136 B', 136 * perm, gb);
row('keccak256 1MiB', keccak1m, 'OpenSSL SHA3-256 (same sponge)',
  keel('BM_OpenSslSha3_256/1048576', 'bytes_per_second'), gb);
const shani = keel('BM_Sha256_64/0', 'items_per_second');
row('sha256 64B (SHA-NI)', shani, 'OpenSSL in keel', keel('BM_Sha256_64/1', 'items_per_second'), mops);
row('sha256 64B (SHA-NI)', shani, 'node:crypto', peer('sha256_64_openssl_node'), mops);
const batch = keel('BM_Sha256_64ManyDefault', 'items_per_second');
row(`sha256 64B x 1024 per call (${label('BM_Sha256_64ManyDefault')})`, batch, '@chainsafe/hashtree hashInto', peer('sha256_64_batch_hashtree'), mops);
row('hex encode 1MiB', keel('BM_HexEncode/1048576', 'bytes_per_second'),
  'node Buffer.toString(hex)', peer('hex_encode_1MiB'), gb);
const validate = keel('BM_RlpValidateBody', 'bytes_per_second');
const walk = keel('BM_RlpValidateWalkBody', 'bytes_per_second');
row('rlp validate body', validate, '@ethereumjs/rlp decode', peer('rlp_decode_body'), gb);
row('rlp validate+walk body', walk, '@ethereumjs/rlp decode', peer('rlp_decode_body'), gb);
row('rlp validate body', validate, 'memcpy of the body', keel('BM_RlpBodyMemcpy', 'bytes_per_second'), gb);

const header = ['what', 'keel', 'peer', 'peer figure', 'keel/peer'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(`RLP body: ${peerRuns[0].rlp_body_bytes} bytes, 100 transactions`);
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
console.log(`\nAll figures: wall time, one thread on each side, best of ${rounds} alternating rounds.`);
// One summary line per figure the issue sets a goal for, for a quick comparison across runs.
console.log(`summary: keccak256 1MiB ${gb(keccak1m)} (goal >= 0.450 GB/s), ` +
  `${(keccak1m / keel('BM_OpenSslSha3_256/1048576', 'bytes_per_second')).toFixed(2)}x OpenSSL SHA3-256`);
console.log(`summary: sha256 64B batched ${mops(batch)}, ` +
  `${(batch / peer('sha256_64_batch_hashtree')).toFixed(2)}x @chainsafe/hashtree`);
