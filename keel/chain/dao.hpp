#pragma once
/// The DAO fork (EIP-779): at its block, before the transactions, the whole balance of each
/// account of the drain list (The DAO and its child DAOs, and their extra-balance accounts) moves
/// to the refund contract. execution-specs, src/ethereum/dao_fork/dao.py and fork.py
/// (apply_fork). The extra-data rule of the fork's first blocks is in header_rules.hpp.
#include <span>

#include "keel/common/bytes.hpp"
#include "keel/state/overlay.hpp"

namespace keel::chain {

/// The refund (recovery) contract, 0xbf4ed7b27f1d666546e30d74d50d173d20bca754.
const Address& dao_refund_contract();

/// The 116 accounts drained at the fork, in the spec's order.
std::span<const Address> dao_drain_list();

/// Moves every drain-list balance to the refund contract; each account involved exists
/// afterwards (an absent one is created empty, as the spec's set_account does).
void apply_dao_fork(state::Overlay& overlay);

}  // namespace keel::chain
