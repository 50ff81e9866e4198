#include "keel/rpc/engine_payload.hpp"

#include "keel/chain/system.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/json.hpp"
#include "keel/eth/withdrawal.hpp"
#include "keel/rpc/params.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

// The payload's members by version (execution-apis ExecutionPayloadV1..V3).
constexpr const char* kV1[] = {"parentHash", "feeRecipient", "stateRoot",   "receiptsRoot",
                               "logsBloom",  "prevRandao",   "blockNumber", "gasLimit",
                               "gasUsed",    "timestamp",    "extraData",   "baseFeePerGas",
                               "blockHash",  "transactions"};

class Reader {
  public:
    explicit Reader(const json& p) : p_(p) {}

    RpcError bad(const std::string& what) const { return invalid_argument(0, what); }

    Result<const json*, RpcError> need(const char* name) const {
        auto it = p_.find(name);
        if (it == p_.end() || it->is_null())
            return std::unexpected(bad("missing required field '" + std::string(name) + "'"));
        return &*it;
    }

    template <typename Fixed>
    Result<Fixed, RpcError> fixed(const char* name) const {
        auto v = need(name);
        if (!v) return std::unexpected(v.error());
        if (!(*v)->is_string()) return std::unexpected(bad(std::string(name) + ": not a string"));
        const std::string& s = (*v)->get_ref<const std::string&>();
        if (s.size() != 2 + 2 * Fixed::size() || !s.starts_with("0x"))
            return std::unexpected(bad(std::string(name) + ": want " +
                                       std::to_string(Fixed::size()) + " bytes of hex"));
        auto f = hex::decode_fixed<Fixed>(s);
        if (!f) return std::unexpected(bad(std::string(name) + ": invalid hex"));
        return *f;
    }

    Result<std::uint64_t, RpcError> u64(const char* name) const {
        auto v = need(name);
        if (!v) return std::unexpected(v.error());
        if (!(*v)->is_string()) return std::unexpected(bad(std::string(name) + ": not a string"));
        auto n = parse_quantity((*v)->get_ref<const std::string&>());
        if (!n) return std::unexpected(bad(std::string(name) + ": " + n.error()));
        return *n;
    }

    Result<Uint256, RpcError> big(const char* name) const {
        auto v = need(name);
        if (!v) return std::unexpected(v.error());
        if (!(*v)->is_string()) return std::unexpected(bad(std::string(name) + ": not a string"));
        auto n = parse_big((*v)->get_ref<const std::string&>());
        if (!n) return std::unexpected(bad(std::string(name) + ": " + n.error()));
        return *n;
    }

    Result<Bytes, RpcError> bytes_of(const json& v, const std::string& name) const {
        json single = json::array({v});
        auto b = data_param(single, 0);
        if (!b) return std::unexpected(bad(name + ": " + b.error().message));
        return std::move(*b);
    }

    bool has(const char* name) const { return p_.contains(name) && !p_[name].is_null(); }

  private:
    const json& p_;
};

}  // namespace

Result<Payload, RpcError> payload_of(const json& p, int version,
                                     std::optional<Hash32> parent_beacon_root,
                                     std::optional<Hash32> requests_hash) {
    if (!p.is_object()) return std::unexpected(invalid_argument(0, "payload is not an object"));
    const Reader r(p);
    for (const char* name : kV1)
        if (auto v = r.need(name); !v) return std::unexpected(v.error());
    const bool withdrawals = r.has("withdrawals");
    const bool blob_fields = r.has("blobGasUsed") || r.has("excessBlobGas");
    if (version == 1 && (withdrawals || blob_fields))
        return std::unexpected(r.bad("withdrawals or blob fields in an ExecutionPayloadV1"));
    if (version == 2 && blob_fields)
        return std::unexpected(r.bad("blob fields in an ExecutionPayloadV2"));
    if (version >= 3 && (!withdrawals || !r.has("blobGasUsed") || !r.has("excessBlobGas")))
        return std::unexpected(
            r.bad("an ExecutionPayloadV3 needs withdrawals, blobGasUsed and excessBlobGas"));

    Payload out;
    eth::Header& h = out.block.header;
    auto parent = r.fixed<Hash32>("parentHash");
    auto fee_recipient = r.fixed<Address>("feeRecipient");
    auto state_root = r.fixed<Hash32>("stateRoot");
    auto receipts_root = r.fixed<Hash32>("receiptsRoot");
    auto bloom = r.fixed<Bloom>("logsBloom");
    auto randao = r.fixed<Hash32>("prevRandao");
    auto number = r.u64("blockNumber");
    auto gas_limit = r.u64("gasLimit");
    auto gas_used = r.u64("gasUsed");
    auto timestamp = r.u64("timestamp");
    auto base_fee = r.big("baseFeePerGas");
    auto hash = r.fixed<Hash32>("blockHash");
    for (const RpcError* e :
         {parent ? nullptr : &parent.error(), fee_recipient ? nullptr : &fee_recipient.error(),
          state_root ? nullptr : &state_root.error(),
          receipts_root ? nullptr : &receipts_root.error(), bloom ? nullptr : &bloom.error(),
          randao ? nullptr : &randao.error(), number ? nullptr : &number.error(),
          gas_limit ? nullptr : &gas_limit.error(), gas_used ? nullptr : &gas_used.error(),
          timestamp ? nullptr : &timestamp.error(), base_fee ? nullptr : &base_fee.error(),
          hash ? nullptr : &hash.error()}) {
        if (e != nullptr) return std::unexpected(*e);
    }
    auto extra = r.bytes_of(p["extraData"], "extraData");
    if (!extra) return std::unexpected(extra.error());
    h.parent_hash = *parent;
    h.ommers_hash = eth::kEmptyOmmersHash;
    h.beneficiary = *fee_recipient;
    h.state_root = *state_root;
    h.receipts_root = *receipts_root;
    h.logs_bloom = *bloom;
    h.difficulty = Uint256(0);
    h.number = *number;
    h.gas_limit = *gas_limit;
    h.gas_used = *gas_used;
    h.timestamp = *timestamp;
    h.extra_data = std::move(*extra);
    h.mix_hash = *randao;
    h.base_fee_per_gas = *base_fee;
    out.claimed_hash = *hash;

    const json& txs = p["transactions"];
    if (!txs.is_array()) return std::unexpected(r.bad("transactions: not an array"));
    for (std::size_t i = 0; i < txs.size(); ++i) {
        auto raw = r.bytes_of(txs[i], "transactions[" + std::to_string(i) + "]");
        if (!raw) return std::unexpected(raw.error());
        auto tx = eth::decode_transaction(*raw);
        if (!tx) {
            out.invalid = "transaction " + std::to_string(i) + ": " + eth::to_string(tx.error());
            break;
        }
        out.block.body.transactions.push_back(std::move(*tx));
    }
    h.transactions_root = eth::transactions_root(out.block.body.transactions);
    if (withdrawals) {
        const json& ws = p["withdrawals"];
        if (!ws.is_array()) return std::unexpected(r.bad("withdrawals: not an array"));
        std::vector<eth::Withdrawal> list;
        for (const json& w : ws) {
            if (!w.is_object()) return std::unexpected(r.bad("withdrawals: not objects"));
            const Reader wr(w);
            auto index = wr.u64("index");
            auto validator = wr.u64("validatorIndex");
            auto address = wr.fixed<Address>("address");
            auto amount = wr.u64("amount");
            if (!index) return std::unexpected(index.error());
            if (!validator) return std::unexpected(validator.error());
            if (!address) return std::unexpected(address.error());
            if (!amount) return std::unexpected(amount.error());
            list.push_back({*index, *validator, *address, *amount});
        }
        h.withdrawals_root = eth::withdrawals_root(list);
        out.block.body.withdrawals = std::move(list);
    }
    if (version >= 3) {
        auto used = r.u64("blobGasUsed");
        auto excess = r.u64("excessBlobGas");
        if (!used) return std::unexpected(used.error());
        if (!excess) return std::unexpected(excess.error());
        h.blob_gas_used = *used;
        h.excess_blob_gas = *excess;
        h.parent_beacon_block_root = parent_beacon_root;
    }
    if (requests_hash) h.requests_hash = *requests_hash;
    return out;
}

