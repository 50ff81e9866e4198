#include "keel/rpc/dispatcher.hpp"

#include <exception>

#include "keel/common/answer_stream.hpp"

namespace keel::rpc {
namespace {

using nlohmann::json;

constexpr std::int32_t kResponseTooLarge = -32003;  // geth's errcodeResponseTooLarge

// geth's hasValidID: a number, a string or null (not an object or an array).
bool valid_id(const json& id) {
    return id.is_number() || id.is_string() || id.is_null();
}

void append_head(std::string& out, std::string_view id) {
    out += R"({"jsonrpc":"2.0","id":)";
    out += id;
}

}  // namespace

void append_error(std::string& out, std::string_view id, const RpcError& e) {
    append_head(out, id);
    out += R"(,"error":{"code":)";
    out += std::to_string(static_cast<std::int32_t>(e.code));
    out += R"(,"message":)";
    keel::json::append_string(out, e.message);
    if (e.data) {
        out += R"(,"data":)";
        keel::json::append_string(out, *e.data);
    }
    out += "}}";
}

void Dispatcher::add(std::string method, Handler handler) {
    methods_.insert_or_assign(std::move(method), std::move(handler));
}

bool Dispatcher::has(std::string_view method) const {
    return methods_.contains(std::string(method));
}

void Dispatcher::answer(const nlohmann::json& request, std::string& out) const {
    const auto invalid = [&](std::string_view id) {
        append_error(out, id, RpcError{ErrorCode::invalid_request, "invalid request"});
    };
    if (!request.is_object()) return invalid("null");
    const auto id_it = request.find("id");
    const bool has_id = id_it != request.end();
    const std::string id = has_id && valid_id(*id_it) ? id_it->dump() : "null";
    const auto version = request.find("jsonrpc");
    const auto method = request.find("method");
    if ((has_id && !valid_id(*id_it)) || version == request.end() || *version != "2.0" ||
        method == request.end() || !method->is_string() ||
        method->get_ref<const std::string&>().empty()) {
        // A notification that is not valid is not answered either (geth drops it).
        if (!has_id) return;
        return invalid(id);
    }
    const std::string& name = method->get_ref<const std::string&>();
    const auto handler = methods_.find(name);
    if (handler == methods_.end()) {
        if (!has_id) return;
        return append_error(out, id,
                            RpcError{ErrorCode::method_not_found,
                                     "the method " + name + " does not exist/is not available"});
    }
    static const json kNoParams = json::array();
    const auto params_it = request.find("params");
    const json& params =
        params_it == request.end() || params_it->is_null() ? kNoParams : *params_it;
    const std::size_t mark = out.size();
    if (!params.is_array()) {
        if (!has_id) return;
        return append_error(out, id, RpcError{ErrorCode::invalid_params, "non-array args"});
    }
    append_head(out, id);
    out += R"(,"result":)";
    keel::json::Writer w(out);
    Result<void, RpcError> r;
    try {
        r = handler->second(params, w);
    } catch (const std::exception& e) {
        // A handler that trips over a value it did not check: still one answer, not a crash.
        r = std::unexpected(internal_error(e.what()));
    }
    if (r && !w.complete()) {
        r = std::unexpected(internal_error(name + " wrote no result"));
    }
    if (!r) {
        if (auto* stream = keel::json::AnswerStream::current(); stream && stream->flushed()) {
            // Part of the result left already: the answer can only be cut short.
            stream->mark_broken();
            return;
        }
        out.resize(mark);
        if (has_id) append_error(out, id, r.error());
        return;
    }
    if (!has_id) {
        out.resize(mark);  // a notification: run, not answered
        return;
    }
    out += '}';
}

void Dispatcher::handle(std::string_view body, std::string& out) const {
    const json parsed = json::parse(body, nullptr, false);
    if (parsed.is_discarded()) {
        append_error(out, "null", RpcError{ErrorCode::parse_error, "parse error"});
        return;
    }
    if (!parsed.is_array()) {
        // One request with an id may stream its answer (the transport's AnswerStream); a batch
        // or a notification is answered whole.
        if (auto* stream = keel::json::AnswerStream::current())
            stream->enable(parsed.is_object() && parsed.contains("id"));
        answer(parsed, out);
        return;
    }
    if (parsed.empty()) {
        append_error(out, "null", RpcError{ErrorCode::invalid_request, "empty batch"});
        return;
    }
    if (parsed.size() > limits_.max_batch) {
        append_error(out, "null", RpcError{ErrorCode::invalid_request, "batch too large"});
        return;
    }
    const std::size_t start = out.size();
    out += '[';
    bool any = false;
    for (const json& request : parsed) {
        const std::size_t before = out.size();
        if (any) out += ',';
        const std::size_t at = out.size();
        if (out.size() - start > limits_.max_response) {
            const auto id_it = request.is_object() ? request.find("id") : request.end();
            if (request.is_object() && id_it == request.end()) {
                out.resize(before);
                continue;  // a notification: not run, not answered
            }
            append_error(out, request.is_object() && valid_id(*id_it) ? id_it->dump() : "null",
                         RpcError{static_cast<ErrorCode>(kResponseTooLarge), "response too large"});
            any = true;
            continue;
        }
        answer(request, out);
        if (out.size() == at) {
            out.resize(before);  // a notification
            continue;
        }
        any = true;
    }
    if (!any) {
        out.resize(start);
        return;
    }
    out += ']';
}

}  // namespace keel::rpc
