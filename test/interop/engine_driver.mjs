// A consensus client's loop against keel node's Engine API, for node_crash.sh: on the hive chain
// (Osaka rules: forkchoiceUpdatedV3, getPayloadV5, newPayloadV4), again and again: attributes
// start a build on the head, the payload is fetched, imported with newPayload and made the head;
// every third round a sibling of the new block is built on the same parent and imported too (a
// side block: keel executes it, making it the head, the reorg the test wants), then the first is
// made the head again (a reorg back). Runs until killed; one line per block made the head.
//   node engine_driver.mjs HTTP_URL ENGINE_URL JWT_SECRET_HEX
import { createHmac } from 'node:crypto';

const [url, engineUrl, secretHex] = process.argv.slice(2);
const b64url = (b) => Buffer.from(b).toString('base64url');
function jwt() {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ iat: Math.floor(Date.now() / 1000) }));
  const sig = createHmac('sha256', Buffer.from(secretHex, 'hex')).update(`${head}.${claims}`).digest();
  return `${head}.${claims}.${b64url(sig)}`;
}
let id = 0;
async function call(target, method, params, auth) {
  const headers = { 'content-type': 'application/json' };
  if (auth) headers.authorization = `Bearer ${jwt()}`;
  const r = await fetch(target, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
  const j = await r.json();
  if (j.error) throw new Error(`${method}: ${JSON.stringify(j.error)}`);
  return j.result;
}
const engine = (m, p) => call(engineUrl, m, p, true);
const zero = '0x' + '00'.repeat(32);
const state = (h) => ({ headBlockHash: h, safeBlockHash: zero, finalizedBlockHash: zero });

async function build(parent, time) {
  const fcu = await engine('engine_forkchoiceUpdatedV3', [state(parent), {
    timestamp: '0x' + time.toString(16), prevRandao: zero,
    suggestedFeeRecipient: '0x' + '00'.repeat(19) + '01', withdrawals: [], parentBeaconBlockRoot: zero }]);
  const p = await engine('engine_getPayloadV5', [fcu.payloadId]);
  const s = await engine('engine_newPayloadV4', [p.executionPayload, [], zero, p.executionRequests]);
  if (s.status !== 'VALID') throw new Error(`newPayload: ${JSON.stringify(s)}`);
  return p.executionPayload.blockHash;
}

for (let round = 0; ; ++round) {
  const head = await call(url, 'eth_getBlockByNumber', ['latest', false], false);
  const time = Number(head.timestamp);
  const block = await build(head.hash, time + 12);
  if (round % 3 === 2) {
    await build(head.hash, time + 13);  // a sibling: imported, and the head for a moment
  }
  const r = await engine('engine_forkchoiceUpdatedV3', [state(block), null]);
  if (r.payloadStatus.status !== 'VALID') throw new Error(`forkchoiceUpdated: ${JSON.stringify(r)}`);
  console.log(`head ${Number(head.number) + 1} ${block}`);
}
