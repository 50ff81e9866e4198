// The struct (opcode) logger side by side, for bench/side_by_side_trace.sh: one evm-benchmarks
// call traced to the end by keel (`keel evm run --tx --struct-log`, its stdout counted and
// dropped) and by anvil (`debug_traceCall` with the contract as a state override, the response
// body counted and dropped as it streams in), both as a Prague transaction from the same sender
// with the same gas, input and tracer options, so both write the same steps. Each side runs
// pinned to the same CPU with /usr/bin/time around it for its peak resident memory; anvil is
// started afresh per case, so its peak is that case's. Prints one JSON line per side:
//   {side, name, config, ms, bytes, steps, rss_mb}
//   node peers-trace.mjs KEEL ANVIL BENCHMARKS_DIR CPU CASE CONFIG_JSON [KEEL_ROUNDS]
// CASE is "<test>/<input index>" (as keel-bench names them); CONFIG_JSON is debug_traceCall's
// tracer options ({} or e.g. {"disableStack":true,"disableStorage":true}).
import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';

import { jsonFiles } from './json-files.mjs';

const [keel, anvil, dir, cpu, caseName, configJson, roundsArg] = process.argv.slice(2);
const config = JSON.parse(configJson);
const keelRounds = Number(roundsArg ?? 3);
const [test, index] = [caseName.slice(0, caseName.lastIndexOf('/')), Number(caseName.slice(caseName.lastIndexOf('/') + 1))];

let fixture = null;
for (const f of jsonFiles(dir)) {
  const t = JSON.parse(readFileSync(f, 'utf8'));
  if (t[test]) fixture = t[test];
}
if (!fixture) throw new Error(`no benchmark ${test} in ${dir}`);
const to = fixture.transaction.to.toLowerCase();
const code = Object.entries(fixture.pre).find(([a]) => a.toLowerCase() === to)[1].code;
const data = fixture.transaction.data[index];
const gas = BigInt(fixture.transaction.gasLimit[0]);
const from = '0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b';

// Runs `args` under /usr/bin/time pinned to the CPU; resolves with its stdout's byte count (when
// counted; else stdout is /dev/null, as in a timed run), wall milliseconds and peak RSS in MB.
function timed(args, count) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = spawn('/usr/bin/time', ['-f', '%M', 'taskset', '-c', cpu, ...args],
                    { stdio: ['ignore', count ? 'pipe' : openSync('/dev/null', 'w'), 'pipe'] });
    let bytes = 0, err = '';
    if (count) p.stdout.on('data', (b) => { bytes += b.length; });
    p.stderr.on('data', (b) => { err += b; });
    p.on('error', reject);
    p.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const rss = Number(err.trim().split('\n').pop()) / 1024;
      if (code !== 0) reject(new Error(`${args[0]} exited ${code}: ${err.slice(0, 300)}`));
      else resolve({ ms, bytes, rss });
    });
  });
}

// keel: the best of keelRounds runs writing to /dev/null (its peak memory does not depend on the
// round), and one more whose output is counted.
const flags = [];
if (config.disableStack) flags.push('--disable-stack');
if (config.disableStorage) flags.push('--disable-storage');
if (config.enableMemory) flags.push('--enable-memory');
if (config.enableReturnData) flags.push('--enable-return-data');
const keelArgs = [keel, 'evm', 'run', '--tx', '--struct-log', ...flags, '--fork', 'Prague',
  '--code', code, '--input', data, '--gas', gas.toString(), '--address', to, '--sender', from];
let best = null;
for (let r = 0; r < keelRounds; ++r) {
  const k = await timed(keelArgs, false);
  if (!best || k.ms < best.ms) best = k;
}
const counted = await timed(keelArgs, true);
console.log(JSON.stringify({ side: 'keel', name: caseName, config, ms: best.ms, bytes: counted.bytes, rss_mb: best.rss }));

// anvil: started for this case, one traced call after a warm-up eth_call of the same code.
const port = 20000 + Math.floor(Math.random() * 20000);
// taskset execs anvil: the child's pid is anvil's, whose peak RSS /proc tells before it stops.
const node = spawn('taskset', ['-c', cpu, anvil, '--port', String(port), '--silent', '--hardfork',
  'prague', '--disable-block-gas-limit', '--disable-code-size-limit'], { stdio: 'ignore' });
const stopAnvil = () => { try { node.kill('SIGKILL'); } catch {} };
process.on('exit', stopAnvil);
const url = `http://127.0.0.1:${port}`;
async function post(method, params) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
}
for (let i = 0; ; ++i) {
  try { await (await post('eth_chainId', [])).json(); break; } catch (e) {
    if (i > 100) throw new Error(`anvil did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const call = { from, to, gas: '0x' + gas.toString(16), data };
const override = { [to]: { code } };
await (await post('eth_call', [call, 'latest', override])).json();
const t0 = process.hrtime.bigint();
const res = await post('debug_traceCall', [call, 'latest', { ...config, stateOverrides: override }]);
let bytes = 0, head = '';
for await (const chunk of res.body) {
  if (head.length < 200) head += Buffer.from(chunk).toString('utf8', 0, 200);
  bytes += chunk.length;
}
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
if (!head.includes('"result"')) throw new Error(`anvil: ${head}`);
const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${node.pid}/status`, 'utf8'));
stopAnvil();
console.log(JSON.stringify({ side: 'anvil', name: caseName, config, ms, bytes, rss_mb: hwm ? Number(hwm[1]) / 1024 : null }));
