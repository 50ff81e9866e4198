#include "keel/rpc/call_args.hpp"

#include "keel/common/hex.hpp"
#include "keel/rpc/params.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxOverrides = 1024;

// Reads the members of one argument object, naming the argument in each refusal.
class Members {
  public:
    Members(const json& object, std::size_t index) : o_(object), index_(index) {}

    const json* get(const char* name) const {
        auto it = o_.find(name);
        return it == o_.end() || it->is_null() ? nullptr : &*it;
    }

    RpcError bad(const std::string& name, const std::string& why) const {
        return invalid_argument(index_, name + ": " + why);
    }

    Result<std::optional<Uint256>, RpcError> big(const char* name) const {
        const json* v = get(name);
        if (v == nullptr) return std::optional<Uint256>();
        if (!v->is_string()) return std::unexpected(bad(name, "expected a hex string"));
        auto n = parse_big(v->get_ref<const std::string&>());
        if (!n) return std::unexpected(bad(name, n.error()));
        return std::optional<Uint256>(*n);
    }

    Result<std::optional<std::uint64_t>, RpcError> u64(const char* name) const {
        const json* v = get(name);
        if (v == nullptr) return std::optional<std::uint64_t>();
        if (!v->is_string()) return std::unexpected(bad(name, "expected a hex string"));
        auto n = parse_quantity(v->get_ref<const std::string&>());
        if (!n) return std::unexpected(bad(name, n.error()));
        return std::optional<std::uint64_t>(*n);
    }

    template <typename Fixed>
    Result<std::optional<Fixed>, RpcError> fixed(const char* name) const {
        const json* v = get(name);
        if (v == nullptr) return std::optional<Fixed>();
        auto f = fixed_of<Fixed>(*v, name);
        if (!f) return std::unexpected(f.error());
        return std::optional<Fixed>(*f);
    }

    template <typename Fixed>
    Result<Fixed, RpcError> fixed_of(const json& v, const std::string& name) const {
        if (!v.is_string()) return std::unexpected(bad(name, "expected a hex string"));
        const std::string& s = v.get_ref<const std::string&>();
        if (!s.starts_with("0x") && !s.starts_with("0X"))
            return std::unexpected(bad(name, "hex string without 0x prefix"));
        if (s.size() != 2 + 2 * Fixed::size())
            return std::unexpected(bad(name, "hex string has length " +
                                                 std::to_string(s.size() - 2) + ", want " +
                                                 std::to_string(2 * Fixed::size())));
        auto f = hex::decode_fixed<Fixed>(s);
        if (!f) return std::unexpected(bad(name, "invalid hex string"));
        return *f;
    }

    Result<std::optional<Bytes>, RpcError> bytes(const char* name) const {
        const json* v = get(name);
        if (v == nullptr) return std::optional<Bytes>();
        json single = json::array({*v});
        auto b = data_param(single, 0);
        if (!b)
            return std::unexpected(
                bad(name, b.error().message.substr(b.error().message.find(": ") + 2)));
        return std::optional<Bytes>(std::move(*b));
    }

    std::size_t index() const noexcept { return index_; }

  private:
    const json& o_;
    std::size_t index_;
};

template <typename T>
bool take(Result<std::optional<T>, RpcError>&& r, std::optional<T>& out, RpcError& err) {
    if (!r) {
        err = r.error();
        return false;
    }
    out = std::move(*r);
    return true;
}

Result<void, RpcError> read_access_list(const Members& m, blockchain::CallRequest& c) {
    const json* list = m.get("accessList");
    if (list == nullptr) return {};
    if (!list->is_array()) return std::unexpected(m.bad("accessList", "expected an array"));
    for (const json& e : *list) {
        if (!e.is_object()) return std::unexpected(m.bad("accessList", "expected objects"));
        const Members em(e, m.index());
        auto address = em.fixed<Address>("address");
        if (!address) return std::unexpected(address.error());
        if (!*address) return std::unexpected(m.bad("accessList", "an entry without address"));
        eth::TransactionFields::AccessListEntry entry{.address = **address, .storage_keys = {}};
        if (const json* keys = em.get("storageKeys")) {
            if (!keys->is_array())
                return std::unexpected(m.bad("accessList.storageKeys", "expected an array"));
            for (const json& k : *keys) {
                auto key = em.fixed_of<Hash32>(k, "accessList.storageKeys");
                if (!key) return std::unexpected(key.error());
                entry.storage_keys.push_back(*key);
            }
        }
        c.access_list.push_back(std::move(entry));
    }
    return {};
}

