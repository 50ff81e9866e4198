// The @ethereumjs/devp2p side of keel's RLPx interoperability test (test/interop/rlpx_interop.sh).
//   node peer.mjs listen PORT KEYHEX     serve on 127.0.0.1:PORT; prints "enode <url>" first
//   node peer.mjs dial ENODE KEYHEX N    connect to a keel listener (keel p2p listen --echo)
// Speaks p2p v5, eth/68 and snap/1 (so the two capabilities' code ranges, eth at 0x10-0x20 and
// snap at 0x21-0x28, are exercised when keel runs both): after Hello it sends an eth/68 Status
// and takes keel's. Listening, it echoes every other eth or snap message back with the same
// code and payload, so keel can check that a stream of large messages crosses intact;
// dialling, it sends N BlockBodies messages of 1 MiB and, when snap is shared, one snap
// GetAccountRange, checks that keel echoes each one intact on its capability, pings, and
// disconnects ("requested"). Every event is one JSON line on stdout. Exit 0: listening, when
// keel disconnected with "requested"; dialling, when all came back intact. 1 on anything else
// or after 60 s.
import { Common, Mainnet } from '@ethereumjs/common';
import { ETH, RLPx, SNAP } from '@ethereumjs/devp2p';
import { bytesToHex, hexToBytes, intToBytes } from '@ethereumjs/util';

const [mode, target, keyHex, countArg] = process.argv.slice(2);
const count = Number(countArg ?? 0);
const log = (event, fields = {}) => console.log(JSON.stringify({ event, ...fields }));
const common = new Common({ chain: Mainnet });
const rlpx = new RLPx(hexToBytes('0x' + keyHex), {
  maxPeers: 4,
  capabilities: [ETH.eth68, SNAP.snap],
  common,
  clientId: 'ethereumjs-devp2p/interop',
  timeout: 30000,
});

const genesis = hexToBytes('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3');
let echoed = 0;

rlpx.events.on('peer:added', (peer) => {
  const hello = peer._hello;
  log('hello', {
    client: hello.clientId,
    protocolVersion: hello.protocolVersion,
    capabilities: hello.capabilities.map((c) => `${c.name}/${c.version}`),
    id: bytesToHex(hello.id),
  });
  const protocols = peer.getProtocols();
  const eth = protocols.find((p) => p instanceof ETH);
  const snap = protocols.find((p) => p instanceof SNAP);
  log('shared', { capabilities: protocols.map((p) => (p instanceof ETH ? 'eth' : 'snap')) });
  // GetAccountRange [request-id, root, origin, limit, bytes], sent and echoed on snap.
  const accountRange = [intToBytes(7), genesis, new Uint8Array(32), new Uint8Array(32).fill(0xff), intToBytes(1 << 19)];
  let snapEchoed = snap === undefined;
  const maybeDone = () => {
    if (echoed !== count || !snapEchoed) return;
    peer._sendPing();
    setTimeout(() => {
      log('done', { echoed, snap: snap !== undefined });
      peer.disconnect(0);  // DISCONNECT_REQUESTED
      setTimeout(() => process.exit(0), 500);
    }, 300);
  };
  if (snap !== undefined) {
    snap.events.on('message', (code, payload) => {
      if (mode === 'listen') {
        snap.sendMessage(code, payload);  // echo
        log('snap echo', { code });
        return;
      }
      const same = code === 0 && payload.length === accountRange.length &&
        payload.every((item, k) => bytesToHex(item) === bytesToHex(accountRange[k]));
      log('snap echoed', { code, intact: same });
      if (!same) process.exit(1);
      snapEchoed = true;
      maybeDone();
    });
  }
  eth.events.on('status', (status) => {
    log('status', {
      networkId: bytesToHex(status.chainId),
      td: bytesToHex(status.td),
      bestHash: bytesToHex(status.bestHash),
      genesisHash: bytesToHex(status.genesisHash),
    });
  });
  const blob = (i) => {
    const b = new Uint8Array(1 << 20);
    for (let k = 0; k < b.length; ++k) b[k] = (k * 131 + i * 7) & 0xff;
    return b;
  };
  const sent = [];
  eth.events.on('message', (code, payload) => {
    if (code === 0) return;  // ethereumjs reports the Status as a message too
    if (mode === 'listen') {
      eth.sendMessage(code, payload);  // echo
      ++echoed;
      log('echo', { code, count: echoed });
      return;
    }
    // Dialling: keel's echo of our message number `echoed`.
    const want = sent[echoed];
    const got = payload[1][0];
    const same = want !== undefined && got.length === want.length && got.every((v, k) => v === want[k]);
    ++echoed;
    log('echoed', { code, count: echoed, intact: same });
    if (!same) process.exit(1);
    maybeDone();
  });
  eth.events.on('status', () => {
    if (mode !== 'dial') return;
    for (let i = 0; i < count; ++i) {
      sent.push(blob(i));
      eth.sendMessage(6, [intToBytes(i), [sent[i]]]);  // BlockBodies [request-id, [body]]
    }
    if (snap !== undefined) snap.sendMessage(0, accountRange);
  });
  eth.sendStatus({
    td: hexToBytes('0x0400'),
    bestHash: genesis,
    genesisHash: genesis,
    latestBlock: new Uint8Array(),
  });
});

rlpx.events.on('peer:removed', (peer, reason, disconnectWe) => {
  const code = typeof reason === 'number' ? reason : -1;
  log('disconnect', { reason: code, byUs: disconnectWe === true, echoed });
  if (mode === 'dial') return;  // the dialling side exits once its stream is done
  rlpx.destroy();
  process.exit(code === 0 && disconnectWe !== true ? 0 : 1);
});
rlpx.events.on('peer:error', (peer, err) => log('error', { message: String(err && err.message) }));
rlpx.events.on('error', (err) => log('error', { message: String(err && err.message) }));
setTimeout(() => {
  log('timeout');
  process.exit(1);
}, 60000).unref();

if (mode === 'listen') {
  const port = Number(target);
  rlpx.events.on('listening', () => {
    log('enode', { url: `enode://${bytesToHex(rlpx.id).slice(2)}@127.0.0.1:${port}` });
  });
  rlpx.listen(port, '127.0.0.1');
} else if (mode === 'dial') {
  const m = /^enode:\/\/([0-9a-f]{128})@([0-9.]+):(\d+)$/.exec(target);
  if (!m) {
    log('error', { message: `bad enode ${target}` });
    process.exit(2);
  }
  rlpx.connect({ id: hexToBytes('0x' + m[1]), address: m[2], tcpPort: Number(m[3]) }).catch((err) => {
    log('error', { message: String(err && err.message) });
    process.exit(1);
  });
} else {
  console.error('usage: node peer.mjs listen PORT KEYHEX | dial ENODE KEYHEX');
  process.exit(2);
}
