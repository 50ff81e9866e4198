// Checks keel node while Lodestar (lodestar.sh) drives it: ethers 6 sends transfers from the
// devnet's funded key and waits for their receipts (the blocks Lodestar proposes include them);
// once Lodestar's head reaches SLOTS, keel's canonical chain holds Lodestar's head execution
// block, at least half the slots produced a block, and every transfer is in it.
//   node lodestar.mjs KEEL_URL LODESTAR_REST_URL SLOTS
import { ethers } from 'ethers';

const [keelUrl, restUrl, slotsText] = process.argv.slice(2);
const slots = Number(slotsText);
const provider = new ethers.JsonRpcProvider(keelUrl, undefined, { staticNetwork: true, pollingInterval: 500 });
const wallet = new ethers.Wallet('0x' + '00'.repeat(31) + '01', provider);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let failures = 0;
const check = (name, ok, detail = '') => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : ': ' + detail}`);
  if (!ok) failures++;
};

async function rest(path) {
  const r = await fetch(restUrl + path);
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r.json();
}
async function lodestarHead() {
  const b = await rest('/eth/v2/beacon/blocks/head');
  const m = b.data.message;
  return { slot: Number(m.slot), hash: m.body.execution_payload.block_hash,
           number: Number(m.body.execution_payload.block_number) };
}
// Waits for `cond` (polled every 500 ms) up to `ms`; returns its last value.
async function until(cond, ms) {
  const end = Date.now() + ms;
  let v;
  while (Date.now() < end) {
    try { v = await cond(); if (v) return v; } catch { /* not up yet */ }
    await sleep(500);
  }
  return v;
}

// Lodestar up and proposing: keel's head past genesis.
const started = await until(async () => (await provider.getBlockNumber()) >= 2, 90_000);
check('lodestar-drives-keel', !!started, 'keel head still at genesis after 90 s');
if (!started) process.exit(1);

// Transfers, each awaited by its receipt (ethers polls eth_getTransactionReceipt).
const receipts = [];
for (let i = 0; i < 6; i++) {
  const to = ethers.getAddress('0x' + (0x1000 + i).toString(16).padStart(40, '0'));
  const tx = await wallet.sendTransaction({ to, value: ethers.parseEther('1') + BigInt(i) });
  const r = await tx.wait(1, 60_000).catch((e) => e);
  receipts.push(r);
  check(`transfer-${i}-included`, r && r.status === 1, String(r));
}

// Lodestar's head at SLOTS, then keel's canonical chain against it.
const reached = await until(async () => (await lodestarHead()).slot >= slots, slots * 2_000 + 60_000);
check(`lodestar-reached-slot-${slots}`, !!reached, 'timed out');
let same = false, head;
for (let i = 0; i < 10 && !same; i++) {
  head = await lodestarHead();
  const atNumber = await provider.getBlock(head.number);
  same = atNumber !== null && atNumber.hash === head.hash;
  if (!same) await sleep(300);
}
check('keel-head-is-lodestars', same, JSON.stringify(head));
check('blocks-produced', head.number >= slots / 2, `${head.number} blocks in ${slots} slots`);
for (const [i, r] of receipts.entries()) {
  if (!(r && r.blockHash)) continue;
  const b = await provider.getBlock(r.blockNumber);
  check(`transfer-${i}-canonical`, b && b.hash === r.blockHash, `${r.blockHash} vs ${b && b.hash}`);
}
const balance = await provider.getBalance(ethers.getAddress('0x' + (0x1000).toString(16).padStart(40, '0')));
check('balance-after', balance === ethers.parseEther('1'), String(balance));
console.log(`lodestar: ${head.number} blocks over ${head.slot} slots, keel following; ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
