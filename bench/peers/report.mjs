// Prints the side-by-side table of bench/side_by_side.sh from keel-bench's JSON (medians of
// the repetitions) and peers.mjs's JSON.
import { readFileSync } from 'node:fs';

const keelRuns = JSON.parse(readFileSync(process.argv[2], 'utf8')).benchmarks;
const peers = JSON.parse(readFileSync(process.argv[3], 'utf8'));

function keel(name, field) {
  const run = keelRuns.find((b) => b.run_name === name && b.aggregate_name === 'median');
  if (!run) throw new Error(`keel-bench did not report ${name}`);
  return run[field];
}

const gb = (x) => `${(x / 1e9).toFixed(3)} GB/s`;
const mops = (x) => `${(x / 1e6).toFixed(2)} M/s`;
const rows = [];
const row = (what, keelValue, peerName, peerValue, fmt) =>
  rows.push([what, fmt(keelValue), peerName, fmt(peerValue), `${(keelValue / peerValue).toFixed(2)}x`]);

const perm = keel('BM_KeccakF1600', 'items_per_second');
for (const [label, n] of [['32B', 32], ['136B', 136], ['1KiB', 1024], ['1MiB', 1048576]]) {
  const k = keel(`BM_Keccak256/${n}`, 'bytes_per_second');
  row(`keccak256 ${label}`, k, 'npm keccak (native)', peers[`keccak256_native_${label}`], gb);
  row(`keccak256 ${label}`, k, '@noble/hashes', peers[`keccak256_noble_${label}`], gb);
}
row('keccak256 1MiB', keel('BM_Keccak256/1048576', 'bytes_per_second'),
  'bare keccak_f1600 calls x 136 B', 136 * perm, gb);
row('keccak256 1MiB', keel('BM_Keccak256/1048576', 'bytes_per_second'),
  'OpenSSL SHA3-256 (same sponge)', keel('BM_OpenSslSha3_256/1048576', 'bytes_per_second'), gb);
const shani = keel('BM_Sha256_64/0', 'items_per_second');
row('sha256 64B (SHA-NI)', shani, 'OpenSSL in keel', keel('BM_Sha256_64/1', 'items_per_second'), mops);
row('sha256 64B (SHA-NI)', shani, 'node:crypto', peers.sha256_64_openssl_node, mops);
row('hex encode 1MiB', keel('BM_HexEncode/1048576', 'bytes_per_second'),
  'node Buffer.toString(hex)', peers.hex_encode_1MiB, gb);
const validate = keel('BM_RlpValidateBody', 'bytes_per_second');
const walk = keel('BM_RlpValidateWalkBody', 'bytes_per_second');
row('rlp validate body', validate, '@ethereumjs/rlp decode', peers.rlp_decode_body, gb);
row('rlp validate+walk body', walk, '@ethereumjs/rlp decode', peers.rlp_decode_body, gb);
row('rlp validate body', validate, 'memcpy of the body', keel('BM_RlpBodyMemcpy', 'bytes_per_second'), gb);

const header = ['what', 'keel', 'peer', 'peer figure', 'keel/peer'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(`RLP body: ${peers.rlp_body_bytes} bytes, 100 transactions`);
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
