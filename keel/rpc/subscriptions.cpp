#include "keel/rpc/subscriptions.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "keel/blockchain/reads.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/json.hpp"
#include "keel/rpc/log_query.hpp"
#include "keel/rpc/random_id.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

constexpr auto kTick = std::chrono::milliseconds(250);
constexpr std::uint64_t kMaxBlocksPerLook = 1024;
constexpr std::size_t kKeptHashes = 128;     ///< reported blocks remembered, to find a reorg's fork
constexpr std::size_t kMaxQueuedTxs = 4096;  ///< the pool's news between two looks
/// Logs of reported blocks kept, all blocks together, to report them removed after a reorg.
constexpr std::size_t kMaxKeptLogs = 65536;

enum class Kind : std::uint8_t { heads, logs, pending };

struct Sub {
    Kind kind = Kind::heads;
    blockchain::LogFilter filter;  ///< logs: addresses and topics
    bool full = false;             ///< pending: whole transactions
};

// {"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":id,"result":...}}, the
// result written by `result`.
template <typename F>
std::string notification(const std::string& id, F&& result) {
    std::string out;
    keel::json::Writer w(out);
    w.begin_object();
    w.key("jsonrpc");
    w.string("2.0");
    w.key("method");
    w.string("eth_subscription");
    w.key("params");
    w.begin_object();
    w.key("subscription");
    w.string(id);
    w.key("result");
    result(w);
    w.end_object();
    w.end_object();
    return out;
}

// A JSON-RPC answer to `request` with `result` written by `write`, or `error`.
template <typename F>
void answer(const json& request, std::string& out, F&& write) {
    keel::json::Writer w(out);
    w.begin_object();
    w.key("jsonrpc");
    w.string("2.0");
    w.key("id");
    w.raw_value() += request.contains("id") ? request["id"].dump() : "null";
    write(w);
    w.end_object();
}

void answer_error(const json& request, std::string& out, const RpcError& e) {
    answer(request, out, [&e](keel::json::Writer& w) {
        w.key("error");
        w.begin_object();
        w.key("code");
        w.raw_value() += std::to_string(static_cast<std::int32_t>(e.code));
        w.key("message");
        w.string(e.message);
        w.end_object();
    });
}

}  // namespace

class Subscriptions::Connection {
  public:
    explicit Connection(Sink s) : sink(std::move(s)) {}
    Sink sink;
    std::mutex mutex;
    std::map<std::string, Sub> subs;  ///< by id
    bool dead = false;                ///< its sink refused a message: nothing more is sent

    // Sends `message`; a refusal ends every subscription of the connection.
    void send(std::string message) {
        if (dead) return;
        if (!sink(std::move(message))) {
            dead = true;
            subs.clear();
        }
    }
};

struct Subscriptions::Impl {
    explicit Impl(const NodeContext& n) : node(n) {}

    const NodeContext& node;
    mutable std::mutex mutex;  ///< connections, stopping, woken
    std::condition_variable cv;
    bool stopping = false;
    bool woken = false;
    std::vector<std::weak_ptr<Connection>> connections;
    std::thread thread;

    // The notifier's own state.
    std::optional<std::pair<std::uint64_t, Hash32>> last;  ///< the last head looked at
    std::map<std::uint64_t, Hash32> sent;                  ///< recent reported blocks' hashes
    /// A reported log, kept with its place so that a reorg can report it removed.
    struct KeptLog {
        eth::Log log;
        eth::ReceiptPlace place;
        Hash32 tx_hash;
        std::uint64_t index = 0;
    };
    /// The logs of recent reported blocks (while logs subscriptions exist), by number.
    std::map<std::uint64_t, std::vector<KeptLog>> kept_logs;
    std::size_t kept_log_count = 0;
    std::deque<eth::Transaction> taken_txs;  ///< what the pool took since the last look (mutex)

    void run() {
        std::unique_lock lock(mutex);
        while (!stopping) {
            woken = false;
            lock.unlock();
            look();
            lock.lock();
            cv.wait_for(lock, kTick, [this] { return stopping || woken; });
        }
    }

    std::vector<std::shared_ptr<Connection>> live() {
        std::vector<std::shared_ptr<Connection>> out;
        std::lock_guard lock(mutex);
        std::erase_if(connections, [&out](const std::weak_ptr<Connection>& w) {
            auto c = w.lock();
            if (!c) return true;
            out.push_back(std::move(c));
            return false;
        });
        return out;
    }

    // Calls `f(connection, id, sub)` for each subscription of kind `k` (under the connection's
    // lock, so an unsubscribe waits for the message being sent).
    template <typename F>
    void each(const std::vector<std::shared_ptr<Connection>>& conns, Kind k, F&& f) {
        for (const auto& c : conns) {
            std::lock_guard lock(c->mutex);
            for (auto it = c->subs.begin(); !c->dead && it != c->subs.end(); ++it) {
                if (it->second.kind == k) f(*c, it->first, it->second);
                if (c->dead) break;  // subs were cleared
            }
        }
    }