Result<void, RpcError> read_authorizations(const Members& m, blockchain::CallRequest& c) {
    const json* list = m.get("authorizationList");
    if (list == nullptr) return {};
    if (!list->is_array()) return std::unexpected(m.bad("authorizationList", "expected an array"));
    for (const json& e : *list) {
        if (!e.is_object()) return std::unexpected(m.bad("authorizationList", "expected objects"));
        const Members am(e, m.index());
        eth::Authorization a;
        RpcError err;
        std::optional<Uint256> chain_id, r, s;
        std::optional<std::uint64_t> nonce, y_parity;
        std::optional<Address> address;
        if (!take(am.big("chainId"), chain_id, err) || !take(am.u64("nonce"), nonce, err) ||
            !take(am.u64("yParity"), y_parity, err) || !take(am.big("r"), r, err) ||
            !take(am.big("s"), s, err) || !take(am.fixed<Address>("address"), address, err)) {
            return std::unexpected(err);
        }
        if (!address)
            return std::unexpected(m.bad("authorizationList", "an entry without address"));
        if (y_parity && *y_parity > 255)
            return std::unexpected(m.bad("authorizationList.yParity", "above 255"));
        a.chain_id = chain_id.value_or(Uint256(0));
        a.address = *address;
        a.nonce = nonce.value_or(0);
        a.y_parity = static_cast<std::uint8_t>(y_parity.value_or(0));
        a.r = r.value_or(Uint256(0));
        a.s = s.value_or(Uint256(0));
        c.authorization_list.push_back(a);
    }
    return {};
}

}  // namespace

Result<blockchain::CallRequest, RpcError> call_request_param(const json& params, std::size_t index,
                                                             std::uint64_t chain_id) {
    if (index >= params.size() || params[index].is_null())
        return std::unexpected(
            RpcError{ErrorCode::invalid_params,
                     "missing value for required argument " + std::to_string(index)});
    return call_request_of(params[index], index, chain_id);
}

Result<blockchain::CallRequest, RpcError> call_request_of(const json& object, std::size_t index,
                                                          std::uint64_t chain_id) {
    if (!object.is_object())
        return std::unexpected(
            invalid_argument(index,
                             "json: cannot unmarshal non-object into Go value of type "
                             "ethapi.TransactionArgs"));
    const Members m(object, index);
    blockchain::CallRequest c;
    RpcError err;
    std::optional<Address> from;
    std::optional<Uint256> value, tx_chain_id;
    std::optional<Bytes> input, data;
    if (!take(m.fixed<Address>("from"), from, err) || !take(m.fixed<Address>("to"), c.to, err) ||
        !take(m.u64("gas"), c.gas, err) || !take(m.big("gasPrice"), c.gas_price, err) ||
        !take(m.big("maxFeePerGas"), c.max_fee_per_gas, err) ||
        !take(m.big("maxPriorityFeePerGas"), c.max_priority_fee_per_gas, err) ||
        !take(m.big("value"), value, err) || !take(m.u64("nonce"), c.nonce, err) ||
        !take(m.bytes("input"), input, err) || !take(m.bytes("data"), data, err) ||
        !take(m.big("chainId"), tx_chain_id, err) ||
        !take(m.big("maxFeePerBlobGas"), c.max_fee_per_blob_gas, err)) {
        return std::unexpected(err);
    }
    c.from = from.value_or(Address{});
    c.value = value.value_or(Uint256(0));
    if (input && data && *input != *data) {
        return std::unexpected(invalid_argument(
            index,
            "both \"data\" and \"input\" are set and not equal. Please use \"input\" to pass "
            "transaction call data"));
    }
    if (input)
        c.data = std::move(*input);
    else if (data)
        c.data = std::move(*data);
    if (c.gas_price && (c.max_fee_per_gas || c.max_priority_fee_per_gas)) {
        return std::unexpected(invalid_argument(
            index, "both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified"));
    }
    if (tx_chain_id && *tx_chain_id != Uint256(chain_id)) {
        return std::unexpected(
            invalid_argument(index, "chainId does not match node's (have=" + tx_chain_id->to_dec() +
                                        ", want=" + std::to_string(chain_id) + ")"));
    }
    if (auto r = read_access_list(m, c); !r) return std::unexpected(r.error());
    if (auto r = read_authorizations(m, c); !r) return std::unexpected(r.error());
    if (const json* hashes = m.get("blobVersionedHashes")) {
        if (!hashes->is_array())
            return std::unexpected(m.bad("blobVersionedHashes", "expected an array"));
        for (const json& h : *hashes) {
            auto hash = m.fixed_of<Hash32>(h, "blobVersionedHashes");
            if (!hash) return std::unexpected(hash.error());
            c.blob_versioned_hashes.push_back(*hash);
        }
    }
    return c;
}

Result<blockchain::StateOverrides, RpcError> state_overrides_param(const json& params,
                                                                   std::size_t index) {
    if (index >= params.size() || params[index].is_null()) return blockchain::StateOverrides{};
    return state_overrides_of(params[index], index);
}

