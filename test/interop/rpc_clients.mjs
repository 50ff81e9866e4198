// Real clients against keel node (issue 28): ethers 6, viem 2 and Foundry's cast 1.7.1 ask a keel
// node what wallets and tools ask, while this script plays the consensus client through the
// Engine API (JWT; forkchoiceUpdatedV3 with attributes, getPayloadV3, newPayloadV3, the new head)
// so that transactions the clients send are included and their receipts awaited. The chain is a
// fresh Cancun devnet (rpc_clients.sh writes its genesis): one funded key, 0x...01.
// Subscriptions over WebSocket (eth_subscribe) last: ethers' WebSocketProvider and viem's webSocket
// transport watch new heads, a contract's logs and the pool while a transaction is mined.
//   node rpc_clients.mjs HTTP_URL ENGINE_URL JWT_SECRET_HEX CAST WS_URL
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { ethers } from 'ethers';
import { createPublicClient, createWalletClient, http, parseGwei, webSocket } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const [url, engineUrl, secretHex, cast, wsUrl] = process.argv.slice(2);
let failures = 0, checks = 0;
const check = (name, ok, detail = '') => {
  ++checks;
  if (ok) return;
  ++failures;
  console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`);
};
const key = '0x' + '00'.repeat(31) + '01';
const chainId = 1337;

// ---- the consensus client ----------------------------------------------------------------------
const b64url = (b) => Buffer.from(b).toString('base64url');
function jwt() {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ iat: Math.floor(Date.now() / 1000) }));
  return `${head}.${claims}.${b64url(createHmac('sha256', Buffer.from(secretHex, 'hex')).update(`${head}.${claims}`).digest())}`;
}
async function rpc(target, method, params, auth) {
  const headers = { 'content-type': 'application/json' };
  if (auth) headers.authorization = `Bearer ${jwt()}`;
  const r = await fetch(target, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const j = await r.json();
  if (j.error) throw new Error(`${method}: ${JSON.stringify(j.error)}`);
  return j.result;
}
const zero = '0x' + '00'.repeat(32);
let produced = 0;
async function produce() {
  const head = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);
  const state = { headBlockHash: head.hash, safeBlockHash: head.hash, finalizedBlockHash: head.hash };
  const fcu = await rpc(engineUrl, 'engine_forkchoiceUpdatedV3', [state, {
    timestamp: '0x' + (Number(head.timestamp) + 12).toString(16), prevRandao: zero,
    suggestedFeeRecipient: '0x' + 'fe'.repeat(20), withdrawals: [], parentBeaconBlockRoot: zero }], true);
  const p = await rpc(engineUrl, 'engine_getPayloadV3', [fcu.payloadId], true);
  const s = await rpc(engineUrl, 'engine_newPayloadV3', [p.executionPayload, [], zero], true);
  if (s.status !== 'VALID') throw new Error(`newPayloadV3: ${JSON.stringify(s)}`);
  const h = p.executionPayload.blockHash;
  await rpc(engineUrl, 'engine_forkchoiceUpdatedV3', [{ headBlockHash: h, safeBlockHash: h, finalizedBlockHash: head.hash }, null], true);
  ++produced;
  return p.executionPayload;
}
// Blocks every 200 ms while `until` is pending (a client waiting for its receipt).
async function producing(until) {
  let done = false;
  until.finally(() => { done = true; });
  while (!done) {
    await produce();
    await new Promise((r) => setTimeout(r, 200));
  }
  return until;
}

// A contract: each call logs topic 0xaa with data 42 and returns 42 (17 bytes of runtime).
const runtime = '602a60005260aa60206000a160206000f3';
const initcode = '0x6011600c60003960116000f3' + runtime;
const topic = '0x' + '00'.repeat(31) + 'aa';
const fortyTwo = '0x' + '00'.repeat(31) + '2a';

// ---- ethers ----------------------------------------------------------------------------------------
const provider = new ethers.JsonRpcProvider(url, chainId, { staticNetwork: true });
provider.pollingInterval = 100;
const wallet = new ethers.Wallet(key, provider);
check('ethers chainId', (await provider.getNetwork()).chainId === BigInt(chainId));
const start = await provider.getBlockNumber();
check('ethers getBlockNumber', start === 0, String(start));
const funded = await provider.getBalance(wallet.address);
check('ethers getBalance', funded > 0n, String(funded));
const fee = await provider.getFeeData();
check('ethers getFeeData', fee.maxFeePerGas > 0n && fee.gasPrice > 0n, JSON.stringify(fee));
const to = '0x' + '12'.repeat(20);
const sent = await wallet.sendTransaction({ to, value: 1000n });
const receipt = await producing(sent.wait());
check('ethers transfer mined', receipt.status === 1 && receipt.blockNumber >= 1, JSON.stringify(receipt));
check('ethers getBalance after', (await provider.getBalance(to)) === 1000n);
const tx = await provider.getTransaction(sent.hash);
check('ethers getTransaction', tx.hash === sent.hash && tx.blockNumber === receipt.blockNumber);
const deploy = await wallet.sendTransaction({ data: initcode });
const deployed = await producing(deploy.wait());
const contract = deployed.contractAddress;
check('ethers deploy', deployed.status === 1 && contract && (await provider.getCode(contract)) === '0x' + runtime);
check('ethers call', (await provider.call({ to: contract, data: '0x' })) === fortyTwo);
const gas = await provider.estimateGas({ from: wallet.address, to: contract, data: '0x' });
check('ethers estimateGas', gas > 21000n && gas < 30000n, String(gas));
const calling = await wallet.sendTransaction({ to: contract, data: '0x' });
const called = await producing(calling.wait());
check('ethers receipt logs', called.logs.length === 1 && called.logs[0].topics[0] === topic);
const logs = await provider.getLogs({ address: contract, fromBlock: 0, toBlock: 'latest', topics: [topic] });
check('ethers getLogs', logs.length === 1 && logs[0].transactionHash === calling.hash, JSON.stringify(logs));
const block = await provider.getBlock(called.blockNumber, true);
check('ethers getBlock with transactions', block.prefetchedTransactions.some((t) => t.hash === calling.hash));

// ---- viem ------------------------------------------------------------------------------------------
const chain = { id: chainId, name: 'keel-devnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
                rpcUrls: { default: { http: [url] } } };
const pub = createPublicClient({ chain, transport: http(url), pollingInterval: 100 });
const account = privateKeyToAccount(key);
const walletClient = createWalletClient({ account, chain, transport: http(url) });
check('viem getBlockNumber', (await pub.getBlockNumber()) === BigInt(await provider.getBlockNumber()));
check('viem getChainId', (await pub.getChainId()) === chainId);
check('viem call', (await pub.call({ to: contract, data: '0x' })).data === fortyTwo);
const vhash = await walletClient.sendTransaction({ to, value: 7n, maxPriorityFeePerGas: parseGwei('1') });
const vreceipt = await producing(pub.waitForTransactionReceipt({ hash: vhash, pollingInterval: 100 }));
check('viem transfer mined', vreceipt.status === 'success');
check('viem getBalance', (await pub.getBalance({ address: to })) === 1007n);
const vlogs = await pub.getLogs({ address: contract, fromBlock: 0n, toBlock: 'latest' });
check('viem getLogs', vlogs.length === 1);
const history = await pub.getFeeHistory({ blockCount: 2, rewardPercentiles: [50] });
check('viem getFeeHistory', history.baseFeePerGas.length === 3 && history.reward.length === 2);
const count = await pub.getTransactionCount({ address: account.address });
check('viem getTransactionCount', count === 4, String(count));

// ---- cast -----------------------------------------------------------------------------------------------
const run = (...args) => execFileSync(cast, [...args, '--rpc-url', url], { encoding: 'utf8' }).trim();
check('cast block-number', Number(run('block-number')) === Number(await pub.getBlockNumber()));
check('cast chain-id', run('chain-id') === String(chainId));
check('cast balance', run('balance', to) === '1007');
check('cast block', run('block', 'latest', '--field', 'hash') === (await pub.getBlock()).hash);
check('cast tx', run('tx', calling.hash, 'to').toLowerCase() === contract.toLowerCase());
const castStatus = run('receipt', calling.hash, 'status');
check('cast receipt', castStatus === 'true' || castStatus.startsWith('1'), castStatus);
check('cast call', run('call', contract) === fortyTwo);
const est = Number(run('estimate', contract, '--from', wallet.address));
check('cast estimate', est > 21000 && est < 30000, String(est));
check('cast logs', run('logs', '--from-block', '0', '--address', contract, topic).includes(calling.hash));
check('cast code', run('code', contract) === '0x' + runtime);
check('cast storage', run('storage', contract, '0') === zero);
check('cast nonce', run('nonce', wallet.address) === '4');
const proof = JSON.parse(run('proof', wallet.address, '--json'));
check('cast proof', proof.accountProof.length > 0 && proof.nonce === '0x4');
const trace = run('rpc', 'debug_traceTransaction', calling.hash, '{"tracer":"callTracer"}');
check('cast rpc debug_traceTransaction', JSON.parse(trace).to?.toLowerCase() === contract.toLowerCase(), trace);
const ctrace = JSON.parse(run('rpc', 'trace_transaction', calling.hash));
check('cast rpc trace_transaction', ctrace.length === 1 && ctrace[0].action.to.toLowerCase() === contract.toLowerCase());
const sendOut = run('send', to, '--value', '5', '--private-key', key, '--async');
const castReceipt = await producing(pub.waitForTransactionReceipt({ hash: sendOut, pollingInterval: 100 }));
check('cast send', castReceipt.status === 'success', sendOut);
const runOut = execFileSync(cast, ['run', calling.hash, '--rpc-url', url], { encoding: 'utf8' });
check('cast run', runOut.includes('Transaction successfully executed'), runOut.slice(0, 300));

// ---- subscriptions over WebSocket ------------------------------------------------------------------
// Resolves with what `pred` first accepts among the values `on` delivers, or null after 10 s.
const first = (on, pred = () => true) => new Promise((resolve) => {
  const timer = setTimeout(() => resolve(null), 10000);
  on((v) => { if (pred(v)) { clearTimeout(timer); resolve(v); } });
});
const wsProvider = new ethers.WebSocketProvider(wsUrl, chainId);
check('ws ethers getBlockNumber', (await wsProvider.getBlockNumber()) === await provider.getBlockNumber());
const wsBlock = first((f) => wsProvider.on('block', f));
const wsLog = first((f) => wsProvider.on({ address: contract, topics: [topic] }, f));
const wsPending = first((f) => wsProvider.on('pending', f));
const wsPub = createPublicClient({ chain, transport: webSocket(wsUrl) });
const viemHead = first((f) => wsPub.watchBlocks({ onBlock: f, emitOnBegin: false }));
const viemLog = first((f) => wsPub.watchEvent({ address: contract, onLogs: (ls) => ls.forEach(f) }));
await new Promise((r) => setTimeout(r, 300));  // the subscriptions are made
const before = await provider.getBlockNumber();
const watched = await wallet.sendTransaction({ to: contract, data: '0x' });
const watchedReceipt = await producing(watched.wait());
const [gotBlock, gotLog, gotPending, gotViemHead, gotViemLog] =
  await Promise.all([wsBlock, wsLog, wsPending, viemHead, viemLog]);
check('ws ethers newHeads', gotBlock !== null && gotBlock > before, String(gotBlock));
check('ws ethers logs', gotLog?.transactionHash === watched.hash && gotLog.blockNumber === watchedReceipt.blockNumber,
      JSON.stringify(gotLog));
check('ws ethers newPendingTransactions', gotPending === watched.hash, String(gotPending));
check('ws viem watchBlocks', gotViemHead !== null && gotViemHead.number > BigInt(before) && gotViemHead.hash.length === 66,
      String(gotViemHead?.number));
check('ws viem watchEvent', gotViemLog?.transactionHash === watched.hash, JSON.stringify(gotViemLog, (k, v) => typeof v === 'bigint' ? String(v) : v));
const subId = await wsProvider.send('eth_subscribe', ['newHeads']);
check('ws eth_unsubscribe', (await wsProvider.send('eth_unsubscribe', [subId])) === true &&
      (await wsProvider.send('eth_unsubscribe', [subId])) === false);
await wsProvider.destroy();
await wsPub.transport.getRpcClient?.().then((c) => c.close()).catch(() => {});

console.log(`rpc_clients: ${checks - failures} of ${checks} checks pass (ethers, viem, cast, WebSocket subscriptions); ${produced} blocks produced through the Engine API`);
process.exit(failures === 0 ? 0 : 1);
