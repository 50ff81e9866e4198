#include "keel/evm/evm.hpp"

#include "keel/eth/contract_address.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include "keel/common/native_stack.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/evm/precompiles.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::evm {

namespace {

using eth::Fork;

Address last20(const Hash32& h) noexcept {
    Address a;
    std::memcpy(a.data(), h.data() + 12, 20);
    return a;
}

/// Every precompile address of every fork, in address order.
constexpr std::uint16_t kPrecompileIds[] = {1,   2,   3,   4,   5,   6,   7,    8,    9,
                                            0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x10, 0x11, 0x100};

Address address_of_id(std::uint16_t id) noexcept {
    Address a;
    a[18] = static_cast<std::uint8_t>(id >> 8);
    a[19] = static_cast<std::uint8_t>(id);
    return a;
}

}  // namespace

std::string_view describe(Status s) noexcept {
    switch (s) {
        case Status::success:
            return "success";
        case Status::revert:
            return "execution reverted";
        case Status::out_of_gas:
            return "out of gas";
        case Status::invalid_instruction:
            return "invalid instruction (INVALID)";
        case Status::undefined_instruction:
            return "undefined instruction";
        case Status::stack_underflow:
            return "stack underflow";
        case Status::stack_overflow:
            return "stack overflow";
        case Status::bad_jump_destination:
            return "invalid jump destination";
        case Status::invalid_memory_access:
            return "return data out of bounds";
        case Status::static_mode_violation:
            return "write protection (state change in a static call)";
        case Status::precompile_failure:
            return "precompile failed";
        case Status::contract_validation_failure:
            return "new code starts with 0xef (EIP-3541)";
        case Status::code_size_exceeded:
            return "new code exceeds 24576 bytes (EIP-170)";
        case Status::initcode_size_exceeded:
            return "init code exceeds 49152 bytes (EIP-3860)";
        case Status::create_collision:
            return "contract address collision";
        case Status::call_depth_exceeded:
            return "max call depth exceeded";
        case Status::insufficient_balance:
            return "insufficient balance for transfer";
        case Status::nonce_overflow:
            return "nonce overflow";
        case Status::code_store_out_of_gas:
            return "out of gas for the code deposit";
    }
    return "unknown status";
}

Address create_address(const Address& sender, std::uint64_t nonce) {
    return eth::contract_address(sender, nonce);
}

Address create2_address(const Address& sender, const Bytes32& salt, BytesView init_code) {
    std::uint8_t buf[1 + 20 + 32 + 32];
    buf[0] = 0xff;
    std::memcpy(buf + 1, sender.data(), 20);
    std::memcpy(buf + 21, salt.data(), 32);
    const Hash32 h = crypto::keccak256(init_code);
    std::memcpy(buf + 53, h.data(), 32);
    return last20(crypto::keccak256(BytesView(buf, sizeof buf)));
}

std::optional<Address> delegation_target(BytesView code) noexcept {
    if (code.size() != 23 || code[0] != 0xef || code[1] != 0x01 || code[2] != 0x00)
        return std::nullopt;
    Address a;
    std::memcpy(a.data(), code.data() + 3, 20);
    return a;
}

void Evm::FrameBuffers::Free::operator()(Uint256* p) const noexcept {
    ::operator delete[](p, std::align_val_t{kStackAlign});
}

Evm::Evm(state::Overlay& state, const BlockEnv& block, const TxEnv& tx, Fork fork, Tracer* tracer,
         AnalysisCache* cache)
    : state_(state),
      block_(block),
      tx_(tx),
      fork_(fork),
      tracer_(tracer),
      cache_(cache != nullptr ? cache : &own_cache_),
      interpreter_(select_interpreter(fork, tracer != nullptr)) {}

namespace {

/// Frame buffers that ended Evms left on this thread, for the next Evm to take: a node runs
/// one Evm per transaction, and allocating a fresh stack and memory for each cost page faults
/// on every first touch. Bounded: a few frames' worth, each memory buffer at most kPoolMemory.
struct BufferPool {
    static constexpr std::size_t kFrames = 16;
    static constexpr std::size_t kPoolMemory = std::size_t{1} << 20;
    std::vector<std::unique_ptr<Evm::FrameBuffers>> free;
};

BufferPool& buffer_pool() {
    thread_local BufferPool pool;
    return pool;
}

}  // namespace

Evm::~Evm() {
    BufferPool& pool = buffer_pool();
    for (auto& b : buffers_) {
        if (pool.free.size() >= BufferPool::kFrames) break;
        if (b->memory.capacity() > BufferPool::kPoolMemory) b->memory.release();
        pool.free.push_back(std::move(b));
    }
}

