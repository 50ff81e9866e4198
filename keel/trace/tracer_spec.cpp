#include "keel/trace/tracer_spec.hpp"

#include <nlohmann/json.hpp>

#include "keel/common/json_writer.hpp"
#include "keel/common/printable.hpp"

namespace keel::trace {
namespace {

using nlohmann::json;

// A name or key from a request, fit for a one-line message.
std::string shown(std::string_view text) {
    return printable(text, 64);
}

std::optional<TracerKind> kind_of(std::string_view name) {
    if (name == "structLog") return TracerKind::struct_log;
    if (name == "callTracer") return TracerKind::call;
    if (name == "flatCallTracer") return TracerKind::flat_call;
    if (name == "prestateTracer") return TracerKind::prestate;
    if (name == "4byteTracer") return TracerKind::four_byte;
    if (name == "noopTracer") return TracerKind::noop;
    if (name == "erc7562Tracer") return TracerKind::erc7562;
    if (name == "muxTracer") return TracerKind::mux;
    if (name == "callTracerLegacy") return TracerKind::call_legacy;
    if (name == "prestateTracerLegacy") return TracerKind::prestate_legacy;
    return std::nullopt;
}

Result<TracerSpec, std::string> spec_of(std::string_view name, const json& config) {
    const auto kind = kind_of(name);
    if (!kind) {
        return unexpected("unknown tracer " + shown(name) +
                          " (structLog, callTracer, flatCallTracer, prestateTracer, 4byteTracer, "
                          "noopTracer, erc7562Tracer, muxTracer, callTracerLegacy, "
                          "prestateTracerLegacy)");
    }
    TracerSpec s;
    s.kind = *kind;
    s.name = std::string(name);
    if (config.is_null()) return s;
    if (!config.is_object()) return unexpected(s.name + ": the config is not a JSON object");
    std::string error;
    for (const auto& [key, value] : config.items()) {
        const auto flag = [&](bool& into) {
            if (value.is_boolean()) {
                into = value.get<bool>();
            } else {
                error = s.name + ": " + shown(key) + ": not true or false";
            }
        };
        bool known = true;
        switch (s.kind) {
            case TracerKind::call:
                if (key == "onlyTopCall")
                    flag(s.call.only_top_call);
                else if (key == "withLog")
                    flag(s.call.with_log);
                else
                    known = false;
                break;
            case TracerKind::flat_call:
                if (key == "convertParityErrors")
                    flag(s.flat.convert_parity_errors);
                else if (key == "includePrecompiles")
                    flag(s.flat.include_precompiles);
                else
                    known = false;
                break;
            case TracerKind::prestate:
                if (key == "diffMode")
                    flag(s.prestate.diff_mode);
                else if (key == "disableCode")
                    flag(s.prestate.disable_code);
                else if (key == "disableStorage")
                    flag(s.prestate.disable_storage);
                else if (key == "includeEmpty")
                    flag(s.prestate.include_empty);
                else
                    known = false;
                break;
            case TracerKind::struct_log:
                if (key == "disableStack")
                    flag(s.struct_log.disable_stack);
                else if (key == "disableStorage")
                    flag(s.struct_log.disable_storage);
                else if (key == "enableMemory")
                    flag(s.struct_log.enable_memory);
                else if (key == "enableReturnData")
                    flag(s.struct_log.enable_return_data);
                else if (key == "limit") {
                    if (value.is_number_unsigned()) {
                        s.struct_log.limit = value.get<std::uint64_t>();
                    } else {
                        error = s.name + ": limit: not a whole number";
                    }
                } else {
                    known = false;
                }
                break;
            case TracerKind::erc7562:
                if (key == "withLog") {
                    flag(s.erc7562.with_log);
                } else if (key == "stackTopItemsSize") {
                    if (value.is_number_unsigned() && value.get<std::uint64_t>() <= 1024) {
                        s.erc7562.stack_top_items = value.get<std::uint32_t>();
                    } else {
                        error = s.name + ": stackTopItemsSize: not a whole number up to 1024";
                    }
                } else if (key == "ignoredOpcodes") {
                    s.erc7562.ignored_opcodes.emplace();
                    for (const json& op : value.is_array() ? value : json::array({nullptr})) {
                        if (!op.is_number_unsigned() || op.get<std::uint64_t>() > 255) {
                            error = s.name + ": ignoredOpcodes: not a list of opcodes";
                            break;
                        }
                        s.erc7562.ignored_opcodes->push_back(op.get<std::uint8_t>());
                    }
                } else {
                    known = false;
                }
                break;
            case TracerKind::mux: {
                // {"callTracer": {...}, "prestateTracer": {...}}: each a tracer of its own.
                if (key == "muxTracer") {
                    error = "muxTracer: a muxTracer cannot hold another";
                    break;
                }
                if (key == "structLog") {
                    error = "muxTracer: structLog is not one of its tracers (geth's either)";
                    break;
                }
                auto child = spec_of(key, value);
                if (!child) {
                    error = "muxTracer: " + child.error();
                } else {
                    s.mux.push_back(std::move(*child));
                }
                break;
            }
            case TracerKind::four_byte:
            case TracerKind::noop:
            case TracerKind::call_legacy:
            case TracerKind::prestate_legacy:
                known = false;
                break;
        }
        if (!known) error = s.name + ": " + shown(key) + " is not an option";
        if (!error.empty()) return unexpected(std::move(error));
    }
    if (s.prestate.diff_mode && s.prestate.include_empty) {
        return unexpected(std::string("prestateTracer: diffMode cannot be used with includeEmpty"));
    }
    return s;
}

}  // namespace

Result<TracerSpec, std::string> parse_tracer_spec(std::string_view name,
                                                  std::string_view config_json) {
    json config;
    if (!config_json.empty()) {
        config = json::parse(config_json, nullptr, false);
        if (config.is_discarded()) return unexpected(std::string("tracerConfig is not JSON"));
    }
    return spec_of(name, config);
}

// muxTracer's tracer: every hook to each child's tracer for the transaction.
class TxTracer::Fanout final : public evm::Tracer {
  public:
    std::vector<evm::Tracer*> to;

