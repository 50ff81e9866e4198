#include "bench/evm_fixture.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "keel/common/hex.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/evm/evm.hpp"

namespace keel::bench {

namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& what) {
    throw std::runtime_error(where + ": " + what);
}

Bytes bytes_at(const json& j, const std::string& where) {
    if (!j.is_string()) bad(where, "not a hex string");
    auto b = hex::decode(j.get<std::string>());
    if (!b) bad(where, "not hex");
    return std::move(*b);
}

Uint256 number_at(const json& j, const std::string& where) {
    if (!j.is_string()) bad(where, "not a number string");
    const auto v = Uint256::from_string(j.get<std::string>());
    if (!v) bad(where, "not a 256-bit number");
    return *v;
}

template <std::size_t N>
FixedBytes<N> fixed_at(const json& j, const std::string& where) {
    const Bytes b = bytes_at(j, where);
    if (b.size() != N) bad(where, "not " + std::to_string(N) + " bytes");
    FixedBytes<N> f;
    std::copy(b.begin(), b.end(), f.data());
    return f;
}

// 21000 plus 4 per zero byte and 16 per other byte of call data (Istanbul on).
std::int64_t intrinsic(BytesView data) {
    std::int64_t g = 21000;
    for (const std::uint8_t b : data) g += b == 0 ? 4 : 16;
    return g;
}

}  // namespace

std::vector<EvmCase> load_evm_cases(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<EvmCase> out;
    for (const auto& f : files) {
        std::ifstream in(f);
        const json file = json::parse(in, nullptr, false);
        if (file.is_discarded() || !file.is_object()) bad(f.string(), "not a JSON object");
        for (const auto& [name, t] : file.items()) {
            const std::string where = f.filename().string() + " " + name;
            state::MemoryState pre;
            for (const auto& [addr, acct] : t.at("pre").items()) {
                std::vector<std::pair<Uint256, Uint256>> storage;
                for (const auto& [k, v] : acct.at("storage").items())
                    storage.emplace_back(number_at(json(k), where), number_at(v, where));
                pre.put(fixed_at<20>(json(addr), where),
                        number_at(acct.at("nonce"), where).as_u64(),
                        number_at(acct.at("balance"), where), bytes_at(acct.at("code"), where),
                        storage);
            }
            const json& tx = t.at("transaction");
            const auto sender =
                crypto::secp256k1::address_of(fixed_at<32>(tx.at("secretKey"), where));
            if (!sender) bad(where, "secretKey is not a key");
            const auto& post = t.at("post");
            const auto fork = eth::parse_fork(post.begin().key());
            if (!fork) bad(where, "unknown fork " + post.begin().key());
            const std::int64_t gas_limit =
                static_cast<std::int64_t>(number_at(tx.at("gasLimit").at(0), where).as_u64());
            for (std::size_t d = 0; d < tx.at("data").size(); ++d) {
                EvmCase c;
                c.name = name + "/" + std::to_string(d);
                c.pre = pre;
                c.sender = *sender;
                c.contract = fixed_at<20>(tx.at("to"), where);
                c.input = bytes_at(tx.at("data").at(d), where);
                c.gas = gas_limit - intrinsic(c.input);
                c.fork = *fork;
                out.push_back(std::move(c));
            }
        }
    }
    std::sort(out.begin(), out.end(),
              [](const EvmCase& a, const EvmCase& b) { return a.name < b.name; });
    return out;
}

evm::CallResult run_evm_case(const EvmCase& c, evm::AnalysisCache& cache, evm::Tracer* tracer) {
    state::Overlay overlay(c.pre);
    const evm::BlockEnv block;
    evm::TxEnv tx;
    tx.origin = c.sender;
    evm::Evm vm(overlay, block, tx, c.fork, tracer, &cache);
    evm::Message msg;
    msg.gas = c.gas;
    msg.sender = c.sender;
    msg.recipient = msg.code_address = c.contract;
    msg.input = c.input;
    return vm.call(msg);
}

}  // namespace keel::bench
