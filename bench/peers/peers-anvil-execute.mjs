// The anvil side of bench/side_by_side_execute.sh: anvil (Foundry's node on revm) mines the
// transactions of a chain file made by `keel devnet gen --contracts --no-blobs`, block by block,
// through its JSON-RPC, as the issue asks: anvil started from the chain's genesis file (--init),
// mining off; for each block its signed transactions go in with eth_sendRawTransaction (in the
// file's order, one request at a time, untimed), then one evm_mine is timed: anvil executes them in order (--order
// fifo), builds the block and its state root. Each mined block must hold the file's transaction
// count and gas used, or the run fails: both sides did the same work.
//   node peers-anvil-execute.mjs ANVIL GENESIS.json CHAIN.rlp BLOCKS PORT PIN_CPU
// Prints one line: "anvil: BLOCKS blocks, GAS gas, SECONDS s mining (evm_mine), SECONDS s with
// the submissions".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RLP } from '@ethereumjs/rlp';

const [anvilPath, genesisPath, chainPath, blocksArg, port, pin] = process.argv.slice(2);
const genesis = JSON.parse(fs.readFileSync(genesisPath, 'utf8'));
const url = `http://127.0.0.1:${port}`;

// Struct logs of mined transactions need anvil's --steps-tracing (recorded while mining; without
// it debug_traceTransaction answers with no steps): only when ANVIL_TRACE_MODES asks for them.
const steps = (process.env.ANVIL_TRACE_MODES ?? '').split(',').includes('structLog') ? ['--steps-tracing'] : [];
// ANVIL_PRUNE_HISTORY: keep no past states (a long chain whose blocks are only read back from
// what anvil recorded while mining: trace_block).
const prune = process.env.ANVIL_PRUNE_HISTORY ? ['--prune-history'] : [];
// anvil writes the states it evicts from memory under $HOME/.foundry/anvil/tmp and removes them
// only when it stops cleanly: a private HOME, removed at exit, keeps a killed run from leaving
// gigabytes behind (10,000 mined blocks left 60 GB).
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-anvil-home-'));
const anvil = spawn('taskset', ['-c', pin, anvilPath, '--port', port, '--silent', '--init', genesisPath,
  '--hardfork', 'prague', '--no-mining', '--order', 'fifo', '--gas-limit', String(BigInt(genesis.gasLimit)),
  ...steps, ...prune], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, HOME: home } });
let exited = false;
anvil.on('exit', () => { exited = true; });
process.on('exit', () => {
  try { anvil.kill('SIGKILL'); } catch { /* gone already */ }
  fs.rmSync(home, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1));
const fail = (m) => { console.error(`peers-anvil-execute: ${m}`); process.exit(1); };

let id = 0;
async function rpc(body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' },
                                 body: JSON.stringify(body) });
  return res.json();
}
const call = async (method, params = []) => {
  const r = await rpc({ jsonrpc: '2.0', id: ++id, method, params });
  if (r.error) fail(`${method}: ${JSON.stringify(r.error)}`);
  return r.result;
};

for (let i = 0; ; ++i) {
  if (exited) fail('anvil exited at start-up');
  try { await call('eth_chainId'); break; } catch { /* not listening yet */ }
  if (i > 200) fail('anvil did not answer within 20 s');
  await new Promise((r) => setTimeout(r, 100));
}
if (BigInt(await call('eth_chainId')) !== BigInt(genesis.config.chainId)) fail('chain id differs');

// The blocks of the file, each [header, transactions, ommers, withdrawals]; block 0 is the
// genesis. A typed transaction is an RLP string (its envelope), a legacy one a list.
const items = [];
{
  const file = fs.readFileSync(chainPath);
  let at = 0;
  while (at < file.length) {
    const b = file[at];
    let end;
    if (b <= 0xf7) end = at + 1 + (b - 0xc0);
    else {
      const n = b - 0xf7;
      let len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + file[at + 1 + i];
      end = at + 1 + n + len;
    }
    items.push(file.subarray(at, end));
    at = end;
  }
}
const want = Math.min(Number(blocksArg), items.length - 1);
const hex = (u8) => '0x' + Buffer.from(u8).toString('hex');
const num = (u8) => (u8.length === 0 ? 0n : BigInt(hex(u8)));

