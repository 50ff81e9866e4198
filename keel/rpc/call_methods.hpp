#pragma once
/// The methods that execute a message on a stored block's state (blockchain/calls.hpp says how):
/// - eth_call(args, block = latest, stateOverrides, blockOverrides): the output; a revert is
///   geth's error 3 "execution reverted[: reason]" with the output as its data; an exceptional
///   halt is -32000 with its phrase ("out of gas", "invalid opcode"); a message the rules refuse
///   is -32000 ("insufficient funds for gas * price + value").
/// - eth_estimateGas(args, block = latest, stateOverrides): geth's search: a plain transfer to an
///   account without code is 21,000 at once; otherwise the message must succeed with the most
///   gas it may have (its own gas, or the block's gas limit, within the 50 M cap and what the
///   sender's balance pays for at its fee cap), and then the least gas it succeeds with is
///   found by bisection, stopping within 1.5% as geth does.
/// - eth_createAccessList(args, block = latest, stateOverrides): the accounts and slots the
///   message touches (trace/access_list_tracer.hpp), run again with the list until it stops
///   changing; {accessList, gasUsed, error?} ("error": the final run's failure).

#include "keel/rpc/methods.hpp"

namespace keel::rpc {

/// Registers the methods above on `d`.
void add_call_methods(Dispatcher& d, const NodeContext& node);

}  // namespace keel::rpc