Result<std::vector<Bytes>, RpcError> execution_requests_of(const json& v, std::size_t index) {
    if (!v.is_array())
        return std::unexpected(invalid_argument(index, "executionRequests: not an array"));
    std::vector<Bytes> by_type;
    int last = -1;
    for (const json& item : v) {
        json single = json::array({item});
        auto b = data_param(single, 0);
        if (!b)
            return std::unexpected(
                invalid_argument(index, "executionRequests: " + b.error().message));
        if (b->size() < 2)
            return std::unexpected(
                invalid_argument(index, "executionRequests: empty request data"));
        const int type = (*b)[0];
        if (type <= last)
            return std::unexpected(
                invalid_argument(index, "executionRequests: types not in ascending order"));
        last = type;
        by_type.resize(static_cast<std::size_t>(type) + 1);
        by_type[static_cast<std::size_t>(type)].assign(b->begin() + 1, b->end());
    }
    return by_type;
}

void write_payload(keel::json::Writer& w, const eth::Block& b, int version) {
    const eth::Header& h = b.header;
    w.begin_object();
    w.member_data("parentHash", h.parent_hash.view());
    w.member_data("feeRecipient", h.beneficiary.view());
    w.member_data("stateRoot", h.state_root.view());
    w.member_data("receiptsRoot", h.receipts_root.view());
    w.member_data("logsBloom", h.logs_bloom.view());
    w.member_data("prevRandao", h.mix_hash.view());
    w.member_quantity("blockNumber", h.number);
    w.member_quantity("gasLimit", h.gas_limit);
    w.member_quantity("gasUsed", h.gas_used);
    w.member_quantity("timestamp", h.timestamp);
    w.member_data("extraData", h.extra_data);
    w.member_quantity("baseFeePerGas", h.base_fee_per_gas.value_or(Uint256(0)));
    w.member_data("blockHash", h.hash().view());
    w.key("transactions");
    w.begin_array();
    for (const eth::Transaction& tx : b.body.transactions) w.data(tx.encoded());
    w.end_array();
    // V2 carries withdrawals from Shanghai on; a block before it is an ExecutionPayloadV1 even
    // through V2 (read back with "withdrawals": [] it would claim the empty list's root).
    if (version >= 3 || (version == 2 && b.body.withdrawals)) {
        w.key("withdrawals");
        w.begin_array();
        if (b.body.withdrawals)
            for (const eth::Withdrawal& wd : *b.body.withdrawals) eth::write_withdrawal(w, wd);
        w.end_array();
    }
    if (version >= 3) {
        w.member_quantity("blobGasUsed", h.blob_gas_used.value_or(0));
        w.member_quantity("excessBlobGas", h.excess_blob_gas.value_or(0));
    }
    w.end_object();
}

void write_execution_requests(keel::json::Writer& w, std::span<const Bytes> requests) {
    w.begin_array();
    for (std::size_t type = 0; type < requests.size(); ++type) {
        if (requests[type].empty()) continue;
        Bytes item;
        item.reserve(1 + requests[type].size());
        item.push_back(static_cast<std::uint8_t>(type));
        item.insert(item.end(), requests[type].begin(), requests[type].end());
        w.data(item);
    }
    w.end_array();
}

}  // namespace keel::rpc
