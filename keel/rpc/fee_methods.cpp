#include "keel/rpc/fee_methods.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "keel/blockchain/reads.hpp"
#include "keel/chain/header_rules.hpp"
#include "keel/eth/sender.hpp"
#include "keel/rpc/params.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

// geth's oracle settings (eth/ethconfig FullNodeGPO, eth/gasprice).
constexpr std::uint64_t kOracleBlocks = 20;
constexpr std::uint64_t kOraclePercentile = 60;
constexpr std::size_t kSamplesPerBlock = 3;
constexpr std::uint64_t kIgnoreBelow = 2;                       // wei
const Uint256 kMaxTip = Uint256(500) * Uint256(1'000'000'000);  // 500 gwei
constexpr std::uint64_t kDefaultTip = 1'000'000;                // geth's miner tip, 1 mwei
constexpr std::uint64_t kMaxFeeHistoryBlocks = 1024;
constexpr std::size_t kMaxPercentiles = 100;

// A transaction's tip in a block with `base_fee` (none before London: the whole price).
Uint256 tip_of(const eth::Transaction& tx, const std::optional<Uint256>& base_fee) {
    if (!base_fee) return tx.gas_price();
    const Uint256 price = eth::effective_gas_price(tx, *base_fee);
    return price > *base_fee ? price - *base_fee : Uint256(0);
}

Result<blockchain::StoredHeader, RpcError> header_at(const store::ChainStore& store,
                                                     std::uint64_t n) {
    auto h = blockchain::canonical_header(store, n);
    if (!h) return std::unexpected(internal_error(h.error().message));
    return std::move(*h);
}

Result<blockchain::StoredHeader, RpcError> head_header(const store::ChainStore& store) {
    auto head = head_number(store);
    if (!head) return std::unexpected(head.error());
    return header_at(store, *head);
}

// A block's fee (nullopt: its fork has none) as a QUANTITY, or null.
void write_fee(keel::json::Writer& w, const std::optional<Uint256>& fee) {
    if (fee) {
        w.quantity(*fee);
    } else {
        w.null();
    }
}

// The suggested tip, computed once per head.
class TipOracle {
  public:
    Result<Uint256, RpcError> tip(const store::ChainStore& store) {
        auto h = head_header(store);
        if (!h) return std::unexpected(h.error());
        std::lock_guard lock(mutex_);
        if (known_ && head_ == h->hash) return tip_;
        std::vector<Uint256> samples;
        const std::uint64_t head = h->header.number;
        const std::uint64_t first = head + 1 > kOracleBlocks ? head + 1 - kOracleBlocks : 0;
        for (std::uint64_t n = first; n <= head; ++n) {
            auto b = blockchain::stored_block(store, n);
            if (!b || !b->body) continue;  // pruned or not stored: no samples
            std::vector<std::pair<Uint256, const eth::Transaction*>> tips;
            for (const eth::Transaction& tx : b->body->transactions) {
                const Uint256 t = tip_of(tx, b->header.base_fee_per_gas);
                if (t < Uint256(kIgnoreBelow)) continue;
                tips.emplace_back(t, &tx);
            }
            std::sort(tips.begin(), tips.end(),
                      [](const auto& a, const auto& c) { return a.first < c.first; });
            std::size_t taken = 0;
            for (const auto& [t, tx] : tips) {
                if (taken == kSamplesPerBlock) break;
                auto from = eth::sender(*tx);
                if (from && *from == b->header.beneficiary) continue;
                samples.push_back(t);
                ++taken;
            }
            if (taken == 0) samples.push_back(known_ ? tip_ : Uint256(kDefaultTip));
        }
        Uint256 tip = known_ ? tip_ : Uint256(kDefaultTip);
        if (!samples.empty()) {
            std::sort(samples.begin(), samples.end());
            tip = samples[(samples.size() - 1) * kOraclePercentile / 100];
        }
        tip_ = std::min(tip, kMaxTip);
        head_ = h->hash;
        known_ = true;
        return tip_;
    }

  private:
    std::mutex mutex_;
    bool known_ = false;
    Hash32 head_;
    Uint256 tip_;
};

// The base fee of the block after `parent` (nullopt when that block is before London).
std::optional<Uint256> next_base_fee(const eth::Header& parent, const eth::ChainConfig& config) {
    const eth::Fork parent_fork = config.fork_at(parent.number, parent.timestamp);
    const eth::Fork fork = config.fork_at(parent.number + 1, parent.timestamp);
    if (fork < eth::Fork::london) return std::nullopt;
    return chain::expected_base_fee(parent, parent_fork, fork);
}

// A block's own blob base fee (nullopt before Cancun).
std::optional<Uint256> blob_fee_of(const eth::Header& h, const eth::ChainConfig& config) {
    if (!h.excess_blob_gas) return std::nullopt;
    const eth::Fork fork = config.fork_at(h.number, h.timestamp);
    return eth::blob_base_fee(*h.excess_blob_gas,
                              config.blob_params(fork, h.timestamp).base_fee_update_fraction);
}

// The blob base fee of the block after `parent`, with the parent's time deciding its rules
// (geth's feeHistory does the same).
Uint256 next_blob_fee(const eth::Header& parent, const eth::ChainConfig& config) {
    if (!parent.excess_blob_gas) return Uint256(0);
    const eth::Fork fork = config.fork_at(parent.number + 1, parent.timestamp);
    const eth::BlobParams params = config.blob_params(fork, parent.timestamp);
    const std::uint64_t excess = chain::expected_excess_blob_gas(parent, fork, params);
    return eth::blob_base_fee(excess, params.base_fee_update_fraction);
}

// blockCount: geth's math.HexOrDecimal64 (a hex or decimal string, or a JSON number).
Result<std::uint64_t, RpcError> block_count(const json& p) {
    if (p.empty() || p[0].is_null())
        return std::unexpected(
            RpcError{ErrorCode::invalid_params, "missing value for required argument 0"});
    const json& v = p[0];
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer() || v.is_number_float() || !v.is_string())
        return std::unexpected(invalid_argument(0, "invalid block count"));
    const std::string& s = v.get_ref<const std::string&>();
    if (s.starts_with("0x") || s.starts_with("0X")) {
        auto n = parse_quantity(s);
        if (!n) return std::unexpected(invalid_argument(0, n.error()));
        return *n;
    }
    std::uint64_t n = 0;
    if (s.empty() || s.size() > 19)
        return std::unexpected(invalid_argument(0, "invalid block count"));
    for (const char c : s) {
        if (c < '0' || c > '9') return std::unexpected(invalid_argument(0, "invalid block count"));
        n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return n;
}

Result<std::vector<double>, RpcError> percentiles_param(const json& p) {
    std::vector<double> out;
    if (p.size() < 3 || p[2].is_null()) return out;
    if (!p[2].is_array())
        return std::unexpected(invalid_argument(
            2, "json: cannot unmarshal non-array into Go value of type []float64"));
    if (p[2].size() > kMaxPercentiles)
        return std::unexpected(
            RpcError{ErrorCode::invalid_params,
                     "too many reward percentiles (max " + std::to_string(kMaxPercentiles) + ")"});
    for (std::size_t i = 0; i < p[2].size(); ++i) {
        const json& v = p[2][i];
        if (!v.is_number())
            return std::unexpected(invalid_argument(
                2, "json: cannot unmarshal non-number into Go value of type float64"));
        const double x = v.get<double>();
        if (!(x >= 0 && x <= 100))
            return std::unexpected(
                RpcError{ErrorCode::invalid_params, "invalid reward percentile: " + v.dump()});
        if (i > 0 && x < out.back())
            return std::unexpected(RpcError{ErrorCode::invalid_params,
                                            "invalid reward percentile: #" + std::to_string(i - 1) +
                                                ":" + p[2][i - 1].dump() + " > #" +
                                                std::to_string(i) + ":" + v.dump()});
        out.push_back(x);
    }
    return out;
}

// One block's entries of a fee history.
struct FeeRow {
    Uint256 base_fee;
    Uint256 blob_fee;
    double gas_ratio = 0;
    double blob_ratio = 0;
    std::vector<Uint256> rewards;
};

Result<FeeRow, RpcError> fee_row(const store::ChainStore& store, const eth::ChainConfig& config,
                                 std::uint64_t n, const std::vector<double>& percentiles) {
    auto b = blockchain::stored_block(store, n);
    if (!b) return std::unexpected(internal_error(b.error().message));
    const eth::Header& h = b->header;
    FeeRow row;
    row.base_fee = h.base_fee_per_gas.value_or(Uint256(0));
    row.blob_fee = blob_fee_of(h, config).value_or(Uint256(0));
    row.gas_ratio =
        h.gas_limit == 0 ? 0.0 : static_cast<double>(h.gas_used) / static_cast<double>(h.gas_limit);
    if (h.blob_gas_used) {
        const eth::Fork fork = config.fork_at(h.number, h.timestamp);
        const std::uint64_t max_blob_gas =
            config.blob_params(fork, h.timestamp).max * eth::kGasPerBlob;
        row.blob_ratio = max_blob_gas == 0 ? 0.0
                                           : static_cast<double>(*h.blob_gas_used) /
                                                 static_cast<double>(max_blob_gas);
    }
    if (percentiles.empty()) return row;
    row.rewards.assign(percentiles.size(), Uint256(0));
    if (!b->body || b->body->transactions.empty()) return row;
    auto receipts = blockchain::stored_receipts(store, n);
    if (!receipts) return std::unexpected(internal_error(receipts.error().message));
    const auto& txs = b->body->transactions;
    if (receipts->size() != txs.size())
        return std::unexpected(
            internal_error("block " + std::to_string(n) + ": receipts do not match"));
    // Transactions by tip, each weighted by the gas it used.
    std::vector<std::pair<Uint256, std::uint64_t>> sorted;
    std::uint64_t before = 0;
    for (std::size_t i = 0; i < txs.size(); ++i) {
        const std::uint64_t cumulative = (*receipts)[i].cumulative_gas_used;
        sorted.emplace_back(tip_of(txs[i], h.base_fee_per_gas), cumulative - before);
        before = cumulative;
    }
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& c) { return a.first < c.first; });
    std::size_t index = 0;
    std::uint64_t sum = sorted[0].second;
    for (std::size_t i = 0; i < percentiles.size(); ++i) {
        const auto threshold =
            static_cast<std::uint64_t>(static_cast<double>(h.gas_used) * percentiles[i] / 100);
        while (sum < threshold && index + 1 < sorted.size()) sum += sorted[++index].second;
        row.rewards[i] = sorted[index].first;
    }
    return row;
}

