// Side-by-side peer for transactions: @ethereumjs/tx on the same envelopes keel-bench reads.
// Prints JSON: decode+hash and decode+hash+sender rates (transactions per second), one thread.
//   node peers-tx.mjs TXS.hex
import { readFileSync } from 'node:fs';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createTxFromRLP } from '@ethereumjs/tx';
import { hexToBytes } from '@ethereumjs/util';

const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague, customCrypto: { kzg: {} } });
const txs = readFileSync(process.argv[2], 'utf8').trim().split('\n').map((l) => hexToBytes(l));

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
const out = {
  count: txs.length,
  bytes: txs.reduce((a, t) => a + t.length, 0),
  decode_hash: rate((raw) => { sink ^= createTxFromRLP(raw, { common }).hash()[0]; }, 2),
  decode_hash_sender: rate((raw) => {
    sink ^= createTxFromRLP(raw, { common }).getSenderAddress().bytes[0];
  }, 3),
  sink: sink & 1,
};
console.log(JSON.stringify(out));
