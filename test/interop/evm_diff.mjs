// keel's EVM against anvil's (Foundry's node on revm), program by program: COUNT generated
// programs (seeded, reproducible) each run as a transaction on both and compared on status,
// gas used, output, logs and every account the transaction changed, and on their callTracer,
// prestateTracer (with and without diffMode) and trace_transaction results, frame by frame and
// account by account.
//
//   node evm_diff.mjs KEEL PORT COUNT SEED
//
// anvil runs with --hardfork prague --base-fee 0 --gas-price 0 --chain-id 1 (started by
// evm_diff.sh). For each program: a fresh contract address holds the code (anvil_setCode,
// nonce 1, balance 1 ether), the node's first account sends it a transaction with gas price 0
// and random call data, and the receipt (status, gasUsed, logs), the call tracer (output) and
// the prestate tracer in diff mode (state changes) are read back. keel runs the same code as
// the same transaction (`keel evm run --tx --json`, same addresses, nonce and balances).
//
// The generator: random instructions with their arguments pushed first (valid stack shapes),
// values from edge-case sets (0, 1, 2^255, 2^256-1, ...), memory offsets and sizes mostly
// small, storage and transient keys 0-3, calls (CALL, CALLCODE, DELEGATECALL, STATICCALL) to
// itself, to the sender, to every Prague precompile and to an empty address, creates
// (CREATE, CREATE2) of small init codes that return code, revert or deposit 0xEF code, logs,
// forward jumps, and an ending (RETURN, REVERT, STOP, INVALID, SELFDESTRUCT, or none). Opcodes
// whose values the two sides do not share are left out: BLOCKHASH, COINBASE, TIMESTAMP, NUMBER,
// PREVRANDAO, GASLIMIT, BLOBBASEFEE. Value only goes to addresses no later program reads
// (itself, the sender, a per-program empty address), so every program starts from the same
// state on both sides.
import { spawnSync } from 'node:child_process';

const [keel, port, countArg, seedArg] = process.argv.slice(2);
const count = Number(countArg ?? 200);
let seed = Number(seedArg ?? 1) >>> 0 || 1;
const url = `http://127.0.0.1:${port}`;

// xorshift32: reproducible across runs and machines.
function rnd() {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
}
const int = (n) => Math.floor(rnd() * n);
const pick = (a) => a[int(a.length)];
const hex = (n, bytes) => n.toString(16).padStart(bytes * 2, '0');

