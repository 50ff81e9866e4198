// Generates the transaction workload for the side-by-side transaction bench: N signed
// transactions in a realistic mix, one 0x-hex envelope per line (as in a block body / as sent
// with eth_sendRawTransaction). Deterministic: fixed keys and a fixed PRNG.
//   node gen-txs.mjs N OUT
// Mix: 40% legacy EIP-155 ERC-20 transfers (68-byte calldata), 40% EIP-1559 swaps (260-420 byte
// calldata, 0-2 access-list entries), 10% EIP-2930, 5% EIP-4844 (2 blob hashes, canonical form),
// 5% EIP-7702 (one authorization).
import { writeFileSync } from 'node:fs';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createTx } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';

const n = Number(process.argv[2] ?? 10000);
const out = process.argv[3] ?? 'txs.hex';
// Blob transactions here carry versioned hashes only (canonical form, no blobs), so no KZG
// function is ever called; ethereumjs still insists a kzg object is configured.
const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague, customCrypto: { kzg: {} } });

let seed = 0x2545f491n;
function rnd() {  // xorshift64*
  seed ^= seed >> 12n; seed ^= (seed << 25n) & 0xffffffffffffffffn; seed ^= seed >> 27n;
  return Number(((seed * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn) >> 33n);
}
const bytes = (k) => { const b = new Uint8Array(k); for (let i = 0; i < k; i++) b[i] = rnd() & 0xff; return b; };
const keys = Array.from({ length: 16 }, (_, i) => hexToBytes(`0x${(i + 1).toString(16).padStart(64, '0')}`.replace(/^0x0/, '0x4')));
const addr = () => bytesToHex(bytes(20));
const gwei = (x) => BigInt(x) * 1000000000n;

const lines = [];
for (let i = 0; i < n; i++) {
  const pick = i % 20;
  const key = keys[i % keys.length];
  const base = { nonce: BigInt(rnd() % 5000), gasLimit: BigInt(21000 + (rnd() % 300000)), to: addr(), value: BigInt(rnd()) * 1000000000n };
  let data;
  if (pick < 8) {
    data = { ...base, type: 0, gasPrice: gwei(5 + (rnd() % 50)), data: new Uint8Array([0xa9, 0x05, 0x9c, 0xbb, ...bytes(64)]) };
  } else if (pick < 16) {
    const al = Array.from({ length: rnd() % 3 }, () => ({ address: addr(), storageKeys: [bytesToHex(bytes(32))] }));
    data = { ...base, type: 2, maxPriorityFeePerGas: gwei(1 + (rnd() % 3)), maxFeePerGas: gwei(20 + (rnd() % 80)), data: bytes(260 + (rnd() % 160)), accessList: al };
  } else if (pick < 18) {
    data = { ...base, type: 1, gasPrice: gwei(10 + (rnd() % 40)), data: bytes(100 + (rnd() % 100)), accessList: [{ address: addr(), storageKeys: [bytesToHex(bytes(32)), bytesToHex(bytes(32))] }] };
  } else if (pick < 19) {
    const hashes = [0, 1].map(() => { const h = bytes(32); h[0] = 1; return bytesToHex(h); });
    data = { ...base, type: 3, maxPriorityFeePerGas: gwei(1), maxFeePerGas: gwei(30), maxFeePerBlobGas: gwei(2), blobVersionedHashes: hashes, data: bytes(100) };
  } else {
    const authorizationList = [{ chainId: '0x1', address: addr(), nonce: '0x0', yParity: '0x1', r: bytesToHex(bytes(32)), s: `0x${'1'.repeat(62)}` }];
    data = { ...base, type: 4, maxPriorityFeePerGas: gwei(1), maxFeePerGas: gwei(30), data: bytes(40), authorizationList };
  }
  const tx = createTx(data, { common }).sign(key);
  lines.push(bytesToHex(tx.serialize()));
}
writeFileSync(out, lines.join('\n') + '\n');
console.error(`gen-txs: ${n} transactions -> ${out}`);