    void on_tx_start(const evm::TxStartView& tx) override {
        for (auto* t : to) t->on_tx_start(tx);
    }
    void on_tx_end(const evm::TxEndView& tx) override {
        for (auto* t : to) t->on_tx_end(tx);
    }
    void on_call_start(const evm::Message& msg) override {
        for (auto* t : to) t->on_call_start(msg);
    }
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override {
        for (auto* t : to) t->on_call_end(msg, result);
    }
    bool wants_steps() const override {
        for (auto* t : to) {
            if (t->wants_steps()) return true;
        }
        return false;
    }
    void on_step(const evm::StepView& step) override {
        for (auto* t : to) t->on_step(step);
    }
    void on_step_error(evm::Status status) override {
        for (auto* t : to) t->on_step_error(status);
    }
    void on_storage_read(const Address& a, const Uint256& key, const Uint256& value) override {
        for (auto* t : to) t->on_storage_read(a, key, value);
    }
    void on_storage_write(const Address& a, const Uint256& key, const Uint256& value) override {
        for (auto* t : to) t->on_storage_write(a, key, value);
    }
    void on_log(const state::Log& log) override {
        for (auto* t : to) t->on_log(log);
    }
    void on_selfdestruct(const Address& contract, const Address& beneficiary,
                         const Uint256& balance) override {
        for (auto* t : to) t->on_selfdestruct(contract, beneficiary, balance);
    }
};

TxTracer::TxTracer(const TracerSpec& spec, eth::Fork fork)
    : spec_(spec), fork_(fork), call_(spec.call), prestate_(spec.prestate), erc7562_(spec.erc7562) {
    if (spec.kind == TracerKind::mux) {
        fanout_ = std::make_unique<Fanout>();
        for (const TracerSpec& child : spec.mux) {
            children_.push_back(std::make_unique<TxTracer>(child, fork));
        }
    }
}

TxTracer::~TxTracer() = default;

evm::Tracer* TxTracer::begin(std::string& out, std::uint64_t first_log_index) {
    switch (spec_.kind) {
        case TracerKind::struct_log:
            logger_.emplace(out, fork_, spec_.struct_log);
            drained_ = false;
            if (drain_) {
                logger_->set_drain(drain_at_, [this](std::string& bytes) {
                    drained_ = true;
                    drain_(bytes);
                });
            }
            return &*logger_;
        case TracerKind::call:
        case TracerKind::flat_call:
            call_.set_first_log_index(first_log_index);
            return &call_;
        case TracerKind::prestate:
            return &prestate_;
        case TracerKind::four_byte:
            return &four_byte_;
        case TracerKind::noop:
            return &noop_;
        case TracerKind::erc7562:
            erc7562_.set_first_log_index(first_log_index);
            return &erc7562_;
        case TracerKind::call_legacy:
            return &legacy_call_;
        case TracerKind::prestate_legacy:
            return &legacy_prestate_;
        case TracerKind::mux:
            fanout_->to.clear();
            for (auto& c : children_) fanout_->to.push_back(c->begin(out, first_log_index));
            return fanout_.get();
    }
    return nullptr;
}

bool TxTracer::end_timed_out(std::string& out, std::size_t mark, const evm::TxEndView& tx) {
    if (spec_.kind == TracerKind::struct_log && drained_) {
        logger_->finish(tx.gas_used, tx.status != evm::Status::success, tx.output, kTimeoutError);
        return true;
    }
    if (out.size() > mark) out.resize(mark);
    return false;
}

void TxTracer::end(std::string& out, const evm::TxEndView& tx, const FlatTraceContext& context) {
    if (spec_.kind == TracerKind::struct_log) {
        logger_->finish(tx.gas_used, tx.status != evm::Status::success, tx.output);
        return;
    }
    if (spec_.kind == TracerKind::mux) {
        out += '{';
        for (std::size_t i = 0; i < children_.size(); ++i) {
            if (i > 0) out += ',';
            keel::json::append_string(out, spec_.mux[i].name);
            out += ':';
            children_[i]->end(out, tx, context);
        }
        out += '}';
        return;
    }
    keel::json::Writer w(out);
    switch (spec_.kind) {
        case TracerKind::call:
            call_.write_call(w);
            break;
        case TracerKind::flat_call:
            call_.write_flat(w, spec_.flat, context);
            break;
        case TracerKind::prestate:
            prestate_.write(w);
            break;
        case TracerKind::four_byte:
            four_byte_.write(w);
            break;
        case TracerKind::noop:
            NoopTracer::write(w);
            break;
        case TracerKind::erc7562:
            erc7562_.write(w);
            break;
        case TracerKind::call_legacy:
            legacy_call_.write(w);
            break;
        case TracerKind::prestate_legacy:
            legacy_prestate_.write(w);
            break;
        case TracerKind::struct_log:
        case TracerKind::mux:
            break;
    }
}

}  // namespace keel::trace