let id = 0;
async function rpc(method, params) {
  const res = await fetch(url, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const j = await res.json();
  if (j.error) throw new Error(`${method}: ${j.error.message}`);
  return j.result;
}

// ---- the generator ------------------------------------------------------------------------
const M256 = (1n << 256n) - 1n;
const words = [0n, 1n, 2n, 3n, 7n, 31n, 32n, 33n, 255n, 256n, 0x7fn, 0x80n, (1n << 64n) - 1n,
  1n << 64n, 1n << 128n, 1n << 255n, (1n << 255n) - 1n, M256, M256 - 1n];
function word() {
  const r = rnd();
  if (r < 0.6) return pick(words);
  if (r < 0.8) return BigInt(int(1 << 16));
  let v = 0n;
  for (let i = 0; i < 8; ++i) v = (v << 32n) | BigInt(int(2 ** 32));
  return v;
}
const offset = () => (rnd() < 0.993 ? BigInt(int(288)) : pick([1024n, 1n << 32n, M256]));
const size = () => (rnd() < 0.993 ? BigInt(int(80)) : pick([256n, 1n << 32n, M256]));
// RETURNDATACOPY reads within the last call's output mostly (past it is an exceptional halt).
const rdSpan = () => pick([0n, 0n, 1n, 32n, 33n]);
const key = () => BigInt(int(4));

function push(v) {
  if (v === 0n) return '5f';
  const h = v.toString(16);
  const n = Math.ceil(h.length / 2);
  return hex(0x5f + n, 1) + h.padStart(n * 2, '0');
}

// The programs' addresses, set per program.
let self = 0n, sender = 0n, other = 0n;
const precompiles = [...Array(0x11).keys()].map((i) => BigInt(i + 1)).concat([0x100n]);
const callee = () => pick([self, self, sender, other, ...precompiles]);
const payee = () => pick([self, sender, other]);

// Init codes for CREATE/CREATE2: copy the runtime part and return it; or revert; or return
// code starting with 0xEF (refused since London, EIP-3541).
function initCode() {
  const runtime = pick(['600160005260206000f3', '00', 'ef00', '6042ff', '']);
  if (rnd() < 0.15) return '60006000fd';  // REVERT(0, 0)
  const n = runtime.length / 2;
  const body = `60${hex(n, 1)}600c60003960${hex(n, 1)}6000f3`;  // CODECOPY(0, 12, n) RETURN(0, n)
  return body + runtime;
}
// Writes `code` into memory at 0x200 with MSTOREs and leaves (offset, size) for a create.
function memCode(code) {
  let out = '';
  const padded = code.padEnd(Math.ceil(code.length / 64) * 64, '0');
  for (let i = 0; i < padded.length / 64; ++i)
    out += push(BigInt('0x' + padded.slice(i * 64, i * 64 + 64))) + push(0x200n + BigInt(32 * i)) + '52';
  return { out, size: BigInt(code.length / 2) };
}

// [opcode, argument makers]; the arguments are pushed last-first so the first is on top.
const W = word, O = offset, S = size, K = key;
const ops = [
  ...[0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16,
    0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d].map((op) => [op, [W, W]]),
  [0x08, [W, W, W]], [0x09, [W, W, W]], [0x15, [W]], [0x19, [W]],
  [0x20, [O, S]], [0x30, []], [0x31, [callee]], [0x32, []], [0x33, []], [0x34, []],
  [0x35, [O]], [0x36, []], [0x37, [O, O, S]], [0x38, []], [0x39, [O, O, S]], [0x3a, []],
  [0x3b, [callee]], [0x3c, [callee, O, O, S]], [0x3d, []], [0x3e, [O, rdSpan, rdSpan]],
  [0x3f, [callee]],
  [0x46, []], [0x47, []], [0x48, []], [0x49, [W]],
  [0x50, [W]], [0x51, [O]], [0x52, [O, W]], [0x53, [O, W]], [0x54, [K]], [0x55, [K, W]],
  [0x58, []], [0x59, []], [0x5a, []], [0x5c, [K]], [0x5d, [K, W]], [0x5e, [O, O, S]],
  [0xa0, [O, S]], [0xa1, [O, S, W]], [0xa2, [O, S, W, W]], [0xa3, [O, S, W, W, W]],
  [0xa4, [O, S, W, W, W, W]],
];
const callGas = () => pick([0n, 100n, 3000n, 50000n, 400000n]);
const value = () => (rnd() < 0.8 ? 0n : BigInt(1 + int(1000)));

function program() {
  let code = '';
  let depth = 0;
  const jumps = [];  // pending forward jumps: { at (index of the PUSH2 payload in code), due }
  const steps = 3 + int(30);
  for (let step = 0; step < steps; ++step) {
    for (const j of jumps) {
      if (j.due === step && !j.done) {
        j.done = true;
        const dest = code.length / 2;
        code = code.slice(0, j.at) + hex(dest, 2) + code.slice(j.at + 4) + '5b';  // JUMPDEST
      }
    }
    const r = rnd();
    if (r < 0.08) {  // a call
      const kind = pick([0xf1, 0xf1, 0xf2, 0xf4, 0xfa]);
      const to = callee();
      const args = [callGas(), to];
      if (kind === 0xf1 || kind === 0xf2) args.push(precompiles.includes(to) ? 0n : value());
      args.push(offset(), size(), offset(), size());
      for (let i = args.length - 1; i >= 0; --i) code += push(args[i]);
      code += hex(kind, 1);
      depth += 1;
    } else if (r < 0.12) {  // a create
      const { out, size: n } = memCode(initCode());
      code += out;
      const v = rnd() < 0.8 ? 0n : 1n;
      if (rnd() < 0.5) code += push(n) + push(0x200n) + push(v) + 'f0';
      else code += push(word()) + push(n) + push(0x200n) + push(v) + 'f5';
      depth += 1;
    } else if (r < 0.15) {  // a forward jump, conditional or not, over the next few steps
      const conditional = rnd() < 0.5;
      if (conditional) code += push(BigInt(int(2)));
      code += '61';  // PUSH2 of the destination, filled in when it is reached
      jumps.push({ at: code.length, due: step + 1 + int(4) });
      code += '0000' + (conditional ? '57' : '56');
    } else if (r < 0.22 && depth > 0) {  // DUP or SWAP within the stack, or POP
      const n = 1 + int(Math.min(depth, 16));
      const which = int(3);
      if (which === 0) { code += hex(0x7f + n, 1); depth += 1; }
      else if (which === 1 && depth > n) code += hex(0x8f + n, 1);
      else { code += '50'; depth -= 1; }
    } else {
      const [op, args] = pick(ops);
      for (let i = args.length - 1; i >= 0; --i) code += push(args[i]());
      code += hex(op, 1);
      const outputs = (op >= 0x50 && op <= 0x5e && ![0x51, 0x54, 0x58, 0x59, 0x5a, 0x5c].includes(op)) ||
        (op >= 0xa0 && op <= 0xa4) || [0x37, 0x39, 0x3c, 0x3e].includes(op) ? 0 : 1;
      depth += outputs;
    }
  }
  // Jumps still pending land here.
  for (const j of jumps) {
    if (!j.done) {
      const dest = code.length / 2;
      code = code.slice(0, j.at) + hex(dest, 2) + code.slice(j.at + 4) + '5b';
      j.done = true;
    }
  }
  const end = rnd();
  if (end < 0.35) code += push(size()) + push(offset()) + 'f3';
  else if (end < 0.5) code += push(size()) + push(offset()) + 'fd';
  else if (end < 0.6) code += '00';
  else if (end < 0.65) code += 'fe';
  else if (end < 0.72) code += push(payee()) + 'ff';
  return '0x' + code;
}

// ---- one program on both sides ------------------------------------------------------------
function normAnvil(diff, coinbase) {
  const out = {};
  const addrs = new Set([...Object.keys(diff.pre ?? {}), ...Object.keys(diff.post ?? {})]);
  for (const a of addrs) {
    if (a === coinbase) continue;
    const pre = diff.pre?.[a], post = diff.post?.[a];
    if (pre && !post) { out[a] = { deleted: true }; continue; }
    const slots = {};
    for (const k of new Set([...Object.keys(pre?.storage ?? {}), ...Object.keys(post?.storage ?? {})])) {
      const v = BigInt(post?.storage?.[k] ?? '0x0');
      if (v !== 0n || pre?.storage?.[k] !== undefined) slots[BigInt(k).toString(16)] = v.toString(16);
    }
    out[a] = {
      balance: BigInt(post?.balance ?? pre?.balance ?? '0x0').toString(16),
      nonce: Number(post?.nonce ?? pre?.nonce ?? 0),
      code: (post?.code ?? pre?.code ?? '0x').toLowerCase(),
      storage: slots,
    };
  }
  return out;
}

function normKeel(changes, preCode) {
  const out = {};
  for (const [a, c] of Object.entries(changes)) {
    if (c.deleted) { out[a] = { deleted: true }; continue; }
    const slots = {};
    for (const [k, v] of Object.entries(c.storage)) slots[BigInt(k).toString(16)] = BigInt(v).toString(16);
    out[a] = { balance: BigInt(c.balance).toString(16), nonce: c.nonce,
               code: (c.code ?? preCode[a] ?? '0x').toLowerCase(), storage: slots };
  }
  return out;
}

const stable = (v) => JSON.stringify(v, Object.keys(v ?? {}).sort());
function sameState(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = a[k], y = b[k];
    if (!x || !y) return `account ${k}: ${x ? 'only anvil' : 'only keel'} reports a change (${stable(x ?? y)})`;
    if (x.deleted || y.deleted) {
      if (!(x.deleted && y.deleted)) return `account ${k}: deleted on one side only`;
      continue;
    }
    for (const f of ['balance', 'nonce', 'code'])
      if (x[f] !== y[f]) return `account ${k}: ${f} anvil ${x[f]}, keel ${y[f]}`;
    const sk = new Set([...Object.keys(x.storage), ...Object.keys(y.storage)]);
    for (const s of sk)
      if ((x.storage[s] ?? '0') !== (y.storage[s] ?? '0'))
        return `account ${k}: slot 0x${s} anvil 0x${x.storage[s] ?? '0'}, keel 0x${y.storage[s] ?? '0'}`;
  }
  return null;
}

