#include "keel/trace/prestate_tracer.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "keel/eth/transaction.hpp"
#include "keel/evm/evm.hpp"
#include "keel/state/overlay.hpp"

namespace keel::trace {
namespace {

constexpr std::uint8_t kSload = 0x54, kSstore = 0x55, kBalance = 0x31, kExtCodeSize = 0x3b,
                       kExtCodeCopy = 0x3c, kExtCodeHash = 0x3f, kSelfDestruct = 0xff,
                       kCreate = 0xf0, kCall = 0xf1, kCallCode = 0xf2, kDelegateCall = 0xf4,
                       kCreate2 = 0xf5, kStaticCall = 0xfa;

// geth pads a CREATE2's init code read past memory with zeros, up to this much.
constexpr std::uint64_t kMemoryPadLimit = 1024 * 1024;

}  // namespace

Hash32 PrestateTracer::code_hash_of(const Address& a) {
    // geth's GetCodeHash: zero for an account that does not exist.
    if (!state_->exists(a)) return Hash32{};
    return state_->code_hash(a);
}

void PrestateTracer::lookup_account(const Address& a) {
    if (state_ == nullptr || pre_.contains(a)) return;
    Account acc;
    acc.balance = state_->balance(a);
    acc.nonce = state_->nonce(a);
    const state::Code& code = state_->code(a);
    if (!code->empty()) acc.code = code;
    const Hash32 hash = code_hash_of(a);
    if (hash != Hash32{} && hash != state::kEmptyCodeHash) acc.code_hash = hash;
    // geth's emptiness: no nonce, no code, no balance (storage is not read yet: none).
    acc.empty = acc.nonce == 0 && !acc.code && acc.balance.is_zero();
    if (options_.disable_code) acc.code.reset();
    pre_.emplace(a, std::move(acc));
    step_accounts_.push_back(a);
}

void PrestateTracer::lookup_storage(const Address& a, const Uint256& slot) {
    if (options_.disable_storage || state_ == nullptr) return;
    auto it = pre_.find(a);
    if (it == pre_.end()) return;  // every running contract was looked up when it was called
    if (it->second.storage.contains(slot)) return;
    it->second.storage.emplace(slot, state_->storage(a, slot));
    step_slots_.emplace_back(a, slot);
}

void PrestateTracer::on_tx_start(const evm::TxStartView& tx) {
    fork_ = tx.fork;
    state_ = &tx.state;
    pre_.clear();
    post_.clear();
    created_.clear();
    deleted_.clear();
    frames_.clear();
    Address to;
    if (tx.tx.is_create()) {
        to = evm::create_address(tx.sender, state_->nonce(tx.sender));
        created_.insert(to);
    } else {
        to = *tx.tx.to();
        if (fork_ >= eth::Fork::prague) {
            if (const auto target = evm::delegation_target(*state_->code(to))) {
                lookup_account(*target);
            }
        }
    }
    lookup_account(tx.sender);
    lookup_account(to);
    lookup_account(tx.block.coinbase);
    for (const std::optional<Address>& authority : tx.authorities) {
        if (authority) lookup_account(*authority);
    }
    step_accounts_.clear();
    step_slots_.clear();
    step_dirty_ = false;
}

void PrestateTracer::on_call_start(const evm::Message& msg) {
    frames_.push_back(msg.recipient);
}

void PrestateTracer::on_call_end(const evm::Message& /*msg*/, const evm::CallResult& /*result*/) {
    if (!frames_.empty()) frames_.pop_back();
}

namespace {

// The instructions that name an account or a slot.
constexpr auto kNames = [] {
    std::array<bool, 256> t{};
    for (const std::uint8_t op :
         {kSload, kSstore, kBalance, kExtCodeSize, kExtCodeCopy, kExtCodeHash, kSelfDestruct,
          kCreate, kCall, kCallCode, kDelegateCall, kCreate2, kStaticCall}) {
        t[op] = true;
    }
    return t;
}();

}  // namespace

const std::array<bool, 256>* PrestateTracer::step_ops() const {
    return &kNames;
}

void PrestateTracer::on_step(const evm::StepView& step) {
    // Other instructions come only when they fail (step_ops): they return before anything else
    // (what the last one that named an account looked up is forgotten first).
    if (step_dirty_) {
        step_accounts_.clear();
        step_slots_.clear();
        step_created_.clear();
        step_deleted_.clear();
        step_dirty_ = false;
    }
    if (!kNames[step.op] || frames_.empty() || state_ == nullptr) return;
    step_dirty_ = true;
    const Address self = frames_.back();
    const std::span<const Uint256> s = step.stack;
    const std::size_t n = s.size();
    switch (step.op) {
        case kSload:
        case kSstore:
            if (n >= 1) lookup_storage(self, s[n - 1]);
            break;
        case kExtCodeCopy:
        case kExtCodeHash:
        case kExtCodeSize:
        case kBalance:
        case kSelfDestruct:
            if (n >= 1) {
                lookup_account(evm::stack_address(s[n - 1]));
                // EIP-6780: from Cancun only a contract created in the transaction goes.
                if (step.op == kSelfDestruct &&
                    (fork_ < eth::Fork::cancun || created_.contains(self)) &&
                    deleted_.insert(self).second) {
                    step_deleted_.push_back(self);
                }
            }
            break;
        case kDelegateCall:
        case kCall:
        case kStaticCall:
        case kCallCode:
            if (n >= 5) {
                const Address callee = evm::stack_address(s[n - 2]);
                lookup_account(callee);
                if (fork_ >= eth::Fork::prague) {
                    if (const auto target = evm::delegation_target(*state_->code(callee))) {
                        lookup_account(*target);
                    }
                }
            }
            break;
        case kCreate: {
            const Address a = evm::create_address(self, state_->nonce(self));
            lookup_account(a);
            if (created_.insert(a).second) step_created_.push_back(a);
            break;
        }
        case kCreate2:
            if (n >= 4) {
                const Uint256& offset = s[n - 2];
                const Uint256& size = s[n - 3];
                // Go's int64 conversions: an offset or size of 2^63 or more is refused.
                if (!offset.fits_u64() || !size.fits_u64() || offset[0] >> 63 != 0 ||
                    size[0] >> 63 != 0) {
                    break;
                }
                const std::uint64_t off = offset[0];
                const std::uint64_t len = size[0];
                const std::uint64_t have = step.memory.size();
                if (off + len >= have && off + len - have > kMemoryPadLimit) break;
                Bytes init(len, 0);
                if (off < have) {
                    const std::uint64_t k = std::min(len, have - off);
                    std::memcpy(init.data(), step.memory.data() + off, k);
                }
                const Address a = evm::create2_address(self, s[n - 4].to_bytes32(), init);
                lookup_account(a);
                if (created_.insert(a).second) step_created_.push_back(a);
            }
            break;
        default:
            break;
    }
}

void PrestateTracer::on_step_error(evm::Status status) {
    if (!step_dirty_) return;
    // geth looks up only instructions that passed their gas and stack checks.
    if (status != evm::Status::out_of_gas && status != evm::Status::stack_underflow &&
        status != evm::Status::stack_overflow) {
        return;
    }
    for (const auto& [a, slot] : step_slots_) {
        auto it = pre_.find(a);
        if (it != pre_.end()) it->second.storage.erase(slot);
    }
    for (const Address& a : step_accounts_) pre_.erase(a);
    for (const Address& a : step_created_) created_.erase(a);
    for (const Address& a : step_deleted_) deleted_.erase(a);
    step_accounts_.clear();
    step_slots_.clear();
    step_created_.clear();
    step_deleted_.clear();
}

void PrestateTracer::on_tx_end(const evm::TxEndView& tx) {
    state_ = &tx.state;
    if (options_.diff_mode) diff();
    if (options_.include_empty) return;
    std::erase_if(pre_, [](const auto& kv) { return kv.second.empty; });
}

void PrestateTracer::diff() {
    for (auto it = pre_.begin(); it != pre_.end();) {
        const Address& a = it->first;
        Account& before = it->second;
        if (deleted_.contains(a)) {  // kept in pre, absent from post
            ++it;
            continue;
        }
        bool modified = false;
        Account after;
        after.has_balance = false;
        const Uint256 balance = state_->balance(a);
        const std::uint64_t nonce = state_->nonce(a);
        const Hash32 hash = code_hash_of(a);
        if (balance != before.balance) {
            modified = true;
            after.has_balance = true;
            after.balance = balance;
        }
        if (nonce != before.nonce) {
            modified = true;
            after.nonce = nonce;
        }
        const Hash32 hash_before = before.code_hash ? *before.code_hash : state::kEmptyCodeHash;
        if (hash != hash_before) {
            modified = true;
            after.code_hash = hash;
        }
        if (!options_.disable_code) {
            const state::Code& code = state_->code(a);
            const BytesView now(code->data(), code->size());
            const BytesView was = before.code ? BytesView(*before.code) : BytesView();
            if (!std::ranges::equal(now, was)) {
                modified = true;
                after.code = code;
            }
        }
        if (!options_.disable_storage) {
            for (auto s = before.storage.begin(); s != before.storage.end();) {
                const Uint256 value = state_->storage(a, s->first);
                if (value == s->second) {
                    s = before.storage.erase(s);  // unchanged slots are left out
                    continue;
                }
                modified = true;
                if (!value.is_zero()) after.storage.emplace(s->first, value);
                // A slot that was zero before is not shown in pre.
                s = s->second.is_zero() ? before.storage.erase(s) : std::next(s);
            }
        }
        if (modified) {
            post_.emplace(a, std::move(after));
            ++it;
        } else {
            it = pre_.erase(it);
        }
    }
}

void PrestateTracer::write_account(json::Writer& w, const Account& a) const {
    w.begin_object();
    if (a.has_balance) w.member_quantity("balance", a.balance);
    if (a.code) w.member_data("code", *a.code);
    if (a.code_hash) w.member_data("codeHash", BytesView(a.code_hash->data(), a.code_hash->size()));
    if (a.nonce != 0) {
        w.key("nonce");
        w.number(a.nonce);
    }
    if (!a.storage.empty()) {
        w.key("storage");
        w.begin_object();
        for (const auto& [k, v] : a.storage) {
            w.key_data(k.to_bytes32().view());
            w.data(v.to_bytes32().view());
        }
        w.end_object();
    }
    w.end_object();
}

void PrestateTracer::write(json::Writer& w) const {
    const auto write_map = [&](const std::map<Address, Account>& m) {
        w.begin_object();
        for (const auto& [a, acc] : m) {
            w.key_data(a.view());
            write_account(w, acc);
        }
        w.end_object();
    };
    if (!options_.diff_mode) {
        write_map(pre_);
        return;
    }
    w.begin_object();
    w.key("post");
    write_map(post_);
    w.key("pre");
    write_map(pre_);
    w.end_object();
}

}  // namespace keel::trace
