#include "keel/blockchain/block_traces.hpp"

#include "keel/common/hex.hpp"
#include "keel/common/json_writer.hpp"
#include "keel/trace/tx_selector.hpp"

namespace keel::blockchain {

Result<void, ReadError> write_debug_traces(std::string& out, const store::ChainStore& store,
                                           const StoredBlock& b, const trace::TracerSpec& spec,
                                           std::optional<std::size_t> only,
                                           const std::function<void(std::string&)>& drain) {
    const eth::Header& h = b.block.header;
    trace::TxTracer tracer(spec, b.config.fork_at(h.number, h.timestamp));
    tracer.set_drain(1 << 20, drain);
    if (!only) out += '[';
    bool first = true;
    std::size_t mark = 0;  // where the transaction's entry starts in `out`
    bool timed_out = false;
    std::optional<trace::TxSelector> selector;
    selector.emplace(
        [&](std::size_t i, std::uint64_t first_log) -> evm::Tracer* {
            if (only && i != *only) return nullptr;
            if (!only && !first) out += ',';
            first = false;
            mark = out.size();
            if (!only) {
                out += "{\"txHash\":\"";
                out += hex::encode_prefixed(b.block.body.transactions[i].hash().view());
                out += "\",\"result\":";
            }
            return tracer.begin(out, first_log);
        },
        [&](std::size_t i, const evm::TxEndView& tx) {
            const Hash32& tx_hash = b.block.body.transactions[i].hash();
            if (!selector->timed_out()) {
                tracer.end(out, tx,
                           {.block_hash = &b.hash,
                            .block_number = h.number,
                            .tx_hash = &tx_hash,
                            .tx_index = i});
            } else if (!tracer.end_timed_out(out, mark, tx)) {
                // geth's {"txHash", "error"} for the block; for one transaction, the error.
                timed_out = true;
                if (!only) {
                    out += "{\"txHash\":\"";
                    out += hex::encode_prefixed(tx_hash.view());
                    out += "\",\"error\":";
                    json::append_string(out, trace::kTimeoutError);
                }
            }
            if (!only) out += '}';
            drain(out);
        });
    if (spec.timeout) selector->set_timeout(*spec.timeout);
    auto r = replay(store, b, &*selector, {.last_tx = only});
    if (!r) return std::unexpected(r.error());
    if (only && timed_out)
        return std::unexpected(ReadError{.message = std::string(trace::kTimeoutError)});
    if (!only) out += ']';
    return {};
}

}  // namespace keel::blockchain