// ---- struct logs ----------------------------------------------------------------------------
// Every STRUCT_EVERY-th program (KEEL_EVM_DIFF_STRUCT_EVERY, default 4; 0: none) is also traced
// by both sides' struct (opcode) logger, debug_traceTransaction's default tracer, under one of
// four configurations in turn, and the two results compared step by step on every member, but
// for two known differences of reporting (docs/evm.md, "Traces"): the gasCost of a step that
// fails (keel, as EELS, the whole cost it could not pay; revm what it had charged when it
// stopped) and of CREATE/CREATE2 (keel, as geth, the instruction's own cost; revm the gas the
// whole creation used), and storage on a failing step and after a failing SSTORE (keel, as
// geth's logger, shows the slot a failing SLOAD read and records a failing SSTORE's value for
// the steps after it; revm shows an empty object on the failing step and records nothing).
// Error texts are each client's own words: only where an error is reported is compared.
const structEvery = Number(process.env.KEEL_EVM_DIFF_STRUCT_EVERY ?? 4);
const structConfigs = [
  { config: {}, flags: [] },
  { config: { disableStack: true }, flags: ['--disable-stack'] },
  { config: { enableMemory: true, enableReturnData: true }, flags: ['--enable-memory', '--enable-return-data'] },
  { config: { disableStorage: true }, flags: ['--disable-storage'] },
];
const normWord = (w) => '0x' + BigInt(w.startsWith('0x') ? w : '0x' + w).toString(16).padStart(64, '0');
function normStorage(s) {
  if (s === undefined) return undefined;
  return stable(Object.fromEntries(Object.entries(s).map(([k, v]) => [normWord(k), normWord(v)])));
}
function structLogDiff(theirs, mine) {
  for (const f of ['gas', 'failed']) if (theirs[f] !== mine[f]) return `${f}: anvil ${theirs[f]}, keel ${mine[f]}`;
  if ((theirs.returnValue ?? '0x').replace(/^(0x)?/, '0x').toLowerCase() !== mine.returnValue)
    return `returnValue: anvil ${theirs.returnValue}, keel ${mine.returnValue}`;
  const a = theirs.structLogs, b = mine.structLogs;
  let storageComparable = true;
  for (let i = 0; i < Math.min(a.length, b.length); ++i) {
    const x = a[i], y = b[i];
    if (('error' in x) !== ('error' in y)) return `step ${i} (pc ${y.pc} ${y.op}): error anvil ${x.error}, keel ${y.error}`;
    const costCompared = !('error' in y) && y.op !== 'CREATE' && y.op !== 'CREATE2';
    for (const f of ['pc', 'op', 'gas', 'gasCost', 'depth', 'refund'])
      if (x[f] !== y[f] && (f !== 'gasCost' || costCompared))
        return `step ${i} (pc ${y.pc} ${y.op}): ${f} anvil ${x[f]}, keel ${y[f]}`;
    for (const f of ['stack', 'memory', 'returnData'])
      if (stable(x[f]) !== stable(y[f]))
        return `step ${i} (pc ${y.pc} ${y.op}): ${f} anvil ${stable(x[f])?.slice(0, 200)}, keel ${stable(y[f])?.slice(0, 200)}`;
    if ('error' in y && y.op === 'SSTORE') storageComparable = false;
    if (storageComparable && !('error' in y) && normStorage(x.storage) !== normStorage(y.storage))
      return `step ${i} (pc ${y.pc} ${y.op}): storage anvil ${normStorage(x.storage)}, keel ${normStorage(y.storage)}`;
  }
  if (a.length !== b.length) return `steps: anvil ${a.length}, keel ${b.length}`;
  return null;
}
let structCompared = 0;

