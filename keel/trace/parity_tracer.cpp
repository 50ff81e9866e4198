#include "keel/trace/parity_tracer.hpp"

#include <algorithm>
#include <string>

#include "keel/common/printable.hpp"
#include "keel/state/overlay.hpp"

namespace keel::trace {
namespace {

BytesView bytes_of(const state::Code& code) {
    return code ? BytesView(*code) : BytesView();
}

}  // namespace

bool add_trace_type(ParityTraceTypes& types, std::string_view name) {
    if (name == "trace")
        types.trace = true;
    else if (name == "vmTrace")
        types.vm_trace = true;
    else if (name == "stateDiff")
        types.state_diff = true;
    else
        return false;
    return true;
}

Result<ParityTraceTypes, std::string> parse_trace_types(std::string_view list) {
    ParityTraceTypes types;
    std::size_t begin = 0;
    while (begin <= list.size()) {
        const std::size_t end = std::min(list.find(',', begin), list.size());
        const std::string_view one = list.substr(begin, end - begin);
        if (!add_trace_type(types, one))
            return unexpected(printable(one, 64) + " is none of trace, vmTrace, stateDiff");
        begin = end + 1;
    }
    return types;
}
ParityTracer::ParityTracer(ParityTraceTypes types)
    : types_(types), prestate_(PrestateTracerOptions{.include_empty = true}) {}

void ParityTracer::on_tx_start(const evm::TxStartView& tx) {
    output_.clear();
    diff_.clear();
    calls_.on_tx_start(tx);
    if (types_.vm_trace) vm_.on_tx_start(tx);
    if (types_.state_diff) prestate_.on_tx_start(tx);
}

void ParityTracer::on_call_start(const evm::Message& msg) {
    calls_.on_call_start(msg);
    if (types_.vm_trace) vm_.on_call_start(msg);
    if (types_.state_diff) prestate_.on_call_start(msg);
}

void ParityTracer::on_call_end(const evm::Message& msg, const evm::CallResult& result) {
    calls_.on_call_end(msg, result);
    if (types_.vm_trace) vm_.on_call_end(msg, result);
    if (types_.state_diff) prestate_.on_call_end(msg, result);
}

void ParityTracer::on_step(const evm::StepView& step) {
    calls_.on_step(step);
    if (types_.vm_trace) vm_.on_step(step);
    if (types_.state_diff) prestate_.on_step(step);
}

void ParityTracer::on_step_error(evm::Status status) {
    calls_.on_step_error(status);
    if (types_.vm_trace) vm_.on_step_error(status);
    if (types_.state_diff) prestate_.on_step_error(status);
}

void ParityTracer::on_selfdestruct(const Address& contract, const Address& beneficiary,
                                   const Uint256& balance) {
    calls_.on_selfdestruct(contract, beneficiary, balance);
}

void ParityTracer::on_tx_end(const evm::TxEndView& tx) {
    calls_.on_tx_end(tx);
    output_.assign(tx.output.begin(), tx.output.end());
    reverted_ = tx.status == evm::Status::revert;
    if (!types_.state_diff) return;
    prestate_.on_tx_end(tx);
    state::Overlay& st = tx.state;
    for (const auto& [a, before] : prestate_.accounts()) {
        const bool existed = !before.empty;
        const bool exists = st.exists(a) && !(st.is_empty(a) && !existed);
        if (!existed && !exists) continue;
        AccountDiff d;
        d.address = a;
        d.balance_from = before.balance;
        d.nonce_from = before.nonce;
        // The code before: the lookup keeps it unless the account had none.
        d.code_from = before.code;
        if (exists) {
            d.balance_to = st.balance(a);
            d.nonce_to = st.nonce(a);
            d.code_to = st.code(a);
        }
        d.kind = !existed ? '+' : (!exists ? '-' : '*');
        for (const auto& [slot, was] : before.storage) {
            const Uint256 now = exists ? st.storage(a, slot) : Uint256{};
            if (now != was) d.storage.push_back({slot, was, now});
        }
        if (d.kind == '*' && d.balance_from == d.balance_to && d.nonce_from == d.nonce_to &&
            std::ranges::equal(bytes_of(d.code_from), bytes_of(d.code_to)) && d.storage.empty()) {
            continue;
        }
        diff_.push_back(std::move(d));
    }
}

void ParityTracer::write(std::string& out, const Hash32* tx_hash) const {
    // A reverted transaction: no output, its revert data as revertReason (Besu's shape).
    out += "{\"output\":";
    {
        json::Writer w(out);
        w.data(reverted_ ? BytesView() : BytesView(output_));
    }
    if (reverted_ && !output_.empty()) {
        out += ",\"revertReason\":";
        json::Writer w(out);
        w.data(output_);
    }
    out += ",\"stateDiff\":";
    if (!types_.state_diff) {
        out += "null";
    } else {
        json::Writer w(out);
        w.begin_object();
        for (const AccountDiff& d : diff_) {
            w.key_data(d.address.view());
            w.begin_object();
            const auto quantity_field = [&](const char* name, const Uint256& from,
                                            const Uint256& to) {
                w.key(name);
                if (d.kind == '+' || d.kind == '-') {
                    w.begin_object();
                    w.member_quantity(d.kind == '+' ? "+" : "-", d.kind == '+' ? to : from);
                    w.end_object();
                } else if (from == to) {
                    w.string("=");
                } else {
                    w.begin_object();
                    w.key("*");
                    w.begin_object();
                    w.member_quantity("from", from);
                    w.member_quantity("to", to);
                    w.end_object();
                    w.end_object();
                }
            };
            quantity_field("balance", d.balance_from, d.balance_to);
            w.key("code");
            if (d.kind == '+' || d.kind == '-') {
                w.begin_object();
                w.member_data(d.kind == '+' ? "+" : "-",
                              bytes_of(d.kind == '+' ? d.code_to : d.code_from));
                w.end_object();
            } else if (std::ranges::equal(bytes_of(d.code_from), bytes_of(d.code_to))) {
                w.string("=");
            } else {
                w.begin_object();
                w.key("*");
                w.begin_object();
                w.member_data("from", bytes_of(d.code_from));
                w.member_data("to", bytes_of(d.code_to));
                w.end_object();
                w.end_object();
            }
            quantity_field("nonce", Uint256(d.nonce_from), Uint256(d.nonce_to));
            w.key("storage");
            w.begin_object();
            for (const SlotDiff& s : d.storage) {
                w.key_data(s.slot.to_bytes32().view());
                w.begin_object();
                if (d.kind == '+' || d.kind == '-') {
                    w.key(d.kind == '+' ? "+" : "-");
                    w.data((d.kind == '+' ? s.to : s.from).to_bytes32().view());
                } else {
                    w.key("*");
                    w.begin_object();
                    w.key("from");
                    w.data(s.from.to_bytes32().view());
                    w.key("to");
                    w.data(s.to.to_bytes32().view());
                    w.end_object();
                }
                w.end_object();
            }
            w.end_object();
            w.end_object();
        }
        w.end_object();
    }
    out += ",\"trace\":";
    if (types_.trace) {
        json::Writer w(out);
        calls_.write_flat(w, {.parity = true, .without_position = true});
    } else {
        out += "[]";
    }
    if (tx_hash != nullptr) {
        out += ",\"transactionHash\":";
        json::Writer w(out);
        w.data(BytesView(tx_hash->data(), tx_hash->size()));
    }
    out += ",\"vmTrace\":";
    if (types_.vm_trace) {
        vm_.write(out);
    } else {
        out += "null";
    }
    out += '}';
}

}  // namespace keel::trace