let mining = 0;
let total = 0;
let gas = 0n;
const roots = new Set();  // anvil computes a state root per block (over its state, without withdrawals)
for (let n = 1; n <= want; ++n) {
  const [header, txs] = RLP.decode(items[n]);
  const gasUsed = num(header[10]);
  const raw = txs.map((t) => hex(Array.isArray(t) ? RLP.encode(t) : t));
  const t0 = performance.now();
  // One at a time: anvil's fifo order is the order of arrival, which a batch does not keep.
  for (const r of raw) {
    const s = await rpc({ jsonrpc: '2.0', id: ++id, method: 'eth_sendRawTransaction', params: [r] });
    if (s.error) fail(`block ${n}: eth_sendRawTransaction: ${JSON.stringify(s.error)}`);
  }
  // The block's beneficiary (warm from the start, EIP-3651) and timestamp as the file has them.
  await call('anvil_setCoinbase', [hex(header[2])]);
  await call('evm_setNextBlockTimestamp', [Number(num(header[11]))]);
  const t1 = performance.now();
  await call('evm_mine');
  const t2 = performance.now();
  mining += t2 - t1;
  total += t2 - t0;
  const mined = await call('eth_getBlockByNumber', ['latest', false]);
  if (mined.transactions.length !== raw.length && process.env.ANVIL_RECEIPTS) {
    const pool = await call('txpool_content');
    fs.writeFileSync(process.env.ANVIL_RECEIPTS, JSON.stringify({ mined: mined.transactions, pool }));
  }
  if (mined.transactions.length !== raw.length)
    fail(`block ${n}: anvil mined ${mined.transactions.length} transactions, the file has ${raw.length}`);
  if (BigInt(mined.gasUsed) !== gasUsed && process.env.ANVIL_RECEIPTS) {
    const receipts = await call('eth_getBlockReceipts', ['latest']);
    fs.writeFileSync(process.env.ANVIL_RECEIPTS, JSON.stringify(receipts));
  }
  if (BigInt(mined.gasUsed) !== gasUsed)
    fail(`block ${n}: anvil used ${BigInt(mined.gasUsed)} gas, the file's header says ${gasUsed}`);
  gas += gasUsed;
  roots.add(mined.stateRoot);
}
if (roots.size !== want) fail(`anvil's blocks have ${roots.size} distinct state roots for ${want} blocks`);

// ANVIL_TRACE_MODES (bench/side_by_side_tracers.sh): after mining, the blocks ANVIL_TRACE_FROM..
// the last traced one by one through the RPC, per mode (callTracer, prestateTracer,
// flatCallTracer: debug_traceBlockByNumber with that tracer; trace_block: Parity's; structLog:
// debug_traceTransaction with the default logger for each transaction of the block, as anvil's
// debug_traceBlockByNumber answers structLog with empty logs), each response read to its last
// byte and dropped. One line per mode: "anvil trace MODE: BLOCKS blocks, SECONDS s, BYTES bytes",
// then anvil's peak resident memory (mining and tracing): "anvil peak RSS: KB kB".
if (process.env.ANVIL_TRACE_MODES) {
  const from = Number(process.env.ANVIL_TRACE_FROM || 1);
  // One request, its response read to the end; returns its first bytes.
  const request = async (body, what) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' },
                                   body: JSON.stringify(body) });
    const reader = res.body.getReader();
    let head = '', size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (head.length < 512) head += Buffer.from(value.subarray(0, 512)).toString();
      size += value.length;
    }
    if (head.slice(0, 64).includes('"error"')) fail(`${what}: ${head}`);
    return { head, size };
  };
  // ANVIL_TRACE_INFLIGHT (default 1): blocks traced at once, each by its own chain of requests,
  // as an exporter such as cryo keeps several in flight.
  const inflight = Math.max(1, Number(process.env.ANVIL_TRACE_INFLIGHT || 1));
  for (const mode of process.env.ANVIL_TRACE_MODES.split(',')) {
    let bytes = 0, next = from;
    const t0 = performance.now();
    const traceBlock = async (n) => {
      const tag = '0x' + n.toString(16);
      let bodies;
      if (mode === 'structLog') {
        const block = await call('eth_getBlockByNumber', [tag, false]);
        bodies = block.transactions.map((h) => ({ jsonrpc: '2.0', id: ++id, method: 'debug_traceTransaction', params: [h, {}] }));
      } else if (mode === 'trace_block') {
        bodies = [{ jsonrpc: '2.0', id: ++id, method: 'trace_block', params: [tag] }];
      } else {
        bodies = [{ jsonrpc: '2.0', id: ++id, method: 'debug_traceBlockByNumber', params: [tag, { tracer: mode }] }];
      }
      for (const body of bodies) {
        const { head, size } = await request(body, `${mode} of block ${n}`);
        bytes += size;
        if (n === from && body === bodies[0] && process.env.ANVIL_TRACE_SAMPLES) console.log(`sample ${mode}: ${head.slice(0, 400)}`);
      }
    };
    await Promise.all([...Array(inflight)].map(async () => {
      while (next <= want) await traceBlock(next++);
    }));
    const s = (performance.now() - t0) / 1000;
    console.log(`anvil trace ${mode}: ${want - from + 1} blocks, ${s.toFixed(3)} s, ${bytes} bytes`);
  }
  const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${anvil.pid}/status`, 'utf8'));
  console.log(`anvil peak RSS: ${hwm ? hwm[1] : '?'} kB`);
}
console.log(`anvil: ${want} blocks, ${gas} gas, ${(mining / 1000).toFixed(2)} s mining (evm_mine), ` +
            `${(total / 1000).toFixed(2)} s with the submissions`);
// ANVIL_SERVE (bench/side_by_side_rpc.sh): anvil keeps serving the mined chain until this
// process gets SIGTERM (the exit hook stops it then).
if (process.env.ANVIL_SERVE) {
  console.log(`anvil serving ${url}`);
  await new Promise(() => {});
}
process.exit(0);  // the exit hook stops anvil and removes its HOME