// ---- call tracer ------------------------------------------------------------------------------
// Every program's callTracer result (debug_traceTransaction on anvil, `keel evm run --tx
// --tracer callTracer`) compared member by member, frame by frame. The error texts are each
// client's words (revm-inspectors' differ from geth's, which keel follows: docs/trace.md): where
// a frame failed both must say so, the words are not compared. The top frame's `gas` is not
// compared: anvil reports what the call got (the limit less the intrinsic gas), geth's
// callTracer, and keel with it, the transaction's gas limit (geth's fixtures pin that). A
// SELFDESTRUCT frame whose beneficiary is the contract itself: anvil reports it from the zero
// address or without its `to` and `value`, geth (OnEnter with the running contract, the
// beneficiary and the balance) and keel from the contract to itself with the balance: its from,
// to and value are not compared.
const CALL_TRACER = process.env.KEEL_EVM_DIFF_CALL_TRACER !== '0';
const lower = (v) => (typeof v === 'string' ? v.toLowerCase() : v);
function callFrameDiff(theirs, mine, at) {
  for (const f of ['type', 'from', 'to', 'gas', 'gasUsed', 'input', 'output', 'value']) {
    if (f === 'gas' && at === '') continue;
    if ((f === 'from' || f === 'to' || f === 'value') && mine.type === 'SELFDESTRUCT' &&
        lower(mine.to) === lower(mine.from)) continue;
    const a = lower(theirs[f]), b = lower(mine[f]);
    const norm = (v) => (v === undefined || v === '0x' ? undefined : v);
    if (norm(a) !== norm(b)) return `${at}${f}: anvil ${String(a).slice(0, 80)}, keel ${String(b).slice(0, 80)}`;
  }
  if (('error' in theirs) !== ('error' in mine)) return `${at}error: anvil ${theirs.error}, keel ${mine.error}`;
  const a = theirs.calls ?? [], b = mine.calls ?? [];
  if (a.length !== b.length) return `${at}calls: anvil ${a.length}, keel ${b.length}`;
  for (let i = 0; i < a.length; ++i) {
    const d = callFrameDiff(a[i], b[i], `${at}calls[${i}].`);
    if (d) return d;
  }
  return null;
}
let callCompared = 0;

