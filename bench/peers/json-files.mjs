// The *.json files below a folder, recursively, in sorted order (the evm-benchmarks fixtures
// for peers-evm.mjs and peers-trace.mjs).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function jsonFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...jsonFiles(p));
    else if (e.endsWith('.json')) out.push(p);
  }
  return out;
}
