// keel node under hostile load, while a well-behaved client keeps asking (issue 28, "Reliability
// and security"):
//   - 1,000 connections opened at once and left idle;
//   - 5 slow clients, each sending a request's bytes one at a time, 5 a second;
//   - 10,000 malformed requests over 16 keep-alive connections: bad JSON, wrong types, huge
//     numbers, deep nesting, giant batches, unknown methods, bodies of control characters;
//   - meanwhile eth_blockNumber every 100 ms, each answer within 2 s.
// Every malformed request must get HTTP 200 with valid JSON-RPC (or an empty body for
// notifications only) or 413; the node must answer eth_chainId at the end.
//   node rpc_abuse.mjs URL
import net from 'node:net';

const url = process.argv[2];
const { hostname, port } = new URL(url);
const fail = (m) => { console.log(`FAIL ${m}`); process.exitCode = 1; };

// The malformed bodies: a deterministic mix.
function body(i) {
  const k = i % 12;
  switch (k) {
    case 0: return '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":[' + '9'.repeat(400) + ']}';
    case 1: return '{"jsonrpc":"2.0","id":' + i + ',"method":"eth_getBlockByNumber","params":["0x' + 'f'.repeat(2000) + '",true]}';
    case 2: return '['.repeat(5000) + ']'.repeat(5000);
    case 3: return JSON.stringify(Array.from({ length: 1500 }, (_, j) => ({ jsonrpc: '2.0', id: j, method: 'eth_chainId' })));
    case 4: return '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":7,"data":[1,2]},{"x":[]}]}';
    case 5: return '{"jsonrpc":"2.0","id":1,"method":"' + 'x'.repeat(300) + '"}';
    case 6: return '{"jsonrpc":"2.0","id":{"a":1},"method":"eth_chainId","params":{}}';
    case 7: return '\u0001\u0002{"jsonrpc":"2.0"' + '\u0000'.repeat(100);
    case 8: return '{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{"fromBlock":"0x0","toBlock":"0xffffffffffffffff","topics":[[],[],[],[],[],[]]}]}';
    case 9: return '{"jsonrpc":"2.0","id":1,"method":"eth_feeHistory","params":["0xffffffffffffffff","latest",[1e308,-1]]}';
    case 10: return '{"jsonrpc":"2.0","id":1,"method":"debug_traceTransaction","params":["0x01",{"tracer":"' + 'z'.repeat(100) + '","timeout":"9999999999h"}]}';
    default: return '{"jsonrpc":"2.0","id":1,"method":"eth_getStorageValues","params":[{"0x00":["0x' + '1'.repeat(65) + '"]},"latest"]}';
  }
}

function validAnswer(text) {
  if (text === '') return true;
  let j;
  try { j = JSON.parse(text); } catch { return false; }
  const one = (a) => a && a.jsonrpc === '2.0' && ('result' in a) !== ('error' in a) &&
                     (!a.error || (Number.isInteger(a.error.code) && typeof a.error.message === 'string'));
  return Array.isArray(j) ? j.length > 0 && j.every(one) : one(j);
}

async function post(b, timeout = 10000) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: b,
                               signal: AbortSignal.timeout(timeout) });
  return { status: r.status, text: await r.text() };
}

// 1,000 idle connections.
const idle = [];
await Promise.all(Array.from({ length: 1000 }, () => new Promise((resolve) => {
  const s = net.connect({ host: hostname, port: Number(port) }, resolve);
  s.on('error', () => resolve());
  idle.push(s);
})));
const connected = idle.filter((s) => !s.destroyed && s.readyState === 'open').length;
if (connected < 1000) fail(`only ${connected} of 1,000 idle connections opened`);

// 5 slow clients.
const request = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 48\r\n\r\n' +
                '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
const slow = Array.from({ length: 5 }, () => {
  const s = net.connect({ host: hostname, port: Number(port) });
  s.on('error', () => {});
  let at = 0;
  const timer = setInterval(() => {
    if (at < request.length && !s.destroyed) s.write(request[at++]);
  }, 200);
  return { s, timer };
});

// The well-behaved client.
let asked = 0, late = 0;
let watching = true;
const watcher = (async () => {
  while (watching) {
    const t0 = performance.now();
    try {
      const r = await post('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}', 2000);
      if (!validAnswer(r.text) || !JSON.parse(r.text).result) fail(`eth_blockNumber answered ${r.text}`);
    } catch (e) {
      ++late;
      fail(`eth_blockNumber got no answer within 2 s (${e.name})`);
    }
    ++asked;
    const left = 100 - (performance.now() - t0);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }
})();

// 10,000 malformed requests, 16 at a time.
let next = 0, bad = 0;
const t0 = performance.now();
await Promise.all(Array.from({ length: 16 }, async () => {
  while (next < 10000) {
    const i = next++;
    try {
      const r = await post(body(i));
      if (!(r.status === 413 || (r.status === 200 && validAnswer(r.text)))) {
        if (++bad <= 5) fail(`malformed request ${i % 12}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
      }
    } catch (e) {
      if (++bad <= 5) fail(`malformed request ${i % 12}: ${e.message}`);
    }
  }
}));
const s = (performance.now() - t0) / 1000;
watching = false;
await watcher;
for (const { s: sock, timer } of slow) { clearInterval(timer); sock.destroy(); }
for (const sock of idle) sock.destroy();
const end = await post('{"jsonrpc":"2.0","id":9,"method":"eth_chainId"}');
if (!validAnswer(end.text) || !JSON.parse(end.text).result) fail(`eth_chainId at the end: ${end.text}`);
console.log(`rpc_abuse: 10,000 malformed requests in ${s.toFixed(1)} s (${bad} wrong answers) beside ` +
            `${connected} idle connections and 5 slow clients; eth_blockNumber asked ${asked} times, ` +
            `${late} late`);