// ---- Parity traces and the prestate tracer ------------------------------------------------------
// Every program's trace_transaction on anvil against `keel evm run --tx --tracer parity` (the
// `trace` of trace_replayTransaction: the same actions without their block positions), action by
// action on every member. anvil (revm-inspectors, as Reth) lists CALLs and STATICCALLs of
// precompiles; geth's flat tracer, Erigon, OpenEthereum and Besu do not, and keel follows them
// (docs/trace.md): those frames are taken out of anvil's list and the trace addresses and subtrace
// counts renumbered before comparing. Where a frame failed both must say so; the words are not
// compared: revm-inspectors writes revm's names for several halts ("OutOfOffset",
// "CreateContractStartingWithEF", "StateChangeDuringStaticCall") where keel writes
// OpenEthereum's or geth's ("Out of bounds", geth's invalid-code text, and "Out of gas" for a
// CALL with value under STATICCALL that cannot pay its gas: geth charges before it checks the
// value). A failed frame's `result` is not compared (anvil writes null or the revert's output,
// keel, as OpenEthereum and Besu, none). A SELFDESTRUCT to itself: anvil writes its action with
// zero addresses and balance (as in its callTracer, above).
const PARITY = process.env.KEEL_EVM_DIFF_PARITY !== '0';
const PRECOMPILES = new Set([...Array(17)].map((_, i) => '0x' + hex(i + 1, 20)));
function withoutPrecompileCalls(traces) {
  const kept = [], renamed = new Map([['', []]]), children = new Map();
  for (const t of traces) {
    const key = t.traceAddress.join(','), parent = t.traceAddress.slice(0, -1).join(',');
    if (t.type === 'call' && (t.action.callType === 'call' || t.action.callType === 'staticcall') &&
        PRECOMPILES.has(t.action.to.toLowerCase())) continue;
    if (t.traceAddress.length > 0) {
      const n = children.get(parent) ?? 0;
      children.set(parent, n + 1);
      renamed.set(key, [...renamed.get(parent), n]);
    }
    kept.push({ key, t });
  }
  return kept.map(({ key, t }) => ({ ...t, traceAddress: renamed.get(key), subtraces: children.get(key) ?? 0 }));
}
function lowerDeep(v) {
  if (typeof v === 'string') return v.toLowerCase();
  if (Array.isArray(v)) return v.map(lowerDeep);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase(), lowerDeep(x)]));
  return v;
}
function parityDiff(theirs, mine) {
  const a = withoutPrecompileCalls(theirs);
  if (a.length !== mine.length) return `traces: anvil ${a.length} (without precompile calls), keel ${mine.length}`;
  for (let i = 0; i < a.length; ++i) {
    const selfToSelf = mine[i].type === 'suicide' && lower(mine[i].action.address) === lower(mine[i].action.refundAddress);
    for (const f of ['type', 'action', 'result', 'error', 'subtraces', 'traceAddress']) {
      if (f === 'result' && ('error' in a[i] || 'error' in mine[i])) continue;
      if (f === 'action' && selfToSelf) continue;
      if (f === 'error' && ('error' in a[i]) === ('error' in mine[i])) continue;
      const x = stable(lowerDeep(a[i][f])), y = stable(lowerDeep(mine[i][f]));
      if (x !== y) return `trace ${i} [${mine[i].traceAddress}] ${f}: anvil ${String(x).slice(0, 200)}, keel ${String(y).slice(0, 200)}`;
    }
  }
  return null;
}
let parityCompared = 0;