Result<void, RpcError> fee_history(const json& p, keel::json::Writer& w,
                                   const store::ChainStore& store, const eth::ChainConfig& config) {
    if (auto r = at_most(p, 3); !r) return r;
    auto count = block_count(p);
    if (!count) return std::unexpected(count.error());
    auto newest = block_number_param(p, 1, store);
    if (!newest) return std::unexpected(newest.error());
    auto percentiles = percentiles_param(p);
    if (!percentiles) return std::unexpected(percentiles.error());
    const std::uint64_t blocks = std::min({*count, kMaxFeeHistoryBlocks, *newest + 1});
    w.begin_object();
    if (blocks == 0) {
        w.member_quantity("oldestBlock", std::uint64_t{0});
        w.end_object();
        return {};
    }
    const std::uint64_t oldest = *newest + 1 - blocks;
    std::vector<FeeRow> rows;
    rows.reserve(blocks);
    for (std::uint64_t n = oldest; n <= *newest; ++n) {
        auto row = fee_row(store, config, n, *percentiles);
        if (!row) return std::unexpected(row.error());
        rows.push_back(std::move(*row));
    }
    auto last = header_at(store, *newest);
    if (!last) return std::unexpected(last.error());
    w.member_quantity("oldestBlock", oldest);
    if (!percentiles->empty()) {
        w.key("reward");
        w.begin_array();
        for (const FeeRow& r : rows) {
            w.begin_array();
            for (const Uint256& x : r.rewards) w.quantity(x);
            w.end_array();
        }
        w.end_array();
    }
    w.key("baseFeePerGas");
    w.begin_array();
    for (const FeeRow& r : rows) w.quantity(r.base_fee);
    w.quantity(next_base_fee(last->header, config).value_or(Uint256(0)));
    w.end_array();
    w.key("gasUsedRatio");
    w.begin_array();
    for (const FeeRow& r : rows) w.real(r.gas_ratio);
    w.end_array();
    w.key("baseFeePerBlobGas");
    w.begin_array();
    for (const FeeRow& r : rows) w.quantity(r.blob_fee);
    w.quantity(next_blob_fee(last->header, config));
    w.end_array();
    w.key("blobGasUsedRatio");
    w.begin_array();
    for (const FeeRow& r : rows) w.real(r.blob_ratio);
    w.end_array();
    w.end_object();
    return {};
}

}  // namespace