    bool any(const std::vector<std::shared_ptr<Connection>>& conns, Kind k) {
        bool found = false;
        each(conns, k, [&found](Connection&, const std::string&, const Sub&) { found = true; });
        return found;
    }

    void look() {
        const auto conns = live();
        look_heads(conns);
        look_pool(conns);
    }

    void look_heads(const std::vector<std::shared_ptr<Connection>>& conns) {
        auto head_number = node.store.head();
        if (!head_number || !*head_number) return;
        auto head_hash = node.store.canonical_hash(**head_number);
        if (!head_hash || !head_hash->found()) return;
        const std::pair<std::uint64_t, Hash32> head{**head_number, head_hash->value};
        if (!last) {  // the first look: only what comes after it is news
            last = head;
            sent[head.first] = head.second;
            return;
        }
        if (head == *last) return;
        // The first block not reported on the canonical chain: after the last head, or after
        // the fork point when the last head is no longer canonical.
        std::uint64_t from = last->first + 1;
        for (std::uint64_t n = last->first; n > 0; --n) {
            auto it = sent.find(n);
            if (it == sent.end()) break;
            auto h = node.store.canonical_hash(n);
            if (h && h->found() && h->value == it->second) break;
            from = n;
        }
        const bool logs = any(conns, Kind::logs);
        // The blocks reported before and taken off the chain now: their logs, removed (as geth
        // reports them: the oldest block first).
        for (std::uint64_t n = from; n <= last->first; ++n) {
            auto it = kept_logs.find(n);
            if (it == kept_logs.end()) continue;
            if (logs) send_logs(conns, it->second, /*removed=*/true);
            kept_log_count -= it->second.size();
            kept_logs.erase(it);
        }
        last = head;
        if (from > head.first) return;  // the head went back: nothing new to report
        if (head.first - from + 1 > kMaxBlocksPerLook) from = head.first - kMaxBlocksPerLook + 1;
        const bool heads = any(conns, Kind::heads);
        for (std::uint64_t n = from; n <= head.first; ++n) {
            auto h = blockchain::canonical_header(node.store, n);
            if (!h) break;  // pruned or damaged: nothing to show
            sent[n] = h->hash;
            if (heads) {
                each(conns, Kind::heads, [&h](Connection& c, const std::string& id, const Sub&) {
                    c.send(notification(id, [&h](keel::json::Writer& w) {
                        w.begin_object();
                        eth::write_header_members(w, h->header, h->hash, std::nullopt,
                                                  std::nullopt);
                        w.end_object();
                    }));
                });
            }
            if (logs) {
                // The block's logs read once, then each subscription's filter applied to them.
                std::vector<KeptLog> block_logs;
                blockchain::LogFilter all;
                all.from = all.to = n;
                (void)blockchain::for_each_log(
                    node.store, node.config, all,
                    [&](const eth::Log& log, const eth::ReceiptPlace& place, const Hash32& tx_hash,
                        std::uint64_t index) {
                        block_logs.push_back(KeptLog{log, place, tx_hash, index});
                    });
                send_logs(conns, block_logs, /*removed=*/false);
                kept_log_count += block_logs.size();
                if (auto old = kept_logs.find(n); old != kept_logs.end())
                    kept_log_count -= old->second.size();
                kept_logs[n] = std::move(block_logs);
            }
        }
        while (sent.size() > kKeptHashes) sent.erase(sent.begin());
        while (!kept_logs.empty() && !sent.empty() &&
               (kept_log_count > kMaxKeptLogs || kept_logs.begin()->first < sent.begin()->first)) {
            kept_log_count -= kept_logs.begin()->second.size();
            kept_logs.erase(kept_logs.begin());
        }
    }

    void send_logs(const std::vector<std::shared_ptr<Connection>>& conns,
                   const std::vector<KeptLog>& block_logs, bool removed) {
        if (block_logs.empty()) return;
        each(conns, Kind::logs, [&](Connection& c, const std::string& id, const Sub& s) {
            for (const KeptLog& k : block_logs) {
                if (!blockchain::log_matches(k.log, s.filter)) continue;
                c.send(notification(id, [&](keel::json::Writer& w) {
                    eth::write_rpc_log(w, k.log, k.place, k.tx_hash, k.index, removed);
                }));
            }
        });
    }

    // The pool took `tx` (its listener, on the adding thread): queued for the notifier.
    void taken(const eth::Transaction& tx) {
        {
            std::lock_guard lock(mutex);
            if (taken_txs.size() >= kMaxQueuedTxs) taken_txs.pop_front();
            taken_txs.push_back(tx);
            woken = true;
        }
        cv.notify_all();
    }

