// Importer fuzz target: arbitrary bytes as a chain file (an RLP chain file, or an era1 archive
// when they start with the e2store version record) imported into one chain store kept across
// inputs (a fresh one every 256 inputs, so that genesis-first inputs keep being accepted).
// Properties:
//   - no input crashes or trips a sanitizer;
//   - an error is one line that names the file;
//   - whatever happened, the store stays consistent: the head only moves forward, to a block
//     that was checked and stored whole (keel storage verify's checks pass).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include <signal.h>
#include <unistd.h>

#include "keel/store/chain_store.hpp"
#include "keel/store/import.hpp"
#include "keel/store/verify.hpp"

namespace {

namespace fs = std::filesystem;

void check(bool ok) {
    if (!ok) std::abort();
}

struct State {
    fs::path dir = fs::temp_directory_path() / ("keel-import-fuzz-" + std::to_string(getpid()));
    fs::path file = dir / "input.rlp";
    std::unique_ptr<keel::store::ChainStore> store;
    int generation = 0;
    int inputs = 0;

    // Never destroyed: closing RocksDB from a static destructor races its own statics at exit.
    // Directories left by earlier runs (whose process is gone) are removed instead.
    State() {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(fs::temp_directory_path(), ec)) {
            const std::string name = e.path().filename().string();
            if (!name.starts_with("keel-import-fuzz-")) continue;
            const long pid = std::strtol(name.c_str() + 17, nullptr, 10);
            if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0) fs::remove_all(e.path(), ec);
        }
        fs::create_directories(dir);
    }

    keel::store::ChainStore& fresh_if_due() {
        if (store && inputs % 256 != 0) return *store;
        store.reset();
        const fs::path db = dir / ("db-" + std::to_string(generation++));
        std::error_code ec;
        fs::remove_all(dir / ("db-" + std::to_string(generation - 2)), ec);
        auto created = keel::store::ChainStore::create(db);
        check(created.has_value());
        store = std::make_unique<keel::store::ChainStore>(std::move(*created));
        return *store;
    }
};

State& state() {
    static State* s = new State;
    return *s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    State& s = state();
    keel::store::ChainStore& store = s.fresh_if_due();
    ++s.inputs;
    std::ofstream(s.file, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    const std::optional<std::uint64_t> before = store.head().value();

    auto importer = keel::store::Importer::create(store);
    check(importer.has_value());
    auto r = importer->import_file(s.file);
    if (!r) {
        const std::string& m = r.error().message;
        check(m.find('\n') == std::string::npos);
        check(m.starts_with(s.file.string()));
    }
    const std::optional<std::uint64_t> after = store.head().value();
    check(!before || (after && *after >= *before));
    if (after != before) {
        auto verified = keel::store::verify_store(store, {.progress = false});
        check(verified.has_value());
    }
    return 0;
}