void add_fee_methods(Dispatcher& d, const NodeContext& node) {
    const store::ChainStore& store = node.store;
    const eth::ChainConfig& config = node.config;
    auto oracle = std::make_shared<TipOracle>();
    d.add("eth_maxPriorityFeePerGas",
          [&store, oracle](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 0); !r) return r;
              auto tip = oracle->tip(store);
              if (!tip) return std::unexpected(tip.error());
              w.quantity(*tip);
              return {};
          });
    d.add("eth_gasPrice",
          [&store, oracle](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 0); !r) return r;
              auto tip = oracle->tip(store);
              if (!tip) return std::unexpected(tip.error());
              auto h = head_header(store);
              if (!h) return std::unexpected(h.error());
              Uint256 price = *tip;
              if (h->header.base_fee_per_gas) {
                  const auto sum = add_overflow(price, *h->header.base_fee_per_gas);
                  price = sum.overflow ? Uint256::max() : sum.value;
              }
              w.quantity(price);
              return {};
          });
    d.add("eth_baseFee",
          [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 0); !r) return r;
              auto h = head_header(store);
              if (!h) return std::unexpected(h.error());
              write_fee(w, next_base_fee(h->header, config));
              return {};
          });
    d.add("eth_blobBaseFee",
          [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 0); !r) return r;
              auto h = head_header(store);
              if (!h) return std::unexpected(h.error());
              write_fee(w, blob_fee_of(h->header, config));
              return {};
          });
    d.add("eth_feeHistory", [&store, &config](const json& p, keel::json::Writer& w) {
        return fee_history(p, w, store, config);
    });
}

}  // namespace keel::rpc
