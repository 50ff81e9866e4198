// Side-by-side peer for keel/rlpx: @ethereumjs/devp2p 10.0.0 moving messages over loopback the
// way `keel p2p bench` does: a receiving node in one process, a sending node in another (this
// script spawns itself for the sender), handshake, Hello, eth/68 Status, then BlockBodies-shaped
// messages [request-id, [blob]] of 1 KiB, 64 KiB and 1 MiB of incompressible bytes, as fast as
// the sender can write them for SECONDS each. Prints one JSON line per size: MB/s and messages/s
// counted at the receiver.
//   node peers-rlpx.mjs [SECONDS]
import { spawn } from 'node:child_process';
import { Common, Mainnet } from '@ethereumjs/common';
import { ETH, RLPx } from '@ethereumjs/devp2p';
import { bytesToHex, hexToBytes, intToBytes } from '@ethereumjs/util';

const genesis = hexToBytes('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3');
const node = (keyByte, port) =>
  new RLPx(new Uint8Array(32).fill(keyByte), {
    maxPeers: 2,
    capabilities: [ETH.eth68],
    common: new Common({ chain: Mainnet }),
    clientId: 'ethereumjs-devp2p/bench',
    timeout: 60000,
    listenPort: port ?? null,
  });
const status = (eth) =>
  eth.sendStatus({ td: hexToBytes('0x0400'), bestHash: genesis, genesisHash: genesis, latestBlock: new Uint8Array() });

if (process.argv[2] === 'send') {
  // Sender: dial, then write messages of `size` bytes for `seconds`, then disconnect.
  const [, , , enodeId, port, sizeArg, secondsArg] = process.argv;
  const size = Number(sizeArg), seconds = Number(secondsArg);
  const blob = new Uint8Array(size);
  let x = 0x9e3779b9;
  for (let i = 0; i < size; ++i) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    blob[i] = x & 0xff;
  }
  const rlpx = node(0xb2);
  rlpx.events.on('peer:added', (peer) => {
    const eth = peer.getProtocols()[0];
    eth.events.on('status', () => {
      const end = Date.now() + seconds * 1000;
      let id = 0;
      const pump = () => {
        // Write a batch, then yield to the event loop so the socket can drain.
        for (let k = 0; k < 16 && Date.now() < end; ++k) eth.sendMessage(6, [intToBytes(++id), [blob]]);
        if (Date.now() < end) setImmediate(pump);
        else setTimeout(() => { peer.disconnect(0); setTimeout(() => process.exit(0), 300); }, 100);
      };
      pump();
    });
    status(eth);
  });
  rlpx.connect({ id: hexToBytes('0x' + enodeId), address: '127.0.0.1', tcpPort: Number(port) });
} else {
  const seconds = Number(process.argv[2] ?? 1);
  const sizes = [1 << 10, 64 << 10, 1 << 20];
  const results = [];
  const runSize = (i) => {
    if (i === sizes.length) {
      for (const r of results) console.log(JSON.stringify(r));
      process.exit(0);
    }
    const size = sizes[i], port = 31500 + i;
    const rlpx = node(0xa1, port);
    let count = 0, bytes = 0, first = 0, last = 0;
    rlpx.events.on('peer:added', (peer) => {
      const eth = peer.getProtocols()[0];
      eth.events.on('message', (code, payload) => {
        if (code !== 6) return;
        if (count === 0) first = Date.now();
        last = Date.now();
        ++count;
        bytes += payload[1][0].length;
      });
      status(eth);
    });
    rlpx.events.on('peer:removed', () => {
      const secs = Math.max(1e-3, (last - first) / 1000);
      results.push({ size, messages: count, seconds: secs, MB_per_s: bytes / secs / 1e6, messages_per_s: count / secs });
      rlpx.destroy();
      setTimeout(() => runSize(i + 1), 200);
    });
    rlpx.listen(port, '127.0.0.1');
    const sender = spawn(process.execPath, [process.argv[1], 'send', bytesToHex(rlpx.id).slice(2), String(port), String(size), String(seconds)], { stdio: 'ignore' });
    sender.on('error', () => process.exit(1));
  };
  runSize(0);
}
