// Side-by-side peer for keel/bls: native blst through @chainsafe/blst 2.2.0 (napi binding).
// Same inputs as keel-bench's BM_Bls_*: 128 keys from KeyGen(IKM_i = 32 bytes of i + 1),
// messages of 32 bytes of (0x80 + i), signatures sig_i = Sign(sk_i, msg_i). Measures, on the
// calling thread: Sign, Verify, signature and public-key decompression (with subgroup
// checks), FastAggregateVerify of one message by 128 keys, and verifyMultipleAggregateSignatures
// of the 128 sets (blst's batch verification with random scalars; the Rust binding spreads it
// over every CPU the process may run on, so side_by_side_bls.sh runs this file once pinned to one
// CPU with taskset and once on all of them, and batch_verify_128_cpu_per_wall reports the CPU
// time the batch used per second of wall time, which shows how many threads it really had).
// Prints JSON: microseconds per call (wall time), and key 0's secret and public keys so the
// caller can check that both sides derived the same keys.
//   node peers-bls.mjs
import blst from '@chainsafe/blst';

function time(f, seconds = 1, runs = 3) {
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < seconds || n < runs) {
    f();
    ++n;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  }
  return (elapsed / n) * 1e6;
}

const n = 128;
const sks = [], pks = [], msgs = [], sigs = [];
for (let i = 0; i < n; ++i) {
  const sk = blst.SecretKey.fromKeygen(new Uint8Array(32).fill(i + 1));
  sks.push(sk);
  pks.push(sk.toPublicKey());
  msgs.push(new Uint8Array(32).fill(0x80 + i));
  sigs.push(sk.sign(msgs[i]));
}
const shared = new Uint8Array(32).fill(0x77);
const agg = blst.aggregateSignatures(sks.map((sk) => sk.sign(shared)));
const sets = sigs.map((sig, i) => ({ msg: msgs[i], pk: pks[i], sig }));
const pkBytes = pks[0].toBytes(), sigBytes = sigs[0].toBytes();

const check = (ok) => { if (!ok) throw new Error('blst rejected a valid input'); };
const out = {
  secret_key0: Buffer.from(sks[0].toBytes()).toString('hex'),
  pubkey0: Buffer.from(pkBytes).toString('hex'),
  sign_us: time(() => sks[0].sign(msgs[0])),
  verify_us: time(() => check(blst.verify(msgs[0], pks[0], sigs[0]))),
  pubkey_decompress_us: time(() => blst.PublicKey.fromBytes(pkBytes, true)),
  signature_decompress_us: time(() => blst.Signature.fromBytes(sigBytes, true)),
  fast_aggregate_verify_128_us: time(() => check(blst.fastAggregateVerify(shared, pks, agg))),
};
{
  const cpu0 = process.cpuUsage(), wall0 = process.hrtime.bigint();
  out.batch_verify_128_us = time(() => check(blst.verifyMultipleAggregateSignatures(sets)));
  const cpu = process.cpuUsage(cpu0), wall = Number(process.hrtime.bigint() - wall0) / 1e3;
  out.batch_verify_128_cpu_per_wall = (cpu.user + cpu.system) / wall;
}
console.log(JSON.stringify(out));