Result<blockchain::StateOverrides, RpcError> state_overrides_of(const json& o, std::size_t index) {
    blockchain::StateOverrides out;
    if (!o.is_object())
        return std::unexpected(
            invalid_argument(index,
                             "json: cannot unmarshal non-object into Go value of type "
                             "override.StateOverride"));
    if (o.size() > kMaxOverrides)
        return std::unexpected(invalid_argument(index, "more than 1024 accounts overridden"));
    std::size_t slots = 0;
    for (const auto& [key, value] : o.items()) {
        const Members top(o, index);
        auto address = top.fixed_of<Address>(json(key), "state override address");
        if (!address) return std::unexpected(address.error());
        if (!value.is_object())
            return std::unexpected(invalid_argument(index, key + ": expected an object"));
        const Members m(value, index);
        blockchain::AccountOverride a;
        RpcError err;
        if (!take(m.big("balance"), a.balance, err) || !take(m.u64("nonce"), a.nonce, err) ||
            !take(m.bytes("code"), a.code, err)) {
            return std::unexpected(err);
        }
        if (!take(m.fixed<Address>("movePrecompileToAddress"), a.move_precompile_to, err))
            return std::unexpected(err);
        const json* state = m.get("state");
        const json* diff = m.get("stateDiff");
        if (state != nullptr && diff != nullptr)
            return std::unexpected(
                invalid_argument(index, "account " + key + " has both 'state' and 'stateDiff'"));
        for (const json* slots_of : {state, diff}) {
            if (slots_of == nullptr) continue;
            if (!slots_of->is_object())
                return std::unexpected(
                    invalid_argument(index, key + ": storage: expected an object"));
            std::vector<std::pair<Uint256, Uint256>> kv;
            for (const auto& [slot, v] : slots_of->items()) {
                if (++slots > kMaxOverrides)
                    return std::unexpected(
                        invalid_argument(index, "more than 1024 slots overridden"));
                auto k = m.fixed_of<Hash32>(json(slot), "storage key");
                auto val = m.fixed_of<Hash32>(v, "storage value");
                if (!k) return std::unexpected(k.error());
                if (!val) return std::unexpected(val.error());
                kv.emplace_back(Uint256::from_be_bytes(*k), Uint256::from_be_bytes(*val));
            }
            if (slots_of == state)
                a.state = std::move(kv);
            else
                a.state_diff = std::move(kv);
        }
        out.emplace_back(*address, std::move(a));
    }
    return out;
}

Result<blockchain::BlockOverrides, RpcError> block_overrides_param(const json& params,
                                                                   std::size_t index) {
    if (index >= params.size() || params[index].is_null()) return blockchain::BlockOverrides{};
    return block_overrides_of(params[index], index);
}

Result<blockchain::BlockOverrides, RpcError> block_overrides_of(const json& value,
                                                                std::size_t index) {
    blockchain::BlockOverrides b;
    if (!value.is_object())
        return std::unexpected(
            invalid_argument(index,
                             "json: cannot unmarshal non-object into Go value of type "
                             "override.BlockOverrides"));
    const Members m(value, index);
    RpcError err;
    if (!take(m.u64("number"), b.number, err) || !take(m.u64("time"), b.time, err) ||
        !take(m.u64("gasLimit"), b.gas_limit, err) ||
        !take(m.fixed<Address>("feeRecipient"), b.fee_recipient, err) ||
        !take(m.fixed<Hash32>("prevRandao"), b.prev_randao, err) ||
        !take(m.big("baseFeePerGas"), b.base_fee, err) ||
        !take(m.big("blobBaseFee"), b.blob_base_fee, err) ||
        !take(m.big("difficulty"), b.difficulty, err) ||
        !take(m.fixed<Hash32>("beaconRoot"), b.beacon_root, err)) {
        return std::unexpected(err);
    }
    if (const json* list = m.get("withdrawals")) {
        if (!list->is_array()) return std::unexpected(m.bad("withdrawals", "expected an array"));
        if (list->size() > kMaxOverrides)
            return std::unexpected(m.bad("withdrawals", "more than 1024"));
        std::vector<eth::Withdrawal> ws;
        for (const json& e : *list) {
            if (!e.is_object()) return std::unexpected(m.bad("withdrawals", "expected objects"));
            const Members wm(e, m.index());
            std::optional<std::uint64_t> number, validator, amount;
            std::optional<Address> address;
            if (!take(wm.u64("index"), number, err) ||
                !take(wm.u64("validatorIndex"), validator, err) ||
                !take(wm.fixed<Address>("address"), address, err) ||
                !take(wm.u64("amount"), amount, err)) {
                return std::unexpected(err);
            }
            ws.push_back(eth::Withdrawal{number.value_or(0), validator.value_or(0),
                                         address.value_or(Address{}), amount.value_or(0)});
        }
        b.withdrawals = std::move(ws);
    }
    return b;
}

}  // namespace keel::rpc