// The prestate tracer, without and (every other program) with diffMode: anvil's
// debug_traceTransaction against keel's, account by account on every member (balances and
// storage as numbers, hex in lower case), but for what geth (since 1.14), and keel with it, does
// otherwise than revm-inspectors: geth leaves out of `pre` the accounts that were empty before the
// transaction (its includeEmpty option) and writes a `codeHash` member, which is not compared; an
// instruction that runs out of gas is not shown to geth's tracer, so the slot an SLOAD or SSTORE
// would have touched is not looked up (anvil's extra slots are accepted when a frame ran out of
// gas).
const PRESTATE = process.env.KEEL_EVM_DIFF_PRESTATE !== '0';
function normPrestate(accounts, dropEmpty) {
  const out = {};
  for (const [addr, acct] of Object.entries(accounts ?? {})) {
    const n = {};
    for (const [k, v] of Object.entries(acct)) {
      if (k === 'codeHash') continue;
      if (k === 'balance') n.balance = BigInt(v).toString(16);
      else if (k === 'storage') n.storage = normStorage(v);
      else n[k] = typeof v === 'string' ? v.toLowerCase() : v;
    }
    if (Object.keys(n).length === 0 && Object.keys(acct).length > 0) continue;  // codeHash alone
    if (dropEmpty && (n.balance ?? '0') === '0' && !n.nonce && !n.code && !n.storage) continue;
    out[addr.toLowerCase()] = stable(n);
  }
  return out;
}
function withoutSlotsOf(theirs, mine) {
  // anvil's account with only the slots keel shows, when anvil's has every one of keel's.
  const x = JSON.parse(theirs), y = JSON.parse(mine);
  if (!x.storage || stable({ ...x, storage: undefined }) !== stable({ ...y, storage: undefined })) return theirs;
  const a = JSON.parse(x.storage), b = y.storage ? JSON.parse(y.storage) : {};
  if (!Object.entries(b).every(([k, v]) => a[k] === v)) return theirs;
  return mine;
}
function prestateDiff(theirs, mine, diffMode, outOfGas) {
  const parts = diffMode ? ['pre', 'post'] : [null];
  for (const part of parts) {
    const a = normPrestate(part ? theirs[part] : theirs, part !== 'post'), b = normPrestate(part ? mine[part] : mine, false);
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (a[k] !== undefined && b[k] !== undefined && outOfGas && !diffMode && withoutSlotsOf(a[k], b[k]) === b[k]) continue;
      if (a[k] !== b[k]) return `${part ?? ''}${part ? ' ' : ''}${k}: anvil ${a[k] ?? 'absent'}, keel ${b[k] ?? 'absent'}`;
    }
  }
  return null;
}
const anyOutOfGas = (frame) => !!frame && ((frame.error ?? '').startsWith('out of gas') || (frame.calls ?? []).some(anyOutOfGas));
let prestateCompared = 0;

