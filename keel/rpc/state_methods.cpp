#include "keel/rpc/state_methods.hpp"

#include "keel/blockchain/reads.hpp"
#include "keel/common/hex.hpp"
#include "keel/rpc/web3_methods.hpp"
#include "keel/store/state_store.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

RpcError server(std::string m) {
    return RpcError{ErrorCode::server_error, std::move(m)};
}

// A hex QUANTITY or DATA string's digits, after its "0x"; nullopt when it has no prefix.
std::optional<std::string_view> digits(const std::string& s) {
    if (s.size() < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return std::nullopt;
    return std::string_view(s).substr(2);
}

// A block number QUANTITY: "0x" and 1..16 hex digits without leading zeros (hexutil.Uint64).
Result<std::uint64_t, std::string> quantity(const std::string& s) {
    const auto d = digits(s);
    if (!d) return unexpected(std::string("hex string without 0x prefix"));
    if (d->empty()) return unexpected(std::string("hex string \"0x\""));
    if (d->size() > 1 && (*d)[0] == '0')
        return unexpected(std::string("hex number with leading zero digits"));
    if (d->size() > 16) return unexpected(std::string("hex number > 64 bits"));
    std::uint64_t v = 0;
    for (const char c : *d) {
        int n = -1;
        if (c >= '0' && c <= '9') n = c - '0';
        if (c >= 'a' && c <= 'f') n = c - 'a' + 10;
        if (c >= 'A' && c <= 'F') n = c - 'A' + 10;
        if (n < 0) return unexpected(std::string("invalid hex string"));
        v = v << 4 | static_cast<std::uint64_t>(n);
    }
    return v;
}

// A block parameter given as a hash: one the store does not have is geth's error here.
Result<std::optional<std::uint64_t>, RpcError> by_hash(const std::string& text, std::size_t index,
                                                       const store::ChainStore& store) {
    auto n = hash_block_number(text, index, store);
    if (n && !*n) return std::unexpected(server("header for hash not found"));
    return n;
}

}  // namespace

Result<std::optional<std::uint64_t>, RpcError> hash_block_number(const std::string& text,
                                                                 std::size_t index,
                                                                 const store::ChainStore& store) {
    auto hash = hex::decode_fixed<Hash32>(text);
    if (!hash) return std::unexpected(invalid_argument(index, "invalid block hash"));
    auto n = store.block_number(*hash);
    if (!n) return std::unexpected(RpcError{ErrorCode::internal_error, n.error().message});
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
    if (s == "latest" || s == "pending" || s == "safe" || s == "finalized")
        return std::optional<std::uint64_t>();
    if (s == "earliest") {
        auto tail = store.tail();
        if (!tail)
            return std::unexpected(RpcError{ErrorCode::internal_error, tail.error().message});
        return std::optional<std::uint64_t>(tail->value_or(0));
    }
    if (s.size() == 66) return by_hash(s, index, store);
    auto n = quantity(s);
    if (!n) return std::unexpected(invalid_argument(index, n.error()));
    auto head = store.head();
    if (!head) return std::unexpected(RpcError{ErrorCode::internal_error, head.error().message});
    if (!*head || *n > **head) return std::unexpected(server("header not found"));
    return std::optional<std::uint64_t>(*n);
}

Result<Address, RpcError> address_param(const json& params, std::size_t index) {
    auto text = string_param(params, index, "common.Address");
    if (!text) return std::unexpected(text.error());
    const std::string& s = **text;
    const auto d = digits(s);
    if (!d) {
        return std::unexpected(invalid_argument(
            index,
            "json: cannot unmarshal hex string without 0x prefix into Go value of type "
            "common.Address"));
    }
    if (d->size() != 40) {
        return std::unexpected(invalid_argument(
            index,
            "hex string has length " + std::to_string(d->size()) + ", want 40 for common.Address"));
    }
    auto a = hex::decode_fixed<Address>(s);
    if (!a) return std::unexpected(invalid_argument(index, "invalid hex string"));
    return *a;
}