Evm::FrameBuffers& Evm::buffers(std::int32_t depth) {
    const auto d = static_cast<std::size_t>(depth);
    while (buffers_.size() <= d) {
        BufferPool& pool = buffer_pool();
        if (!pool.free.empty()) {
            buffers_.push_back(std::move(pool.free.back()));
            pool.free.pop_back();
            continue;
        }
        auto b = std::make_unique<FrameBuffers>();
        void* raw = ::operator new[](kStackLimit * sizeof(Uint256), std::align_val_t{kStackAlign});
        b->stack_words.reset(static_cast<Uint256*>(raw));
        b->stack = b->stack_words.get();
        buffers_.push_back(std::move(b));
    }
    return *buffers_[d];
}

std::shared_ptr<const CodeAnalysis> Evm::analysis(const Hash32& code_hash, BytesView code) {
    return cache_->get(code_hash, code, fork_);
}

std::vector<PrecompileAt> fork_precompiles(Fork fork) {
    std::vector<PrecompileAt> out;
    for (const std::uint16_t id : kPrecompileIds)
        if (precompile_exists(id, fork)) out.push_back(PrecompileAt{address_of_id(id), id});
    return out;
}

bool Evm::is_precompile(const Address& a) const noexcept {
    if (block_.precompiles != nullptr) return moved_precompile(a).has_value();
    const auto id = precompile_id(a);
    return id && precompile_exists(*id, fork_);
}

std::optional<std::uint16_t> Evm::moved_precompile(const Address& a) const noexcept {
    for (const PrecompileAt& p : *block_.precompiles)
        if (p.address == a) return p.id;
    return std::nullopt;
}

bool Evm::warm_from_start(const Address& a) const noexcept {
    const auto id = precompile_id(a);
    return id && precompile_exists(*id, fork_);
}

CallResult Evm::run_precompile(const Address& a, const Message& msg) {
    const auto id = block_.precompiles != nullptr ? moved_precompile(a) : precompile_id(a);
    return evm::run_precompile(*id, msg.input, msg.gas, fork_);
}

// The hooks see every frame, also one that ends before any code runs (depth, balance, no code,
// a collision), as geth's tracers do: a call tracer lists such calls too.
CallResult Evm::call(const Message& msg) {
#ifdef KEEL_EVM_NO_HOOKS
    return call_frame(msg);  // bench/evm_hooks_cost.sh: the build with no hook at all
#endif
    if (tracer_ == nullptr) return call_frame(msg);
    tracer_->on_call_start(msg);
    CallResult r = call_frame(msg);
    tracer_->on_call_end(msg, r);
    return r;
}

CallResult Evm::create(const Message& msg) {
    // The address first, from the nonce before this create raises it: the hooks name it.
    Message frame = msg;
    frame.recipient = frame.code_address =
        msg.kind == CallKind::create2 ? create2_address(msg.sender, msg.salt, msg.input)
                                      : create_address(msg.sender, state_.nonce(msg.sender));
#ifdef KEEL_EVM_NO_HOOKS
    return create_frame(frame);
#endif
    if (tracer_ == nullptr) return create_frame(frame);
    tracer_->on_call_start(frame);
    CallResult r = create_frame(frame);
    if (r.status == Status::success && r.output.empty()) {
        // A create returns no data to its caller; a tracer sees the code it deposited (or,
        // before Homestead, the code it could not pay to deposit: create_frame's output).
        CallResult seen{r.status, r.gas_left,
                        Bytes(state_.code(r.created)->begin(), state_.code(r.created)->end()),
                        r.created};
        tracer_->on_call_end(frame, seen);
    } else {
        tracer_->on_call_end(frame, r);
    }
    return r;
}

// The interpreter recurses through here (every CALL* and CREATE* of a frame): each depth level
// takes C++ stack, ~1.5 KB at -O3 but over 100 KB in an unoptimized sanitizer build, and the
// thread may have been given little (`ulimit -s`, a pool's workers). Below kFrameStackReserve
// of headroom the frame runs on a fresh stack instead (native_stack.hpp): 1,024 levels never
// overflow, whatever the build and the thread.
CallResult Evm::interpret(const Message& msg, const CodeAnalysis& code) {
    return native_stack::with_headroom(kFrameStackReserve,
                                       [&] { return interpreter_(*this, msg, code); });
}

// Whether the block's time limit has passed (BlockEnv::deadline).
bool Evm::out_of_time() const noexcept {
    return block_.deadline && std::chrono::steady_clock::now() >= *block_.deadline;
}

