// The ethereumjs side of bench/side_by_side_execute.sh: executes the first blocks of a chain
// file made by `keel devnet gen --contracts` with @ethereumjs/vm's runBlock on its genesis state
// (@ethereumjs/statemanager's Merkle state manager in memory), each block's state root, receipts
// root, bloom and gas used checked by runBlock against its header (keel's import also checks the
// header against its parent; runBlock has no blockchain to do that: skipHeaderValidation).
//   node peers-execute.mjs GENESIS.json CHAIN.rlp BLOCKS
// Prints one line: "ethereumjs: BLOCKS blocks, GAS gas, SECONDS s" (wall time of decoding and
// running the blocks, after the genesis state is built).
import fs from 'node:fs';
import { createCommonFromGethGenesis, parseGethGenesisState } from '@ethereumjs/common';
import { createBlockFromRLP } from '@ethereumjs/block';
import { createVM, runBlock } from '@ethereumjs/vm';

const [genesisPath, chainPath, blocksArg] = process.argv.slice(2);
const genesis = JSON.parse(fs.readFileSync(genesisPath, 'utf8'));
// Blocks carry blob transactions without sidecars: their versioned hashes are all execution
// sees, and no KZG proof is checked. @ethereumjs/tx still wants a KZG object to build a blob
// transaction; this one refuses every use, so none happens unnoticed.
const kzg = new Proxy({}, { get: (_, name) => () => { throw new Error(`kzg.${String(name)} called`); } });
const common = createCommonFromGethGenesis(genesis, { chain: 'keel-devnet', customCrypto: { kzg } });
const vm = await createVM({ common });
await vm.stateManager.generateCanonicalGenesis(parseGethGenesisState(genesis));

// The blocks of the file: each one RLP list, back to back.
const file = fs.readFileSync(chainPath);
function listEnd(at) {
    const b = file[at];
    if (b < 0xc0) throw new Error(`offset ${at}: not a list`);
    if (b <= 0xf7) return at + 1 + (b - 0xc0);
    const n = b - 0xf7;
    let len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + file[at + 1 + i];
    return at + 1 + n + len;
}
const want = Number(blocksArg);
let at = listEnd(0);  // block 0 is the genesis
let gas = 0n;
let blocks = 0;
const t0 = performance.now();
while (blocks < want && at < file.length) {
    const end = listEnd(at);
    const block = createBlockFromRLP(file.subarray(at, end), { common });
    const r = await runBlock(vm, { block, skipHardForkValidation: true, skipHeaderValidation: true });
    gas += r.gasUsed;
    blocks++;
    at = end;
}
const seconds = (performance.now() - t0) / 1000;
console.log(`ethereumjs: ${blocks} blocks, ${gas} gas, ${seconds.toFixed(2)} s`);