void add_state_methods(Dispatcher& d, const store::ChainStore& store,
                       const eth::ChainConfig& config) {
    enum class Field { balance, nonce, code, storage };
    const auto account_method = [&store](Field field) {
        const std::size_t block_at = field == Field::storage ? 2 : 1;
        return [&store, field, block_at](const json& p,
                                         keel::json::Writer& w) -> Result<void, RpcError> {
            if (auto r = at_most(p, block_at + 1); !r) return r;
            auto address = address_param(p, 0);
            if (!address) return std::unexpected(address.error());
            Uint256 slot;
            if (field == Field::storage) {
                if (p.size() < 2 || !p[1].is_string())
                    return std::unexpected(
                        invalid_argument(1, "missing or non-string storage key"));
                const std::string& s = p[1].get_ref<const std::string&>();
                const auto dd = digits(s);
                std::optional<Uint256> v;
                if (dd && !dd->empty() && dd->size() <= 64) {
                    if (auto parsed = Uint256::from_hex(*dd)) v = *parsed;
                }
                if (!v)
                    return std::unexpected(
                        invalid_argument(1, "unable to decode storage key: hex string invalid"));
                slot = *v;
            }
            auto number = block_param(p, block_at, store);
            if (!number) return std::unexpected(number.error());
            auto view = store::StateView::open(store, *number);
            if (!view) return std::unexpected(server(view.error().message));
            const state::Account acc = view->account(*address).value_or(state::Account{});
            switch (field) {
                case Field::balance:
                    w.quantity(acc.balance);
                    break;
                case Field::nonce:
                    w.quantity(acc.nonce);
                    break;
                case Field::code:
                    w.data(*view->code(acc.code_hash));
                    break;
                case Field::storage:
                    w.data(view->storage(*address, slot).to_bytes32().view());
                    break;
            }
            if (auto f = view->failure())
                return std::unexpected(RpcError{ErrorCode::internal_error, *f});
            return {};
        };
    };
    d.add("eth_getBalance", account_method(Field::balance));
    d.add("eth_getTransactionCount", account_method(Field::nonce));
    d.add("eth_getCode", account_method(Field::code));
    d.add("eth_getStorageAt", account_method(Field::storage));

    d.add(
        "eth_getTransactionReceipt",
        [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
            if (auto r = at_most(p, 1); !r) return r;
            if (p.empty() || !p[0].is_string())
                return std::unexpected(
                    invalid_argument(0, "missing or non-string transaction hash"));
            auto hash = hex::decode_fixed<Hash32>(p[0].get_ref<const std::string&>());
            if (!hash) return std::unexpected(invalid_argument(0, "invalid transaction hash"));
            // Not found and pruned are known before anything is written (reads.hpp).
            if (auto r = blockchain::write_transaction_receipt(w, store, config, *hash); !r) {
                if (!r.error().not_found && !r.error().pruned)
                    return std::unexpected(RpcError{ErrorCode::internal_error, r.error().message});
                w.null();
            }
            return {};
        });
    d.add(
        "eth_getBlockReceipts",
        [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
            if (auto r = at_most(p, 1); !r) return r;
            auto number = block_param(p, 0, store);
            if (!number) {
                if (number.error().code == ErrorCode::server_error) {
                    w.null();
                    return {};
                }
                return std::unexpected(number.error());
            }
            std::uint64_t n = 0;
            if (*number) {
                n = **number;
            } else {
                auto head = store.head();
                if (!head)
                    return std::unexpected(
                        RpcError{ErrorCode::internal_error, head.error().message});
                n = head->value_or(0);
            }
            if (auto r = blockchain::write_block_receipts(w, store, config, n); !r) {
                if (!r.error().not_found && !r.error().pruned)
                    return std::unexpected(RpcError{ErrorCode::internal_error, r.error().message});
                w.null();
            }
            return {};
        });
}

}  // namespace keel::rpc
