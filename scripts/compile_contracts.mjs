// Compiles the devnet's contracts (keel/devnet/contracts/*.sol) with solc's standard JSON
// interface and writes each deployed contract's creation bytecode, as hex on one line, beside
// its source (Token.sol -> Token.bin). With --check, compares instead and exits 1 on a difference.
// Run through scripts/compile_contracts.sh, which installs the pinned solc from npm.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const [solcDir, contractsDir, mode] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(solcDir), 'node_modules', 'x.js'));
const solc = require('solc');

const sources = {};
for (const f of fs.readdirSync(contractsDir).filter((f) => f.endsWith('.sol')).sort())
    sources[f] = { content: fs.readFileSync(path.join(contractsDir, f), 'utf8') };
const input = {
    language: 'Solidity',
    sources,
    settings: {
        optimizer: { enabled: true, runs: 200 },
        evmVersion: 'prague',
        outputSelection: { '*': { '*': ['evm.bytecode.object'] } },
    },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
let failed = false;
for (const e of output.errors ?? []) {
    if (e.severity === 'error') failed = true;
    if (e.severity === 'error' || !/selfdestruct/.test(e.message)) console.error(e.formattedMessage);
}
if (failed) process.exit(1);

let differs = 0;
for (const [file, contracts] of Object.entries(output.contracts)) {
    // One .bin per source file: the contract named like the file (Factory.sol also holds Child,
    // whose code is inside Factory's).
    const name = path.basename(file, '.sol');
    const hex = contracts[name].evm.bytecode.object + '\n';
    const out = path.join(contractsDir, name + '.bin');
    if (mode === '--check') {
        const have = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
        if (have !== hex) { console.error(`${out}: differs from solc ${solc.version()}`); differs++; }
    } else {
        fs.writeFileSync(out, hex);
        console.log(`${out}: ${(hex.length - 1) / 2} bytes`);
    }
}
if (mode === '--check') console.log(differs ? `${differs} differ` : `all match solc ${solc.version()}`);
process.exit(differs ? 1 : 0);
