#include "keel/rpc/params.hpp"

#include "keel/common/hex.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

// A hex string's digits, after its "0x"; nullopt when it has no prefix.
std::optional<std::string_view> digits(std::string_view s) {
    if (s.size() < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return std::nullopt;
    return s.substr(2);
}

int nibble(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// A fixed-size hex argument (common.Address, common.Hash) with geth's refusals.
template <typename Fixed>
Result<Fixed, RpcError> fixed_param(const json& params, std::size_t index,
                                    std::string_view go_type) {
    auto text = string_param(params, index, go_type);
    if (!text) return std::unexpected(text.error());
    const auto d = digits(**text);
    if (!d) {
        return std::unexpected(invalid_argument(
            index, "json: cannot unmarshal hex string without 0x prefix into Go value of type " +
                       std::string(go_type)));
    }
    const std::size_t want = Fixed::size() * 2;
    if (d->size() != want) {
        return std::unexpected(invalid_argument(
            index, "hex string has length " + std::to_string(d->size()) + ", want " +
                       std::to_string(want) + " for " + std::string(go_type)));
    }
    auto v = hex::decode_fixed<Fixed>(**text);
    if (!v) return std::unexpected(invalid_argument(index, "invalid hex string"));
    return *v;
}

// The consensus client's safe or finalized block; geth's error before one was named.
Result<std::optional<std::uint64_t>, RpcError> forkchoice_block(const std::string& tag,
                                                                const store::ChainStore& store) {
    auto f = store.forkchoice();
    if (!f) return std::unexpected(internal_error(f.error().message));
    const std::optional<std::uint64_t> n = tag == "safe" ? f->safe : f->finalized;
    if (!n) return std::unexpected(server_error(tag + " block not found"));
    return std::optional<std::uint64_t>(*n);
}

// A block parameter given as a hash: one the store does not have is geth's error here.
Result<std::optional<std::uint64_t>, RpcError> by_hash(const std::string& text, std::size_t index,
                                                       const store::ChainStore& store) {
    auto n = hash_block_number(text, index, store);
    if (n && !*n) return std::unexpected(server_error("header for hash not found"));
    return n;
}

}  // namespace

Result<void, RpcError> at_most(const json& params, std::size_t max) {
    if (params.size() <= max) return {};
    return std::unexpected(RpcError{ErrorCode::invalid_params,
                                    "too many arguments, want at most " + std::to_string(max)});
}

Result<const std::string*, RpcError> string_param(const json& params, std::size_t index,
                                                  std::string_view go_type) {
    if (index >= params.size() || params[index].is_null()) {
        return std::unexpected(
            RpcError{ErrorCode::invalid_params,
                     "missing value for required argument " + std::to_string(index)});
    }
    if (!params[index].is_string()) {
        return std::unexpected(invalid_argument(
            index,
            "json: cannot unmarshal non-string into Go value of type " + std::string(go_type)));
    }
    return &params[index].get_ref<const std::string&>();
}

Result<Bytes, RpcError> data_param(const json& params, std::size_t index) {
    auto text = string_param(params, index, "hexutil.Bytes");
    if (!text) return std::unexpected(text.error());
    const auto d = digits(**text);
    if (!d) return std::unexpected(invalid_argument(index, "hex string without 0x prefix"));
    if (d->size() % 2 != 0)
        return std::unexpected(invalid_argument(index, "hex string of odd length"));
    auto bytes = hex::decode(*d);
    if (!bytes) return std::unexpected(invalid_argument(index, "invalid hex string"));
    return std::move(*bytes);
}

Result<std::uint64_t, std::string> parse_quantity(std::string_view s) {
    const auto d = digits(s);
    if (!d) return unexpected(std::string("hex string without 0x prefix"));
    if (d->empty()) return unexpected(std::string("hex string \"0x\""));
    if (d->size() > 1 && (*d)[0] == '0')
        return unexpected(std::string("hex number with leading zero digits"));
    if (d->size() > 16) return unexpected(std::string("hex number > 64 bits"));
    std::uint64_t v = 0;
    for (const char c : *d) {
        const int n = nibble(c);
        if (n < 0) return unexpected(std::string("invalid hex string"));
        v = v << 4 | static_cast<std::uint64_t>(n);
    }
    return v;
}

Result<Uint256, std::string> parse_big(std::string_view s) {
    const auto d = digits(s);
    if (!d) return unexpected(std::string("hex string without 0x prefix"));
    if (d->empty()) return unexpected(std::string("hex string \"0x\""));
    if (d->size() > 1 && (*d)[0] == '0')
        return unexpected(std::string("hex number with leading zero digits"));
    if (d->size() > 64) return unexpected(std::string("hex number > 256 bits"));
    for (const char c : *d)
        if (nibble(c) < 0) return unexpected(std::string("invalid hex string"));
    auto v = Uint256::from_hex(*d);
    if (!v) return unexpected(std::string("invalid hex string"));
    return *v;
}

Result<std::uint64_t, RpcError> quantity_param(const json& params, std::size_t index,
                                               std::string_view go_type) {
    auto text = string_param(params, index, go_type);
    if (!text) return std::unexpected(text.error());
    auto v = parse_quantity(**text);
    if (!v) return std::unexpected(invalid_argument(index, v.error()));
    return *v;
}

std::optional<Uint256> parse_word(std::string_view s) {
    const auto d = digits(s);
    if (!d || d->empty() || d->size() > 64) return std::nullopt;
    for (const char c : *d)
        if (nibble(c) < 0) return std::nullopt;
    auto v = Uint256::from_hex(*d);
    if (!v) return std::nullopt;
    return *v;
}

Result<Address, RpcError> address_param(const json& params, std::size_t index) {
    return fixed_param<Address>(params, index, "common.Address");
}

Result<Hash32, RpcError> hash_param(const json& params, std::size_t index) {
    return fixed_param<Hash32>(params, index, "common.Hash");
}

Result<std::uint64_t, RpcError> head_number(const store::ChainStore& store) {
    auto head = store.head();
    if (!head) return std::unexpected(internal_error(head.error().message));
    return head->value_or(0);
}

Result<std::optional<std::uint64_t>, RpcError> hash_block_number(const std::string& text,
                                                                 std::size_t index,
                                                                 const store::ChainStore& store) {
    auto hash = hex::decode_fixed<Hash32>(text);
    if (!hash) return std::unexpected(invalid_argument(index, "invalid block hash"));
    auto n = store.block_number(*hash);
    if (!n) return std::unexpected(internal_error(n.error().message));
    if (!n->found()) return std::optional<std::uint64_t>();
    return std::optional<std::uint64_t>(n->value);
}

Result<std::optional<std::uint64_t>, RpcError> block_param(const json& params, std::size_t index,
                                                           const store::ChainStore& store) {
    if (index >= params.size() || params[index].is_null()) return std::optional<std::uint64_t>();
    const json& v = params[index];
    if (v.is_object()) {  // EIP-1898
        if (v.contains("blockHash") && v["blockHash"].is_string())
            return by_hash(v["blockHash"].get<std::string>(), index, store);
        if (v.contains("blockNumber") && v["blockNumber"].is_string()) {
            json inner = json::array({v["blockNumber"]});
            return block_param(inner, 0, store);
        }
        return std::unexpected(invalid_argument(index, "invalid block number or hash"));
    }
    if (!v.is_string()) {
        return std::unexpected(invalid_argument(
            index, "json: cannot unmarshal non-string into Go value of type BlockNumberOrHash"));
    }
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "latest" || s == "pending") return std::optional<std::uint64_t>();
    if (s == "safe" || s == "finalized") return forkchoice_block(s, store);
    if (s == "earliest") {
        auto tail = store.tail();
        if (!tail) return std::unexpected(internal_error(tail.error().message));
        return std::optional<std::uint64_t>(tail->value_or(0));
    }
    if (s.size() == 66) return by_hash(s, index, store);
    auto n = parse_quantity(s);
    if (!n) return std::unexpected(invalid_argument(index, n.error()));
    auto head = store.head();
    if (!head) return std::unexpected(internal_error(head.error().message));
    if (!*head || *n > **head) return std::unexpected(server_error("header not found"));
    return std::optional<std::uint64_t>(*n);
}

Result<std::uint64_t, RpcError> block_number_param(const json& params, std::size_t index,
                                                   const store::ChainStore& store) {
    auto n = block_param(params, index, store);
    if (!n) return std::unexpected(n.error());
    if (*n) return **n;
    return head_number(store);
}

Result<std::optional<std::uint64_t>, RpcError> stored_block_by_number(
    const json& params, const store::ChainStore& store) {
    auto n = block_number_param(params, 0, store);
    if (!n) {
        // A number past the head is null here (geth), not "header not found"; a tag the
        // consensus client has not named yet stays an error.
        const bool tag = !params.empty() && params[0].is_string() &&
                         (params[0] == "safe" || params[0] == "finalized");
        if (n.error().code == ErrorCode::server_error && !tag)
            return std::optional<std::uint64_t>();
        return std::unexpected(n.error());
    }
    return std::optional<std::uint64_t>(*n);
}

Result<std::optional<std::uint64_t>, RpcError> stored_block_by_hash(
    const json& params, const store::ChainStore& store) {
    auto text = string_param(params, 0, "common.Hash");
    if (!text) return std::unexpected(text.error());
    return hash_block_number(**text, 0, store);  // not stored: null
}

}  // namespace keel::rpc
