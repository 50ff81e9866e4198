// anvil's revm on the evm-benchmarks inputs, for bench/side_by_side_evm.sh: each case is an
// eth_call of the contract (placed with a state override: its code and storage) with the case's
// input and gas, over loopback JSON-RPC to an anvil the script started. The round trip of the
// same call to a contract that stops at once (same gas, same overrides) is measured the same way
// and subtracted, so the figure is revm's execution of the contract. Below a millisecond or so
// the difference is within the round trip's noise. Wall time, the best of REPS
// calls after one warm-up. Prints one JSON line per case: {name, ms, empty_ms, ok}.
//   node peers-evm.mjs BENCHMARKS_DIR PORT [REPS] [NAME_REGEX]
import { readFileSync } from 'node:fs';

import { jsonFiles } from './json-files.mjs';

const [dir, port, repsArg, pick] = process.argv.slice(2);
const reps = Number(repsArg ?? 5);
const url = `http://127.0.0.1:${port}`;
const select = pick ? new RegExp(pick) : /./;

// The cases as keel's bench/evm_fixture.cpp reads them: "<test>/<data index>".
const cases = [];
for (const f of jsonFiles(dir)) {
  for (const [name, t] of Object.entries(JSON.parse(readFileSync(f, 'utf8')))) {
    const to = t.transaction.to.toLowerCase();
    const pre = Object.fromEntries(Object.entries(t.pre).map(([a, v]) => [a.toLowerCase(), v]));
    const override = {};
    for (const [a, acct] of Object.entries(pre)) {
      const state = {};
      for (const [k, v] of Object.entries(acct.storage))
        state['0x' + BigInt(k).toString(16).padStart(64, '0')] =
          '0x' + BigInt(v).toString(16).padStart(64, '0');
      override[a] = { code: acct.code, balance: acct.balance, state };
    }
    t.transaction.data.forEach((data, d) =>
      cases.push({ name: `${name}/${d}`, to, data, gas: t.transaction.gasLimit[0], override }));
  }
}

let id = 0;
async function rpc(method, params) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  return res.json();
}

async function best(call) {
  let r = await call(); // warm-up (and the result to check)
  let min = Infinity;
  for (let i = 0; i < reps; ++i) {
    const t0 = process.hrtime.bigint();
    r = await call();
    min = Math.min(min, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: min, r };
}

const from = '0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b';
const stop = '0x00000000000000000000000000000000000e3e3e';
for (const c of cases) {
  if (!select.test(c.name)) continue;
  // The same call's round trip with a contract that stops at once: same gas, same overrides.
  const empty = await best(() => rpc('eth_call', [
    { from, to: stop, gas: c.gas, data: c.data }, 'latest',
    { ...c.override, [stop]: { code: '0x00' } }]));
  const { ms, r } = await best(() => rpc('eth_call', [
    { from, to: c.to, gas: c.gas, data: c.data }, 'latest', c.override]));
  console.log(JSON.stringify({ name: c.name, ms: ms - empty.ms, empty_ms: empty.ms, ok: !r.error,
                               error: r.error?.message }));
}
