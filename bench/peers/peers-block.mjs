// Side-by-side peer for `keel import`: @ethereumjs/block on the same RLP chain file (as written
// by `keel devnet gen`). For every block: decode it (header, transactions, ommers, withdrawals),
// hash the header and every transaction, and check the transactions root, ommers hash and
// withdrawals root against the header, as keel's importer does before it writes a block. No
// database: the figure is the peer's validation work alone. One thread.
//   node peers-block.mjs CHAIN.rlp MERGE_AT CHAIN_ID
import { readFileSync } from 'node:fs';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createBlockFromBytesArray } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';

const [file, mergeAt, chainId] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const bytes = new Uint8Array(readFileSync(file));
const commonFor = (hardfork) =>
  createCustomCommon({ chainId }, Mainnet, { hardfork, customCrypto: { kzg: {} } });
const london = commonFor(Hardfork.London);
const prague = commonFor(Hardfork.Prague);

// Splits the file into the blocks' item arrays (RLP.decode with stream returns the remainder).
const blocks = [];
let rest = bytes;
while (rest.length > 0) {
  const { data, remainder } = RLP.decode(rest, true);
  blocks.push(data);
  rest = remainder;
}

const start = process.hrtime.bigint();
let txs = 0;
let sink = 0;
for (let n = 0; n < blocks.length; ++n) {
  const common = n < mergeAt ? london : prague;
  const block = createBlockFromBytesArray(blocks[n], { common, skipConsensusFormatValidation: true });
  sink ^= block.hash()[0];
  for (const tx of block.transactions) sink ^= tx.hash()[0];
  if (!(await block.transactionsTrieIsValid())) throw new Error(`block ${n}: transactions root`);
  if (!block.uncleHashIsValid()) throw new Error(`block ${n}: ommers hash`);
  if (n >= mergeAt && !(await block.withdrawalsTrieIsValid())) throw new Error(`block ${n}: withdrawals root`);
  txs += block.transactions.length;
}
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
console.log(JSON.stringify({ blocks: blocks.length, txs, seconds, blocks_per_s: blocks.length / seconds, tx_per_s: txs / seconds, sink: sink & 1 }));