    void look_pool(const std::vector<std::shared_ptr<Connection>>& conns) {
        std::deque<eth::Transaction> txs;
        {
            std::lock_guard lock(mutex);
            txs.swap(taken_txs);
        }
        if (txs.empty() || !any(conns, Kind::pending)) return;
        for (const eth::Transaction& tx : txs) {
            each(conns, Kind::pending, [&](Connection& c, const std::string& id, const Sub& s) {
                c.send(notification(id, [&](keel::json::Writer& w) {
                    if (s.full)
                        (void)eth::write_transaction(
                            w, tx, {.with_sender = true, .place = nullptr, .pending = true});
                    else
                        w.data(tx.hash().view());
                }));
            });
        }
    }
};

Subscriptions::Subscriptions(const NodeContext& node) : impl_(std::make_unique<Impl>(node)) {
    if (node.pool != nullptr) {
        node.pool->set_on_add(
            [impl = impl_.get()](const eth::Transaction& tx) { impl->taken(tx); });
    }
    impl_->look();  // the head now: what comes after it is news
    impl_->thread = std::thread([this] { impl_->run(); });
}

Subscriptions::~Subscriptions() {
    if (impl_->node.pool != nullptr) impl_->node.pool->set_on_add(nullptr);
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stopping = true;
    }
    impl_->cv.notify_all();
    impl_->thread.join();
}

std::shared_ptr<Subscriptions::Connection> Subscriptions::connect(Sink sink) {
    auto c = std::make_shared<Connection>(std::move(sink));
    std::lock_guard lock(impl_->mutex);
    impl_->connections.push_back(c);
    return c;
}

void Subscriptions::wake() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->woken = true;
    }
    impl_->cv.notify_all();
}

std::size_t Subscriptions::count() const {
    std::size_t n = 0;
    std::lock_guard lock(impl_->mutex);
    for (const auto& w : impl_->connections) {
        if (auto c = w.lock()) {
            std::lock_guard clock(c->mutex);
            n += c->subs.size();
        }
    }
    return n;
}

bool Subscriptions::handle(const std::shared_ptr<Connection>& connection, const json& request,
                           std::string& out) {
    if (!request.is_object()) return false;
    auto method = request.find("method");
    if (method == request.end() || !method->is_string()) return false;
    const std::string& name = method->get_ref<const std::string&>();
    if (name != "eth_subscribe" && name != "eth_unsubscribe") return false;
    static const json kNoParams = json::array();
    auto p_it = request.find("params");
    const json& p = p_it == request.end() || p_it->is_null() ? kNoParams : *p_it;
    if (!p.is_array()) {
        answer_error(request, out, RpcError{ErrorCode::invalid_params, "non-array args"});
        return true;
    }

    if (name == "eth_unsubscribe") {
        if (p.empty() || !p[0].is_string()) {
            answer_error(
                request, out,
                RpcError{ErrorCode::invalid_params, "missing value for required argument 0"});
            return true;
        }
        bool removed = false;
        {
            std::lock_guard lock(connection->mutex);
            removed = connection->subs.erase(p[0].get<std::string>()) != 0;
        }
        answer(request, out, [removed](keel::json::Writer& w) {
            w.key("result");
            w.boolean(removed);
        });
        return true;
    }

    if (p.empty() || !p[0].is_string()) {
        answer_error(request, out,
                     RpcError{ErrorCode::invalid_params, "missing value for required argument 0"});
        return true;
    }
    const std::string& kind = p[0].get_ref<const std::string&>();
    Sub sub;
    if (kind == "newHeads") {
        sub.kind = Kind::heads;
    } else if (kind == "logs") {
        sub.kind = Kind::logs;
        if (p.size() > 1 && !p[1].is_null()) {
            auto q = log_query_param(p[1], impl_->node);
            if (!q) {
                answer_error(request, out, q.error());
                return true;
            }
            sub.filter.addresses = std::move(q->filter.addresses);
            sub.filter.topics = std::move(q->filter.topics);
        }
    } else if (kind == "newPendingTransactions") {
        sub.kind = Kind::pending;
        if (impl_->node.pool == nullptr) {
            answer_error(request, out,
                         RpcError{ErrorCode::method_not_found,
                                  "no \"newPendingTransactions\" subscription: no pool"});
            return true;
        }
        sub.full = p.size() > 1 && p[1].is_boolean() && p[1].get<bool>();
    } else {
        answer_error(request, out,
                     RpcError{ErrorCode::method_not_found,
                              "no \"" + kind + "\" subscription in eth namespace"});
        return true;
    }
    const auto fresh = random_id();
    if (!fresh) {
        answer_error(request, out, internal_error("no randomness for a subscription id"));
        return true;
    }
    const std::string& id = *fresh;
    {
        std::lock_guard lock(connection->mutex);
        if (connection->subs.size() >= kMaxSubscriptionsPerConnection) {
            answer_error(request, out,
                         RpcError{ErrorCode::limit_exceeded,
                                  "too many subscriptions on this connection (at most 16)"});
            return true;
        }
        connection->subs.emplace(id, std::move(sub));
    }
    answer(request, out, [&id](keel::json::Writer& w) {
        w.key("result");
        w.string(id);
    });
    return true;
}

}  // namespace keel::rpc