const accounts = await rpc('eth_accounts', []);
const from = accounts[0].toLowerCase();
sender = BigInt(from);
const coinbase = (await rpc('eth_getBlockByNumber', ['latest', false])).miner.toLowerCase();
let failures = 0, statuses = {};
for (let i = 0; i < count; ++i) {
  self = 0xc0de000000n + BigInt(i);
  other = 0xdead000000n + BigInt(i);
  const contract = '0x' + hex(self, 20);
  const code = program();
  const gas = BigInt(pick([40000, 200000, 1000000]));
  const data = '0x' + [...Array(int(40))].map(() => hex(int(256), 1)).join('');
  await rpc('anvil_setCode', [contract, code]);
  await rpc('anvil_setNonce', [contract, '0x1']);
  await rpc('anvil_setBalance', [contract, '0xde0b6b3a7640000']);
  const nonce = BigInt(await rpc('eth_getTransactionCount', [from, 'latest']));
  const balance = BigInt(await rpc('eth_getBalance', [from, 'latest']));
  const hash = await rpc('eth_sendTransaction', [{ from, to: contract, gas: '0x' + gas.toString(16),
    gasPrice: '0x0', data, nonce: '0x' + nonce.toString(16) }]);
  // Automining finishes after the send returns: wait for the receipt.
  let receipt = null;
  for (let tries = 0; !receipt && tries < 2000; ++tries) {
    receipt = await rpc('eth_getTransactionReceipt', [hash]);
    if (!receipt) await new Promise((r) => setTimeout(r, 1));
  }
  if (!receipt) throw new Error(`program ${i}: no receipt for ${hash}`);
  const call = await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
  const diff = await rpc('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);

  const k = spawnSync(keel, ['evm', 'run', '--tx', '--json', '--fork', 'Prague', '--code', code,
    '--input', data, '--gas', gas.toString(), '--address', contract, '--balance', '1000000000000000000',
    '--sender', from, '--sender-nonce', nonce.toString(), '--sender-balance', balance.toString()],
    { encoding: 'utf8' });
  const problems = [];
  let mine;
  try { mine = JSON.parse(k.stdout); } catch { problems.push(`keel: exit ${k.status}: ${k.stderr.trim()}`); }
  if (mine) {
    const ok = receipt.status === '0x1';
    statuses[mine.status] = (statuses[mine.status] ?? 0) + 1;
    if (ok !== (mine.status === 'success')) problems.push(`status: anvil ${receipt.status} (${call.error ?? 'ok'}), keel ${mine.status}`);
    if (BigInt(receipt.gasUsed) !== BigInt(mine.gasUsed)) problems.push(`gas used: anvil ${BigInt(receipt.gasUsed)}, keel ${BigInt(mine.gasUsed)}`);
    const theirOut = (call.output ?? '0x').toLowerCase();
    if (theirOut !== mine.output) problems.push(`output: anvil ${theirOut.slice(0, 80)}, keel ${mine.output.slice(0, 80)}`);
    const theirLogs = receipt.logs.map((l) => ({ address: l.address.toLowerCase(), topics: l.topics, data: l.data }));
    const myLogs = mine.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data }));
    if (JSON.stringify(theirLogs) !== JSON.stringify(myLogs)) problems.push(`logs: anvil ${JSON.stringify(theirLogs).slice(0, 200)}, keel ${JSON.stringify(myLogs).slice(0, 200)}`);
    const s = sameState(normAnvil(diff, coinbase), normKeel(mine.changes, { [contract]: code }));
    if (s) problems.push(`state: ${s}`);
  }
  let mineCall;
  if (CALL_TRACER) {
    const kc = spawnSync(keel, ['evm', 'run', '--tx', '--tracer', 'callTracer', '--fork', 'Prague', '--code', code,
      '--input', data, '--gas', gas.toString(), '--address', contract, '--balance', '1000000000000000000',
      '--sender', from, '--sender-nonce', nonce.toString(), '--sender-balance', balance.toString()],
      { encoding: 'utf8' });
    try { mineCall = JSON.parse(kc.stdout); } catch { problems.push(`keel --tracer callTracer: exit ${kc.status}: ${kc.stderr.trim()}`); }
    if (mineCall) {
      ++callCompared;
      const d = callFrameDiff(call, mineCall, '');
      if (d) problems.push(`callTracer: ${d}`);
    }
  }
  const keelRun = (flags) => spawnSync(keel, ['evm', 'run', '--tx', ...flags, '--fork', 'Prague', '--code', code,
    '--input', data, '--gas', gas.toString(), '--address', contract, '--balance', '1000000000000000000',
    '--sender', from, '--sender-nonce', nonce.toString(), '--sender-balance', balance.toString()],
    { encoding: 'utf8' });
  if (PARITY) {
    const theirs = await rpc('trace_transaction', [hash]);
    const kp = keelRun(['--tracer', 'parity']);
    let mineParity;
    try { mineParity = JSON.parse(kp.stdout); } catch { problems.push(`keel --tracer parity: exit ${kp.status}: ${kp.stderr.trim()}`); }
    if (mineParity) {
      ++parityCompared;
      const d = parityDiff(theirs, mineParity.trace);
      if (d) problems.push(`trace_transaction: ${d}`);
    }
  }
  if (PRESTATE) {
    const diffMode = i % 2 === 1;
    const theirs = diffMode ? diff : await rpc('debug_traceTransaction', [hash, { tracer: 'prestateTracer' }]);
    const kp = keelRun(['--tracer', 'prestateTracer', ...(diffMode ? ['--tracer-config', '{"diffMode":true}'] : [])]);
    let minePre;
    try { minePre = JSON.parse(kp.stdout); } catch { problems.push(`keel --tracer prestateTracer: exit ${kp.status}: ${kp.stderr.trim()}`); }
    if (minePre) {
      ++prestateCompared;
      const d = prestateDiff(theirs, minePre, diffMode, anyOutOfGas(mineCall));
      if (d) problems.push(`prestateTracer${diffMode ? ' diffMode' : ''}: ${d}`);
    }
  }
  if (structEvery > 0 && i % structEvery === 0) {
    const { config, flags } = structConfigs[(i / structEvery) % structConfigs.length];
    const theirs = await rpc('debug_traceTransaction', [hash, config]);
    const ks = spawnSync(keel, ['evm', 'run', '--tx', '--struct-log', ...flags, '--fork', 'Prague', '--code', code,
      '--input', data, '--gas', gas.toString(), '--address', contract, '--balance', '1000000000000000000',
      '--sender', from, '--sender-nonce', nonce.toString(), '--sender-balance', balance.toString()],
      { encoding: 'utf8', maxBuffer: 1 << 30 });
    let log;
    try { log = JSON.parse(ks.stdout); } catch { problems.push(`keel --struct-log: exit ${ks.status}: ${ks.stderr.trim()}`); }
    if (log) {
      ++structCompared;
      const d = structLogDiff(theirs, log);
      if (d) problems.push(`struct log ${JSON.stringify(config)}: ${d}`);
    }
  }
  if (problems.length) {
    ++failures;
    console.log(`FAIL program ${i} (seed ${seedArg}): gas ${gas} code ${code} input ${data}`);
    for (const p of problems) console.log(`  ${p}`);
  }
}
console.log(`evm_diff: ${count - failures} of ${count} programs agree (keel outcomes: ${JSON.stringify(statuses)}; ` +
            `struct logs compared on ${structCompared}, call traces on ${callCompared}, ` +
            `Parity traces on ${parityCompared}, prestate traces on ${prestateCompared})`);
process.exit(failures === 0 ? 0 : 1);
