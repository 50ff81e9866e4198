// Side-by-side peer for transactions: @ethereumjs/tx on the same envelopes keel-bench reads.
// Prints JSON: decode+hash and decode+hash+sender rates (transactions per second) on one thread,
// and decode+hash+sender on THREADS worker threads at once (default 2; each worker passes over all
// the transactions, and the rate is their total over the same wall-clock window), so that keel's
// multi-threaded batch recovery is compared with the same number of threads. Wall time throughout.
//   node peers-tx.mjs TXS.hex [THREADS]
import { readFileSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createTxFromRLP } from '@ethereumjs/tx';
import { hexToBytes } from '@ethereumjs/util';

const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague, customCrypto: { kzg: {} } });
const file = isMainThread ? process.argv[2] : workerData.file;
const txs = readFileSync(file, 'utf8').trim().split('\n').map((l) => hexToBytes(l));

// Passes over all transactions until `seconds` have gone by; returns transactions per second.
function rate(perTx, seconds) {
  let done = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < seconds) {
    for (const raw of txs) perTx(raw);
    done += txs.length;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  }
  return done / elapsed;
}

let sink = 0;
const decodeHash = (raw) => { sink ^= createTxFromRLP(raw, { common }).hash()[0]; };
const decodeHashSender = (raw) => {
  sink ^= createTxFromRLP(raw, { common }).getSenderAddress().bytes[0];
};

if (!isMainThread) {
  parentPort.postMessage({ rate: rate(decodeHashSender, workerData.seconds), sink: sink & 1 });
} else {
  const threads = Number(process.argv[3] ?? 2);
  if (!(threads >= 1)) throw new Error('THREADS must be a positive integer');
  const out = {
    count: txs.length,
    bytes: txs.reduce((a, t) => a + t.length, 0),
    decode_hash: rate(decodeHash, 2),
    decode_hash_sender: rate(decodeHashSender, 3),
    threads,
  };
  // The workers start together and each measures its own window of the same length; their sum
  // is the throughput of `threads` threads (the windows overlap but for start-up skew).
  const results = await Promise.all(Array.from({ length: threads }, () => new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { file, seconds: 3 } });
    w.once('message', resolve);
    w.once('error', reject);
  })));
  out.decode_hash_sender_threads = results.reduce((a, r) => a + r.rate, 0);
  out.sink = (sink ^ results.reduce((a, r) => a ^ r.sink, 0)) & 1;
  console.log(JSON.stringify(out));
}