CallResult Evm::call_frame(const Message& msg) {
    if (msg.depth > kMaxDepth) return {Status::call_depth_exceeded, msg.gas, {}, {}};
    if (out_of_time()) [[unlikely]]
        return {Status::out_of_gas, 0, {}, {}};
    const bool transfers = msg.kind == CallKind::call || msg.kind == CallKind::callcode;
    if (transfers && state_.balance(msg.sender) < msg.value)
        return {Status::insufficient_balance, msg.gas, {}, {}};
    const auto snapshot = state_.snapshot();
    const bool precompile = is_precompile(msg.code_address);
    if (msg.kind == CallKind::call) {
        // Since EIP-161 a call without value to nobody does nothing at all (not even a touch).
        if (fork_ >= Fork::spurious_dragon && !precompile && msg.value.is_zero() &&
            !state_.exists(msg.recipient)) {
            return {Status::success, msg.gas, {}, {}};
        }
        state_.sub_balance(msg.sender, msg.value);
        state_.add_balance(msg.recipient, msg.value);  // creates and touches, even for zero
    } else if (msg.kind == CallKind::callcode) {
        state_.sub_balance(msg.sender, msg.value);
        state_.add_balance(msg.recipient, msg.value);
    } else if (msg.kind == CallKind::staticcall) {
        state_.add_balance(msg.recipient, Uint256{});  // a touch, as geth does
    }
    CallResult r;
    if (precompile) {
        r = run_precompile(msg.code_address, msg);
    } else {
        const state::Code* code = &state_.code(msg.code_address);
        Hash32 hash = state_.code_hash(msg.code_address);
        if (fork_ >= Fork::prague) {  // EIP-7702: a delegated account runs its delegate's code
            if (const auto target = delegation_target(**code)) {
                code = &state_.code(*target);
                hash = state_.code_hash(*target);
            }
        }
        if ((*code)->empty()) return {Status::success, msg.gas, {}, {}};
        const state::Code keep = *code;  // the overlay may replace its slot while this runs
        const auto analysis = this->analysis(hash, *keep);
        r = interpret(msg, *analysis);
    }
    if (r.status != Status::success) {
        state_.revert(snapshot);
        if (r.status != Status::revert) {
            r.gas_left = 0;
            r.output.clear();
        }
    }
    return r;
}

CallResult Evm::create_frame(const Message& msg) {
    if (msg.depth > kMaxDepth) return {Status::call_depth_exceeded, msg.gas, {}, {}};
    if (out_of_time()) [[unlikely]]
        return {Status::out_of_gas, 0, {}, {}};
    if (state_.balance(msg.sender) < msg.value)
        return {Status::insufficient_balance, msg.gas, {}, {}};
    const std::uint64_t nonce = state_.nonce(msg.sender);
    if (nonce == std::numeric_limits<std::uint64_t>::max())
        return {Status::nonce_overflow, msg.gas, {}, {}};
    state_.set_nonce(msg.sender, nonce + 1);
    const Address address = msg.recipient;
    if (fork_ >= Fork::berlin) state_.access_account(address);
    // The address must be unused: no nonce, no code, no storage (EIP-684, EIP-7610).
    if (state_.nonce(address) != 0 || state_.code_hash(address) != state::kEmptyCodeHash ||
        state_.has_storage(address)) {
        return {Status::create_collision, 0, {}, {}};
    }
    const auto snapshot = state_.snapshot();
    state_.create_contract(address);
    if (fork_ >= Fork::spurious_dragon) state_.set_nonce(address, 1);  // EIP-161
    state_.sub_balance(msg.sender, msg.value);
    state_.add_balance(address, msg.value);

    Message frame = msg;
    frame.recipient = address;
    frame.code_address = address;
    frame.input = {};
    const CodeAnalysis init = analyze(msg.input, fork_);
    CallResult r = interpret(frame, init);
    if (r.status == Status::success) {
        Bytes code = std::move(r.output);
        r.output.clear();
        const auto deposit = static_cast<std::int64_t>(200 * code.size());
        if (fork_ >= Fork::spurious_dragon && code.size() > kMaxCodeSize) {
            r.status = Status::code_size_exceeded;
        } else if (fork_ >= Fork::london && !code.empty() && code[0] == 0xef) {
            r.status = Status::contract_validation_failure;  // EIP-3541
        } else if (r.gas_left < deposit) {
            // Frontier keeps the account without code; from Homestead on (EIP-2) it fails.
            if (fork_ >= Fork::homestead) {
                r.status = Status::code_store_out_of_gas;
            } else {
                r.created = address;
                r.output = std::move(code);  // what a tracer shows (geth's call tracers do)
                return r;
            }
        } else {
            r.gas_left -= deposit;
            state_.set_code(address, std::move(code));
        }
        if (r.status == Status::success) {
            r.created = address;
            return r;
        }
    }
    state_.revert(snapshot);
    if (r.status != Status::revert) {
        r.gas_left = 0;
        r.output.clear();
    }
    return r;
}

}  // namespace keel::evm
