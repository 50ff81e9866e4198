// hive's rpc-compat suite over HTTP, as hive's simulator runs it (../shared/vectors/rpc/SOURCES.md,
// "How the hive rpc-compat simulator runs them"), against a keel node already started on the
// suite's chain: headfcu.json sent to the Engine API with a JWT (HS256, iat now) first, then every
// .io file in lexical path order against the one node, each request with a 5 s timeout, each
// answer compared as hive compares (field for field, numbers by value, an error's message
// dropped when both sides answered an error); "speconly" files checked against the method's
// result schema from the OpenRPC sources in src/ (ajv) instead.
//
// Usage: node rpc_compat.mjs HTTP_URL ENGINE_URL JWT_SECRET_HEX SUITE_DIR MIN_PASSED
// Prints one line per file that does not pass and a summary; exits 1 when an exchange of a
// method keel serves fails (other than the known differences below, each with its reason) or
// fewer than MIN_PASSED exchanges pass.
import { createHmac } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import yaml from 'js-yaml';
import Ajv from 'ajv';

const [url, engineUrl, secretHex, suite, minPassedText] = process.argv.slice(2);
if (!minPassedText) {
  console.error('usage: node rpc_compat.mjs HTTP_URL ENGINE_URL JWT_SECRET_HEX SUITE_DIR MIN_PASSED');
  process.exit(2);
}
const minPassed = Number(minPassedText);

// Exchanges keel answers otherwise, with the reason (keel/rpc/rpc_compat_test.cpp has the same).
const known = new Map([
  ['eth_sendRawTransaction/send-blob-tx.io',
   'a blob transaction with its sidecar: the pool refuses blob transactions until keel/kzg ' +
   'verifies blob and cell proofs (EIP-4844, EIP-7594)'],
]);

const b64url = (buf) => Buffer.from(buf).toString('base64url');
function jwt() {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ iat: Math.floor(Date.now() / 1000) }));
  const sig = createHmac('sha256', Buffer.from(secretHex.replace(/^0x/, '').trim(), 'hex'))
    .update(`${head}.${claims}`).digest();
  return `${head}.${claims}.${b64url(sig)}`;
}

async function post(target, body, auth) {
  const headers = { 'content-type': 'application/json' };
  if (auth) headers.authorization = `Bearer ${jwt()}`;
  const r = await fetch(target, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${text.trim()}`);
  return JSON.parse(text);
}

// hive's comparison.
function comparable(x) {
  if (x && typeof x === 'object' && x.error && typeof x.error === 'object') {
    const { message, ...rest } = x.error;
    return { ...x, error: rest };
  }
  return x;
}
function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => equal(v, b[i]));
  if (typeof a === 'object') {
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}

// The OpenRPC sources: every method's result schema, with every shared schema beside it.
const src = join(suite, '..', 'src');
const schemas = {};
for (const dir of [join(src, 'schemas'), join(src, 'engine', 'openrpc', 'schemas')]) {
  for (const f of readdirSync(dir)) Object.assign(schemas, yaml.load(readFileSync(join(dir, f), 'utf8')));
}
const methods = {};
for (const dir of ['eth', 'debug', 'txpool', 'testing']) {
  for (const f of readdirSync(join(src, dir))) {
    for (const m of yaml.load(readFileSync(join(src, dir, f), 'utf8')) ?? []) methods[m.name] = m;
  }
}
const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new Map();
function schemaCheck(method, result) {
  if (!methods[method]) return `no schema for ${method} in src/`;
  if (!validators.has(method)) {
    validators.set(method, ajv.compile({ ...methods[method].result.schema, components: { schemas } }));
  }
  const v = validators.get(method);
  return v(result) ? null : ajv.errorsText(v.errors);
}

// Every .io file, in lexical path order.
function files(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : name.endsWith('.io') ? [p] : [];
  });
}

const fcu = await post(engineUrl, readFileSync(join(suite, 'headfcu.json'), 'utf8'), true);
if (fcu.result?.payloadStatus?.status !== 'VALID') {
  console.log(`FAIL headfcu.json: ${JSON.stringify(fcu)}`);
  process.exit(1);
}

let passed = 0, total = 0, failedServed = 0;
const notServed = new Set();
for (const file of files(suite)) {
  const rel = relative(suite, file);
  const lines = readFileSync(file, 'utf8').split('\n');
  const speconly = lines.some((l) => l.startsWith('// speconly'));
  let request = null;
  for (const line of lines) {
    if (line.startsWith('>> ')) request = line.slice(3);
    if (!line.startsWith('<< ')) continue;
    ++total;
    const want = JSON.parse(line.slice(3));
    const method = JSON.parse(request).method;
    let got, why = null;
    try {
      got = await post(url, request, false);
    } catch (e) {
      why = `no answer: ${e.message}`;
    }
    if (!why) {
      if (got.error?.code === -32601) {
        notServed.add(method);
        why = 'not served';
      } else if (speconly && 'result' in want) {
        why = 'result' in got ? schemaCheck(method, got.result) : `an error: ${JSON.stringify(got.error)}`;
      } else if (!equal(comparable(got), comparable(want))) {
        why = `got ${JSON.stringify(got).slice(0, 300)}, want ${JSON.stringify(want).slice(0, 300)}`;
      }
    }
    if (!why) {
      ++passed;
      continue;
    }
    if (why === 'not served') continue;
    if (known.has(rel)) {
      console.log(`left out ${rel}: ${known.get(rel)}`);
      continue;
    }
    ++failedServed;
    console.log(`FAIL ${rel}${speconly ? ' (speconly)' : ''}: ${why}`);
  }
}
console.log(`rpc-compat over HTTP: ${passed} of ${total} exchanges pass; not served: ${[...notServed].join(' ') || 'none'}`);
if (failedServed > 0 || passed < minPassed) {
  console.log(`rpc-compat over HTTP: ${failedServed} served exchanges fail, ${passed} pass (floor ${minPassed})`);
  process.exit(1);
}
