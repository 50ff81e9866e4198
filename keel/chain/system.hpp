#pragma once
/// The block's system calls and execution-layer requests:
///   EIP-4788 (Cancun)  the parent beacon block root into the beacon roots contract, first;
///   EIP-2935 (Prague)  the parent hash into the history storage contract, next;
///   EIP-6110 (Prague)  deposit requests, read from the deposit contract's DepositEvent logs;
///   EIP-7002, EIP-7251 (Prague) withdrawal and consolidation requests, dequeued by calling their
///                      contracts after the withdrawals;
///   EIP-7685 (Prague)  the requests hash over all of them.
/// The contracts' addresses are the chain's (eth::SystemContracts).
/// A system call is a message from SYSTEM_ADDRESS with 30,000,000 gas that is not a
/// transaction: no nonce, no fee, no gas counted in the block, and touched empty accounts are
/// deleted after it (execution-specs, prague/fork.py, process_system_transaction).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "keel/chain/errors.hpp"
#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/evm/analysis.hpp"
#include "keel/evm/message.hpp"
#include "keel/state/overlay.hpp"

namespace keel::chain {

/// SYSTEM_ADDRESS, the caller of every system call: 0xff..fe.
inline constexpr Address kSystemAddress{{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}};
/// Gas of a system call.
inline constexpr std::int64_t kSystemCallGas = 30'000'000;

/// Runs one system call to `target` with `input` on `state` (EIP-4788's rules: no code, no
/// effect) and ends it as a transaction ends (EIP-161 deletions). `env` is the block's; `cache`
/// (optional) keeps the contract's code analysis for the block's other calls.
evm::CallResult system_call(state::Overlay& state, const evm::BlockEnv& env, eth::Fork fork,
                            const Address& target, BytesView input,
                            evm::AnalysisCache* cache = nullptr);

/// The request types of EIP-7685.
enum class RequestType : std::uint8_t { deposit = 0, withdrawal = 1, consolidation = 2 };

/// keccak256("DepositEvent(bytes,bytes,bytes,bytes,bytes)"), the first topic of a deposit log.
const Hash32& deposit_event_topic();

/// Appends the deposit request of one log of the deposit contract to `out` if it is a
/// DepositEvent (first topic deposit_event_topic()): pubkey (48) ++ withdrawal_credentials (32) ++
/// amount (8) ++ signature (96) ++ index (8), 192 bytes (EIP-6110). The log's data must be the
/// ABI layout the contract emits: 576 bytes, offsets 160, 256, 320, 384, 512 and those sizes;
/// otherwise false (the block is invalid: INVALID_DEPOSIT_EVENT_LAYOUT).
[[nodiscard]] bool append_deposit(const state::Log& log, Bytes& out);

/// EIP-7685's commitment: sha256(sha256(type ++ data) ++ ...) over the requests whose data is
/// not empty, in type order. `requests[i]` is the data of type i.
Hash32 requests_hash(std::span<const Bytes> requests);

}  // namespace keel::chain
