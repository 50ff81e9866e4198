#include "keel/rpc/methods.hpp"

#include "keel/rpc/block_methods.hpp"
#include "keel/rpc/call_methods.hpp"
#include "keel/rpc/chain_methods.hpp"
#include "keel/rpc/config_methods.hpp"
#include "keel/rpc/fee_methods.hpp"
#include "keel/rpc/filter_methods.hpp"
#include "keel/rpc/pool_methods.hpp"
#include "keel/rpc/simulate_methods.hpp"
#include "keel/rpc/state_methods.hpp"
#include "keel/rpc/trace_methods.hpp"

namespace keel::rpc {

void add_methods(Dispatcher& d, const NodeContext& node) {
    add_web3_methods(d, node.info);
    add_head_methods(d, node.store);
    add_state_methods(d, node.store, node.config, node.pool);
    add_block_methods(d, node.store);
    add_chain_methods(d, node);
    add_fee_methods(d, node);
    add_config_methods(d, node);
    add_call_methods(d, node);
    add_simulate_methods(d, node);
    add_trace_methods(d, node);
    add_pool_methods(d, node);
    add_filter_methods(d, node);
}

}  // namespace keel::rpc
