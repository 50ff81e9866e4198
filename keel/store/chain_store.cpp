#include "keel/store/chain_store.hpp"

#include <fcntl.h>
#include <rocksdb/cache.h>
#include <rocksdb/compaction_filter.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/status.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstring>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "keel/store/detail/db.hpp"
#include "keel/store/keys.hpp"
#include "keel/store/state_store.hpp"

namespace keel::store {
namespace {

// RocksDB's info log for read-only opens: discarded. RocksDB otherwise renames the LOG file and
// starts a new one at every open, so each `keel get` left a file behind.
class NullLogger final : public rocksdb::Logger {
  public:
    using rocksdb::Logger::Logv;
    void Logv(const char* /*format*/, va_list /*ap*/) override {}
};

// An exclusive flock on `path` (created if missing), released and the file removed on
// destruction. A process that finds the file locked gets busy() instead of waiting.
class CreateLock {
  public:
    explicit CreateLock(std::filesystem::path path) : path_(std::move(path)) {
        fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) {
            errno_ = errno;
            return;
        }
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            errno_ = errno;
            ::close(fd_);
            fd_ = -1;
        }
    }
    CreateLock(const CreateLock&) = delete;
    CreateLock& operator=(const CreateLock&) = delete;
    ~CreateLock() {
        if (fd_ < 0) return;
        // Unlinked while still held: a process that opened the old file and waits for it finds
        // the store in place when it gets the lock, and gives up (create() re-checks the path).
        ::unlink(path_.c_str());
        ::close(fd_);
    }
    bool held() const noexcept { return fd_ >= 0; }
    bool busy() const noexcept { return errno_ == EWOULDBLOCK; }
    int error() const noexcept { return errno_; }

  private:
    std::filesystem::path path_;
    int fd_ = -1;
    int errno_ = 0;
};

// Drops tx lookup entries whose block lies below the history floor (docs/store.md): the value
// starts with the block number, so no transaction is decoded and no key is deleted one by one.
// Each drop is counted (a relaxed add: drops are rare next to the entries a compaction reads).
class TxLookupFilter final : public rocksdb::CompactionFilter {
  public:
    TxLookupFilter(std::uint64_t floor, Counter* dropped) noexcept
        : floor_(floor), dropped_(dropped) {}
    bool Filter(int /*level*/, const rocksdb::Slice& /*key*/, const rocksdb::Slice& value,
                std::string* /*new_value*/, bool* /*value_changed*/) const override {
        const bool drop = value.size() >= 8 && get_be64(value.data()) < floor_;
        if (drop) dropped_->fetch_add(1, std::memory_order_relaxed);
        return drop;
    }
    const char* Name() const override { return "keel.TxLookupFilter"; }

  private:
    std::uint64_t floor_;
    Counter* dropped_;
};

class TxLookupFilterFactory final : public rocksdb::CompactionFilterFactory {
  public:
    TxLookupFilterFactory(std::shared_ptr<Counter> floor, std::shared_ptr<Counter> dropped) noexcept
        : floor_(std::move(floor)), dropped_(std::move(dropped)) {}
    std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
        const rocksdb::CompactionFilter::Context& /*context*/) override {
        // The floor is read once per compaction: a floor raised meanwhile applies to the next.
        return std::make_unique<TxLookupFilter>(floor_->load(std::memory_order_acquire),
                                                dropped_.get());
    }
    const char* Name() const override { return "keel.TxLookupFilterFactory"; }

  private:
    std::shared_ptr<Counter> floor_;
    std::shared_ptr<Counter> dropped_;
};

}  // namespace

bool ChainStore::has_writer(const std::filesystem::path& path) {
    const int fd = ::open((path / "LOCK").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct flock probe{};
    probe.l_type = F_RDLCK;  // conflicts with the writer's write lock on the whole file
    probe.l_whence = SEEK_SET;
    const bool held = ::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
    ::close(fd);
    return held;
}

Result<void, StoreError> ChainStore::Impl::init(Impl* impl, const std::filesystem::path& path,
                                                const StoreOptions& options, bool create) {
    impl->path = path;
    impl->write_options.sync = options.sync;

    rocksdb::DBOptions db_options;
    db_options.create_if_missing = create;
    // A store made before the state families existed gets them at its first writing open.
    db_options.create_missing_column_families = !options.read_only;
    db_options.error_if_exists = create;
    // A manual compaction (pruning's space reclamation) is split over every core.
    db_options.max_subcompactions = std::max(1u, std::thread::hardware_concurrency());
    db_options.max_background_jobs = std::max(2, static_cast<int>(db_options.max_subcompactions));
    // Table files are opened at open by this many threads per column family (RocksDB's default
    // is 16: with 17 families every open started and joined 272 threads, 130 ms for an empty
    // store). One per core.
    db_options.max_file_opening_threads = static_cast<int>(db_options.max_subcompactions);

    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    // One block cache for every family (RocksDB's default is 8 MB per table factory): state
    // reads, historical ones most, touch a data block per level, and a warm read should find
    // them decompressed in memory. Sized by StoreOptions::cache_bytes.
    const std::shared_ptr<rocksdb::Cache> cache = rocksdb::NewLRUCache(options.cache_bytes);
    for (std::size_t i = 0; i < kCfCount; ++i) {
        rocksdb::ColumnFamilyOptions cf_options;
        // Point reads (header by hash, tx lookup by hash, block by number) skip table files
        // that do not hold the key: a Bloom filter of 10 bits per key (~1% false positives).
        rocksdb::BlockBasedTableOptions table;
        table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
        table.block_cache = cache;
        cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
        if (i == kTxLookup) {
            cf_options.compaction_filter_factory =
                std::make_shared<TxLookupFilterFactory>(impl->floor, impl->dropped);
            // Hash keys and small numbers do not compress: skip the work.
            cf_options.compression = rocksdb::kNoCompression;
        }
        if (i == kAccountHistory || i == kStorageHistory) {
            // A historical read seeks within one key's rows (keccak(address), or it and
            // keccak(slot)): a prefix Bloom filter lets the seek skip every table file and the
            // memtable that hold no row of that key, instead of positioning in each.
            cf_options.prefix_extractor.reset(
                rocksdb::NewFixedPrefixTransform(i == kAccountHistory ? 32 : 64));
            cf_options.memtable_prefix_bloom_size_ratio = 0.05;
        }
        if (i >= kAccounts && i <= kChangeSets) {
            // The state families take thousands of rows of random hashes a block. A memtable of
            // RocksDB's default 64 MB holds a skip list too deep for the caches: every insert
            // and every read of a recently written row (the trie's upper nodes, every block)
            // walked it from far away. 16 MB ones made an executing import 1.4x faster.
            cf_options.write_buffer_size = 16 << 20;
        }
        if (i == kAccounts || i == kStorage || i == kAccountTrie || i == kStorageTrie) {
            // Execution and the trie updates read these by key, mostly keys the memtable does
            // not hold: a whole-key Bloom filter in the memtable answers those without a walk
            // down its skip list.
            cf_options.memtable_prefix_bloom_size_ratio = 0.05;
            cf_options.memtable_whole_key_filtering = true;
        }
        descriptors.emplace_back(std::string(kCfNames[i]), cf_options);
    }
    rocksdb::Status s;
    if (options.read_only) {
        db_options.info_log = std::make_shared<NullLogger>();
        // Every table file is opened now, so a compaction of a concurrent writer that deletes
        // one cannot pull it from under a later read.
        db_options.max_open_files = -1;
        s = rocksdb::DB::OpenForReadOnly(db_options, path.string(), descriptors, &impl->cfs,
                                         &impl->db);
    } else {
        // One LOG per open, rotated: keep a few, not RocksDB's default of 1000.
        db_options.keep_log_file_num = 4;
        if (create) {
            // A new database gets its families in one call: opened with every family missing,
            // RocksDB creates them one by one and writes (and parses back) its OPTIONS file after
            // each, 17 times over a growing file: 96 % of the time to create a store.
            s = rocksdb::DB::Open(db_options, path.string(), {descriptors.front()}, &impl->cfs,
                                  &impl->db);
            if (s.ok()) {
                std::vector<rocksdb::ColumnFamilyHandle*> created;
                s = impl->db->CreateColumnFamilies(std::vector<rocksdb::ColumnFamilyDescriptor>(
                                                       descriptors.begin() + 1, descriptors.end()),
                                                   &created);
                impl->cfs.insert(impl->cfs.end(), created.begin(), created.end());
            }
            if (!s.ok() && impl->db != nullptr) {
                for (auto* h : impl->cfs) impl->db->DestroyColumnFamilyHandle(h);
                impl->cfs.clear();
                impl->db->Close().PermitUncheckedError();
                delete impl->db;
                impl->db = nullptr;
            }
        } else {
            s = rocksdb::DB::Open(db_options, path.string(), descriptors, &impl->cfs, &impl->db);
        }
    }
    if (!s.ok()) {
        impl->cfs.clear();
        impl->db = nullptr;
        if (options.read_only && s.IsInvalidArgument() &&
            s.ToString().find("Column family not found") != std::string::npos) {
            return unexpected(StoreError{"store open " + path.string() +
                                         ": made by an older keel (no state families); open it "
                                         "once with a writing command (keel import) to add them"});
        }
        return unexpected(make_error(create ? "create" : "open", path, s));
    }

    if (create) {
        rocksdb::WriteBatch batch;
        batch.Put(impl->cfs[kMeta], slice(kMetaSchema), slice(num_key(kSchemaVersion)));
        batch.Put(impl->cfs[kMeta], slice(kMetaHistoryFloor), slice(num_key(0)));
        rocksdb::WriteOptions wo;
        wo.sync = true;
        const rocksdb::Status ws = impl->db->Write(wo, &batch);
        if (!ws.ok()) return unexpected(impl->error("create", ws));
    } else {
        auto version = impl->get_u64(kMeta, slice(kMetaSchema));
        if (!version) return unexpected(version.error());
        if (*version != kSchemaVersion) {
            return unexpected(StoreError{"store open " + path.string() +
                                         ": not a keel store of schema version " +
                                         std::to_string(kSchemaVersion)});
        }
    }
    auto floor = impl->get_u64(kMeta, slice(kMetaHistoryFloor));
    if (!floor) return unexpected(floor.error());
    impl->floor->store(floor->value_or(0), std::memory_order_release);
    if (auto head = impl->get_u64(kMeta, slice(kMetaHead))) impl->remember_head(*head);
    return {};
}

ChainStore::ChainStore(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
ChainStore::ChainStore(ChainStore&&) noexcept = default;
ChainStore& ChainStore::operator=(ChainStore&&) noexcept = default;
ChainStore::~ChainStore() = default;

Result<ChainStore, StoreError> ChainStore::open(const std::filesystem::path& path,
                                                const StoreOptions& options) {
    // RocksDB creates a missing directory, and its LOCK and LOG files, before it finds no
    // database there: look first, so that opening a wrong path leaves nothing behind.
    std::error_code ec;
    const char* missing = nullptr;
    if (!std::filesystem::exists(path, ec)) {
        missing = "no such directory";
    } else if (!std::filesystem::is_directory(path, ec)) {
        missing = "not a directory";
    } else if (!std::filesystem::exists(path / "CURRENT", ec)) {
        missing = "no database in this directory (no CURRENT file)";
    }
    if (missing != nullptr) {
        return unexpected(StoreError{"store open " + path.string() + ": " + missing});
    }
    // A read-only open beside a writer reads the writer's MANIFEST, table files and WAL as they
    // are at that moment; a flush or compaction that replaces one of them meanwhile makes the
    // open fail with a missing file. Opening again reads the new set: a few tries.
    constexpr int kReadOnlyTries = 8;
    const int tries = options.read_only ? kReadOnlyTries : 1;
    StoreError last;
    for (int attempt = 0; attempt < tries; ++attempt) {
        if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(5 * attempt));
        auto impl = std::make_unique<Impl>();
        auto r = Impl::init(impl.get(), path, options, false);
        if (r) return ChainStore(std::move(impl));
        last = std::move(r.error());
    }
    return unexpected(std::move(last));
}

Result<ChainStore, StoreError> ChainStore::create(const std::filesystem::path& path,
                                                  const StoreOptions& options) {
    // The store is built under a sibling name and renamed into place once its schema version
    // is written, so a crash while creating never leaves a directory at `path` that is neither
    // absent (or empty) nor a store.
    namespace fs = std::filesystem;
    fs::path target = path.lexically_normal();
    if (!target.has_filename()) target = target.parent_path();
    std::error_code ec;
    auto occupied = [&] {
        return fs::exists(target, ec) &&
               !(fs::is_directory(target, ec) && fs::is_empty(target, ec));
    };
    if (occupied()) {
        return unexpected(StoreError{"store create " + path.string() +
                                     ": the path exists and is not an empty directory"});
    }
    if (options.read_only) {
        return unexpected(StoreError{"store create " + path.string() + ": asked read-only"});
    }
    if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
    // The lock comes before anything else is written: two creates of the same store used to
    // remove each other's staging directory and leave neither a store.
    fs::path lock_path = target;
    lock_path += ".lock";
    const CreateLock lock(lock_path);
    if (!lock.held()) {
        if (lock.busy()) {
            return unexpected(StoreError{"store create " + path.string() +
                                         ": another process is creating this store (" +
                                         lock_path.string() + " is locked)"});
        }
        return unexpected(StoreError{"store create " + path.string() + ": cannot lock " +
                                     lock_path.string() + ": " + std::strerror(lock.error())});
    }
    if (occupied()) {  // created by the process that held the lock before us
        return unexpected(StoreError{"store create " + path.string() +
                                     ": the path exists and is not an empty directory"});
    }
    fs::path staging = target;
    staging += ".creating";
    fs::remove_all(staging, ec);  // left by a create that crashed (we hold the lock)
    {
        auto impl = std::make_unique<Impl>();
        if (auto r = Impl::init(impl.get(), staging, options, true); !r) {
            return unexpected(r.error());
        }
    }  // closed
    fs::rename(staging, target, ec);
    if (ec) {
        return unexpected(StoreError{"store create " + path.string() + ": rename from " +
                                     staging.string() + ": " + ec.message()});
    }
    return open(target, options);  // before the lock goes: a waiting create finds it in place
}

Result<void, StoreError> ChainStore::put_blocks(std::span<const BlockToStore> blocks,
                                                const StateUpdate* state) {
    if (blocks.empty()) return {};
    Impl& d = *impl_;
    const std::lock_guard lock(d.write_mutex);
    auto head = d.get_u64(kMeta, slice(kMetaHead));
    if (!head) return unexpected(head.error());

    rocksdb::WriteBatch batch;
    struct Lookup {
        const Hash32* hash;
        decltype(keys::tx_location(0, 0)) location;
    };
    std::vector<Lookup> lookups;
    std::optional<std::uint64_t> new_head = *head;
    bool rewrites = false;  // a canonical hash at or below the head replaced by another
    for (const BlockToStore& b : blocks) {
        if (!rewrites && *head && b.number <= **head) {
            auto held = d.canonical(b.number);
            if (!held) return unexpected(held.error());
            rewrites = !*held || **held != b.hash;
        }
        const NumHashKey nh = num_hash_key(b.number, b.hash);
        const NumKey n = num_key(b.number);
        const Bytes32 td = b.total_difficulty.to_bytes32();
        batch.Put(d.cfs[kHeaders], slice(nh), slice(b.header_rlp));
        batch.Put(d.cfs[kHeaderNumbers], slice(b.hash), slice(n));
        batch.Put(d.cfs[kCanonical], slice(n), slice(b.hash));
        batch.Put(d.cfs[kTd], slice(nh), slice(td));
        batch.Put(d.cfs[kBodies], slice(nh), slice(b.body_rlp));
        if (!b.receipts_rlp.empty()) batch.Put(d.cfs[kReceipts], slice(nh), slice(b.receipts_rlp));
        for (std::size_t i = 0; i < b.tx_hashes.size(); ++i) {
            lookups.push_back(
                {&b.tx_hashes[i], keys::tx_location(b.number, static_cast<std::uint32_t>(i))});
        }
        if (!new_head || b.number > *new_head) new_head = b.number;
    }
    // Lookup keys are random hashes. Inserted in key order, each one lands next to the one
    // before it in the memtable's skip list, which makes the insertion search short (RocksDB
    // starts from the previous insertion point): about a third less write time at import.
    std::sort(lookups.begin(), lookups.end(),
              [](const Lookup& a, const Lookup& b) { return *a.hash < *b.hash; });
    for (const Lookup& l : lookups)
        batch.Put(d.cfs[kTxLookup], slice(*l.hash), slice(BytesView(l.location)));
    batch.Put(d.cfs[kMeta], slice(kMetaHead), slice(num_key(*new_head)));
    if (state != nullptr) {
        if (auto r = add_state_rows(d, *state, batch); !r) return unexpected(r.error());
    }
    // A state update that does not continue the kept recent blocks: readers stop trusting them
    // before the write and again after it (recent_state.hpp).
    const bool continues = state == nullptr || d.recent.continues(state->number);
    if (!continues) d.recent.forget();
    if (state != nullptr) d.state_tip.writing();
    const rocksdb::Status s = d.db->Write(d.write_options, &batch);
    if (state != nullptr) d.state_tip.written();
    if (!s.ok()) return unexpected(d.error("write", s));
    if (!continues) d.recent.forget();
    d.remember_head(new_head);
    if (state != nullptr) d.recent.written(*state);
    if (rewrites) d.canonical_rewrites.fetch_add(1);
    return {};
}

Result<void, StoreError> ChainStore::put_state(const StateUpdate& state) {
    Impl& d = *impl_;
    const std::lock_guard lock(d.write_mutex);
    rocksdb::WriteBatch batch;
    if (auto r = add_state_rows(d, state, batch); !r) return unexpected(r.error());
    d.recent.forget();  // an unwind or a rewind: not a block on top of the kept ones
    d.state_tip.writing();
    const rocksdb::Status s = d.db->Write(d.write_options, &batch);
    d.state_tip.written();
    if (!s.ok()) return unexpected(d.error("write", s));
    d.recent.forget();
    return {};
}

Result<Read<Bytes>, StoreError> ChainStore::header_by_number(std::uint64_t number) const {
    return impl_->by_number(kHeaders, number, false);
}

Result<Read<Bytes>, StoreError> ChainStore::header_by_hash(const Hash32& hash) const {
    auto n = block_number(hash);
    if (!n) return unexpected(n.error());
    if (!n->found()) return Read<Bytes>{};
    auto v = impl_->get(kHeaders, slice(num_hash_key(n->value, hash)));
    if (!v) return unexpected(v.error());
    if (!*v) return Read<Bytes>{};
    return Read<Bytes>{ReadStatus::found, to_bytes(**v)};
}

Result<Read<Hash32>, StoreError> ChainStore::canonical_hash(std::uint64_t number) const {
    auto h = impl_->canonical(number);
    if (!h) return unexpected(h.error());
    if (!*h) return Read<Hash32>{};
    return Read<Hash32>{ReadStatus::found, **h};
}

Result<Read<std::uint64_t>, StoreError> ChainStore::block_number(const Hash32& hash) const {
    auto n = impl_->get_u64(kHeaderNumbers, slice(hash));
    if (!n) return unexpected(n.error());
    if (!*n) return Read<std::uint64_t>{};
    return Read<std::uint64_t>{ReadStatus::found, **n};
}

Result<Read<Uint256>, StoreError> ChainStore::total_difficulty(std::uint64_t number) const {
    auto h = impl_->canonical(number);
    if (!h) return unexpected(h.error());
    if (!*h) return Read<Uint256>{};
    return total_difficulty_at(number, **h);
}

Result<Read<Bytes>, StoreError> ChainStore::body_at(std::uint64_t number,
                                                    const Hash32& hash) const {
    return impl_->at(kBodies, number, hash, true);
}

Result<Read<Bytes>, StoreError> ChainStore::receipts_at(std::uint64_t number,
                                                        const Hash32& hash) const {
    return impl_->at(kReceipts, number, hash, true);
}

Result<void, StoreError> ChainStore::put_side_block(const BlockToStore& b) {
    const std::lock_guard lock(impl_->write_mutex);
    rocksdb::WriteBatch batch;
    const NumHashKey nh = num_hash_key(b.number, b.hash);
    const Bytes32 td = b.total_difficulty.to_bytes32();
    batch.Put(impl_->cfs[kHeaders], slice(nh), slice(b.header_rlp));
    batch.Put(impl_->cfs[kHeaderNumbers], slice(b.hash), slice(num_key(b.number)));
    batch.Put(impl_->cfs[kTd], slice(nh), slice(td));
    batch.Put(impl_->cfs[kBodies], slice(nh), slice(b.body_rlp));
    if (!b.receipts_rlp.empty()) batch.Put(impl_->cfs[kReceipts], slice(nh), slice(b.receipts_rlp));
    const rocksdb::Status s = impl_->db->Write(impl_->write_options, &batch);
    if (!s.ok()) return unexpected(impl_->error("write", s));
    return {};
}

Result<void, StoreError> ChainStore::unwind_head(const StateUpdate& state,
                                                 std::span<const Hash32> tx_hashes) {
    Impl& d = *impl_;
    const std::lock_guard lock(d.write_mutex);
    rocksdb::WriteBatch batch;
    if (auto r = add_state_rows(d, state, batch); !r) return unexpected(r.error());
    batch.Delete(d.cfs[kCanonical], slice(num_key(state.number + 1)));
    for (const Hash32& h : tx_hashes) batch.Delete(d.cfs[kTxLookup], slice(h));
    batch.Put(d.cfs[kMeta], slice(kMetaHead), slice(num_key(state.number)));
    d.recent.forget();
    d.state_tip.writing();
    const rocksdb::Status s = d.db->Write(d.write_options, &batch);
    d.state_tip.written();
    if (!s.ok()) return unexpected(d.error("write", s));
    d.remember_head(state.number);
    d.recent.forget();
    d.canonical_rewrites.fetch_add(1);
    return {};
}

Result<Read<Uint256>, StoreError> ChainStore::total_difficulty_at(std::uint64_t number,
                                                                  const Hash32& hash) const {
    auto v = impl_->get(kTd, slice(num_hash_key(number, hash)));
    if (!v) return unexpected(v.error());
    if (!*v) return Read<Uint256>{};
    auto td = Bytes32::from(as_bytes(**v));
    if (!td) return unexpected(corrupt(impl_->path, "total difficulty"));
    return Read<Uint256>{ReadStatus::found, Uint256::from_be_bytes(*td)};
}

Result<Read<Bytes>, StoreError> ChainStore::body(std::uint64_t number) const {
    return impl_->by_number(kBodies, number, true);
}

Result<Read<Bytes>, StoreError> ChainStore::receipts(std::uint64_t number) const {
    return impl_->by_number(kReceipts, number, true);
}

Result<Read<TxLocation>, StoreError> ChainStore::tx_lookup(const Hash32& tx_hash) const {
    auto v = impl_->get(kTxLookup, slice(tx_hash));
    if (!v) return unexpected(v.error());
    if (!*v) return Read<TxLocation>{};
    const auto parsed = keys::parse_tx_location(as_bytes(**v));
    if (!parsed) return unexpected(corrupt(impl_->path, "tx lookup entry"));
    const TxLocation loc = *parsed;
    // An entry below the floor that no compaction has dropped yet is pruned all the same.
    if (loc.number < impl_->floor->load(std::memory_order_acquire)) {
        return Read<TxLocation>{ReadStatus::pruned, loc};  // the location says why
    }
    return Read<TxLocation>{ReadStatus::found, loc};
}

Result<std::optional<std::uint64_t>, StoreError> ChainStore::head() const {
    const std::uint64_t kept = impl_->head_cache.load(std::memory_order_acquire);
    if (kept == 1) return std::optional<std::uint64_t>{};
    if (kept > 1) return std::optional<std::uint64_t>{kept - 2};
    return impl_->get_u64(kMeta, slice(kMetaHead));  // damaged or not read at open
}

std::uint64_t ChainStore::history_floor() const noexcept {
    return impl_->floor->load(std::memory_order_acquire);
}

Result<void, StoreError> ChainStore::set_history_floor(std::uint64_t floor) {
    const std::lock_guard lock(impl_->write_mutex);
    auto r = impl_->put_meta_u64(kMetaHistoryFloor, floor);
    if (!r) return r;
    // Published only after the write succeeded, so a compaction never drops entries that the
    // stored floor does not yet cover.
    impl_->floor->store(floor, std::memory_order_release);
    return {};
}

Result<void, StoreError> ChainStore::compact_tx_lookup() {
    rocksdb::CompactRangeOptions options;
    // The filter must also see the bottommost files, where old entries settle.
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    const rocksdb::Status s =
        impl_->db->CompactRange(options, impl_->cfs[kTxLookup], nullptr, nullptr);
    if (!s.ok()) return unexpected(impl_->error("compact", s));
    return {};
}

Result<std::optional<std::uint64_t>, StoreError> ChainStore::chain_id() const {
    return impl_->get_u64(kMeta, slice(kMetaChainId));
}

Result<void, StoreError> ChainStore::set_chain_id(std::uint64_t id) {
    const std::lock_guard lock(impl_->write_mutex);
    return impl_->put_meta_u64(kMetaChainId, id);
}

Result<std::optional<Hash32>, StoreError> ChainStore::genesis_hash() const {
    auto v = impl_->get(kMeta, slice(kMetaGenesis));
    if (!v) return unexpected(v.error());
    if (!*v) return std::optional<Hash32>{};
    auto h = Hash32::from(as_bytes(**v));
    if (!h) return unexpected(corrupt(impl_->path, "genesis hash"));
    return std::optional<Hash32>{*h};
}

Result<void, StoreError> ChainStore::set_genesis_hash(const Hash32& hash) {
    const std::lock_guard lock(impl_->write_mutex);
    return impl_->put_meta(kMetaGenesis, slice(hash));
}

Result<std::optional<Bytes>, StoreError> ChainStore::chain_spec() const {
    auto v = impl_->get(kMeta, slice(kMetaChainSpec));
    if (!v) return unexpected(v.error());
    if (!*v) return std::optional<Bytes>{};
    return std::optional<Bytes>{to_bytes(**v)};
}

Result<void, StoreError> ChainStore::set_chain_spec(BytesView genesis_json) {
    return impl_->put_meta(kMetaChainSpec, slice(genesis_json));
}

Result<ChainStore::Forkchoice, StoreError> ChainStore::forkchoice() const {
    auto safe = impl_->get_u64(kMeta, slice(kMetaSafe));
    if (!safe) return std::unexpected(safe.error());
    auto finalized = impl_->get_u64(kMeta, slice(kMetaFinalized));
    if (!finalized) return std::unexpected(finalized.error());
    return Forkchoice{*safe, *finalized};
}

Result<void, StoreError> ChainStore::set_forkchoice(const Forkchoice& f) {
    const std::lock_guard lock(impl_->write_mutex);
    rocksdb::WriteBatch batch;
    const auto put = [&](std::string_view key, std::uint64_t n) {
        batch.Put(impl_->cfs[kMeta], slice(key), slice(num_key(n)));
    };
    if (f.safe) put(kMetaSafe, *f.safe);
    if (f.finalized) put(kMetaFinalized, *f.finalized);
    const rocksdb::Status s = impl_->db->Write(impl_->write_options, &batch);
    if (!s.ok()) return unexpected(impl_->error("write", s));
    return {};
}

Result<std::optional<std::uint64_t>, StoreError> ChainStore::merge_block() const {
    return impl_->get_u64(kMeta, slice(kMetaMergeBlock));
}

Result<void, StoreError> ChainStore::set_merge_block(std::uint64_t number) {
    const std::lock_guard lock(impl_->write_mutex);
    return impl_->put_meta_u64(kMetaMergeBlock, number);
}

Result<void, StoreError> ChainStore::clear_merge_block() {
    const std::lock_guard lock(impl_->write_mutex);
    const rocksdb::Status s =
        impl_->db->Delete(impl_->write_options, impl_->cfs[kMeta], slice(kMetaMergeBlock));
    if (!s.ok()) return unexpected(impl_->error("write", s));
    return {};
}

Result<std::optional<PendingOperation>, StoreError> ChainStore::pending_operation() const {
    auto v = impl_->get(kMeta, slice(kMetaPending));
    if (!v) return unexpected(v.error());
    if (!*v) return std::optional<PendingOperation>{};
    const std::string& s = **v;
    if (s.size() < 4) return unexpected(corrupt(impl_->path, "pending operation"));
    const auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
    const std::size_t len = (std::size_t{p[0]} << 24) | (std::size_t{p[1]} << 16) |
                            (std::size_t{p[2]} << 8) | std::size_t{p[3]};
    if (len > s.size() - 4) return unexpected(corrupt(impl_->path, "pending operation"));
    PendingOperation op;
    op.kind.assign(s.data() + 4, len);
    op.argument.assign(p + 4 + len, p + s.size());
    return std::optional<PendingOperation>{std::move(op)};
}

namespace {

// meta pending_operation's value: BE4(len(kind)) ‖ kind ‖ argument.
std::string encode_pending(const PendingOperation& op) {
    std::string v;
    const auto len = static_cast<std::uint32_t>(op.kind.size());
    v.push_back(static_cast<char>(len >> 24));
    v.push_back(static_cast<char>(len >> 16));
    v.push_back(static_cast<char>(len >> 8));
    v.push_back(static_cast<char>(len));
    v += op.kind;
    v.append(reinterpret_cast<const char*>(op.argument.data()), op.argument.size());
    return v;
}

}  // namespace

Result<void, StoreError> ChainStore::set_pending_operation(
    const std::optional<PendingOperation>& op) {
    const std::lock_guard lock(impl_->write_mutex);
    if (!op) {
        const rocksdb::Status s =
            impl_->db->Delete(impl_->write_options, impl_->cfs[kMeta], slice(kMetaPending));
        if (!s.ok()) return unexpected(impl_->error("write", s));
        return {};
    }
    const std::string v = encode_pending(*op);
    return impl_->put_meta(kMetaPending, slice(std::string_view(v)));
}

// ---- rewind primitives ------------------------------------------------------------------------

Result<void, StoreError> ChainStore::lower_head(std::uint64_t head,
                                                const PendingOperation& pending) {
    const std::lock_guard lock(impl_->write_mutex);
    rocksdb::WriteBatch batch;
    const std::string v = encode_pending(pending);
    batch.Put(impl_->cfs[kMeta], slice(kMetaPending), slice(std::string_view(v)));
    batch.Put(impl_->cfs[kMeta], slice(kMetaHead), slice(num_key(head)));
    const rocksdb::Status s = impl_->db->Write(impl_->write_options, &batch);
    if (!s.ok()) return unexpected(impl_->error("write", s));
    impl_->remember_head(head);
    return {};
}

Result<void, StoreError> ChainStore::delete_blocks(std::uint64_t from, std::uint64_t to,
                                                   std::span<const Hash32> header_hashes,
                                                   std::span<const Hash32> tx_hashes) {
    const std::lock_guard lock(impl_->write_mutex);
    rocksdb::WriteBatch batch;
    if (from < to) {
        const NumKey begin_key = num_key(from);
        const NumKey end_key = num_key(to);
        // Every key BE8(n) or BE8(n) || hash with from <= n < to sorts in [BE8(from), BE8(to)).
        for (const Cf cf : {kHeaders, kCanonical, kTd, kBodies, kReceipts}) {
            batch.DeleteRange(impl_->cfs[cf], slice(begin_key), slice(end_key));
        }
    }
    for (const Hash32& h : header_hashes) batch.Delete(impl_->cfs[kHeaderNumbers], slice(h));
    for (const Hash32& h : tx_hashes) batch.Delete(impl_->cfs[kTxLookup], slice(h));
    const rocksdb::Status s = impl_->db->Write(impl_->write_options, &batch);
    if (!s.ok()) return unexpected(impl_->error("delete blocks", s));
    impl_->forget_header();
    if (from < to) impl_->canonical_rewrites.fetch_add(1);
    return {};
}

std::uint64_t ChainStore::canonical_rewrites() const noexcept {
    return impl_->canonical_rewrites.load();
}

// ---- families, cursors ------------------------------------------------------------------------

std::string_view family_name(Family family) noexcept {
    return kCfNames[cf_of(family)];
}

struct StoreCursor::Impl {
    std::filesystem::path path;
    std::string lower;  // bounds: the slices below point into these strings
    std::string upper;
    rocksdb::Slice lower_slice;
    rocksdb::Slice upper_slice;
    std::unique_ptr<rocksdb::Iterator> it;  // declared last: destroyed before the bounds
};

StoreCursor::StoreCursor(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
StoreCursor::StoreCursor(StoreCursor&&) noexcept = default;
StoreCursor& StoreCursor::operator=(StoreCursor&&) noexcept = default;
StoreCursor::~StoreCursor() = default;

bool StoreCursor::valid() const noexcept {
    return impl_->it->Valid();
}

BytesView StoreCursor::key() const noexcept {
    const rocksdb::Slice k = impl_->it->key();
    return {reinterpret_cast<const std::uint8_t*>(k.data()), k.size()};
}

BytesView StoreCursor::value() const noexcept {
    const rocksdb::Slice v = impl_->it->value();
    return {reinterpret_cast<const std::uint8_t*>(v.data()), v.size()};
}

void StoreCursor::next() {
    impl_->it->Next();
}

void StoreCursor::seek(BytesView key) {
    impl_->it->Seek(slice(key));
}

Result<void, StoreError> StoreCursor::status() const {
    const rocksdb::Status s = impl_->it->status();
    if (!s.ok()) return unexpected(make_error("read", impl_->path, s));
    return {};
}

Result<StoreCursor, StoreError> ChainStore::cursor(Family family, BytesView lower,
                                                   BytesView upper) const {
    auto c = std::make_unique<StoreCursor::Impl>();
    c->path = impl_->path;
    c->lower.assign(reinterpret_cast<const char*>(lower.data()), lower.size());
    c->upper.assign(reinterpret_cast<const char*>(upper.data()), upper.size());
    c->lower_slice = rocksdb::Slice(c->lower);
    c->upper_slice = rocksdb::Slice(c->upper);
    rocksdb::ReadOptions ro;
    // A scan reads each block once: keep it out of the block cache, and read ahead.
    ro.fill_cache = false;
    ro.readahead_size = std::size_t{2} << 20;
    // Across keys in key order even in the families with a prefix extractor (the histories).
    ro.total_order_seek = true;
    if (!c->lower.empty()) ro.iterate_lower_bound = &c->lower_slice;
    if (!c->upper.empty()) ro.iterate_upper_bound = &c->upper_slice;
    c->it.reset(impl_->db->NewIterator(ro, impl_->cfs[cf_of(family)]));
    if (c->lower.empty()) {
        c->it->SeekToFirst();
    } else {
        c->it->Seek(c->lower_slice);
    }
    const rocksdb::Status s = c->it->status();
    if (!s.ok()) return unexpected(impl_->error("read", s));
    return StoreCursor(std::move(c));
}

Result<std::optional<std::uint64_t>, StoreError> ChainStore::tail() const {
    std::unique_ptr<rocksdb::Iterator> it(
        impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->cfs[kCanonical]));
    it->SeekToFirst();
    if (!it->Valid()) {
        if (!it->status().ok()) return unexpected(impl_->error("read", it->status()));
        return std::optional<std::uint64_t>{};
    }
    if (it->key().size() != 8) return unexpected(corrupt(impl_->path, "canonical key"));
    return std::optional<std::uint64_t>{get_be64(it->key().data())};
}

// ---- pruning primitives -----------------------------------------------------------------------

Result<void, StoreError> ChainStore::set_history_floor(std::uint64_t floor,
                                                       const PendingOperation& pending) {
    const std::lock_guard lock(impl_->write_mutex);
    rocksdb::WriteBatch batch;
    const std::string v = encode_pending(pending);
    batch.Put(impl_->cfs[kMeta], slice(kMetaPending), slice(std::string_view(v)));
    batch.Put(impl_->cfs[kMeta], slice(kMetaHistoryFloor), slice(num_key(floor)));
    const rocksdb::Status s = impl_->db->Write(impl_->write_options, &batch);
    if (!s.ok()) return unexpected(impl_->error("write", s));
    impl_->floor->store(floor, std::memory_order_release);  // only once the floor is stored
    return {};
}

Result<void, StoreError> ChainStore::delete_history(std::uint64_t from, std::uint64_t to) {
    if (from >= to) return {};
    const NumKey begin_key = num_key(from);
    const NumKey end_key = num_key(to);
    const rocksdb::Slice begin = slice(begin_key);
    const rocksdb::Slice end = slice(end_key);
    rocksdb::WriteBatch batch;
    for (const Cf cf : {kBodies, kReceipts}) {
        // Tables wholly inside the range are dropped first, as a metadata change that reads
        // nothing (most of the pruned bytes, so the compaction afterwards has little to read).
        // It comes before the range tombstone is written, never after: a dropped table may hold
        // part of a tombstone of an earlier, interrupted run, whose rows in tables straddling
        // the range end would show again until the new tombstone below covers them.
        const rocksdb::Status s = rocksdb::DeleteFilesInRange(impl_->db, impl_->cfs[cf], &begin,
                                                              &end, /*include_end=*/false);
        if (!s.ok()) return unexpected(impl_->error("delete files", s));
        // Every key BE8(n) || hash with from <= n < to sorts in [BE8(from), BE8(to)).
        batch.DeleteRange(impl_->cfs[cf], begin, end);
    }
    const rocksdb::Status s = impl_->db->Write(impl_->write_options, &batch);
    if (!s.ok()) return unexpected(impl_->error("delete range", s));
    return {};
}

Result<void, StoreError> ChainStore::compact_history(std::uint64_t from, std::uint64_t to) {
    if (from >= to) return {};
    const NumKey begin_key = num_key(from);
    const NumKey end_key = num_key(to);
    const rocksdb::Slice begin = slice(begin_key);
    const rocksdb::Slice end = slice(end_key);
    for (const Cf cf : {kBodies, kReceipts}) {
        rocksdb::CompactRangeOptions options;
        // Down to the last level, where the tombstones and the rows they cover are dropped.
        options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForceOptimized;
        const rocksdb::Status s = impl_->db->CompactRange(options, impl_->cfs[cf], &begin, &end);
        if (!s.ok()) return unexpected(impl_->error("compact", s));
    }
    return {};
}

std::uint64_t ChainStore::tx_lookup_entries_dropped() const noexcept {
    return impl_->dropped->load(std::memory_order_relaxed);
}

Result<void, StoreError> ChainStore::flush() {
    rocksdb::FlushOptions options;
    options.wait = true;
    const rocksdb::Status s = impl_->db->Flush(options, impl_->cfs);
    if (!s.ok()) return unexpected(impl_->error("flush", s));
    return {};
}

Result<DiskUsage, StoreError> ChainStore::disk_usage() const {
    DiskUsage usage;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(impl_->path, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code size_ec;  // a file deleted meanwhile (an obsolete table) counts 0
        if (it->is_regular_file(size_ec)) {
            const std::uintmax_t size = it->file_size(size_ec);
            if (!size_ec) usage.directory_bytes += size;
        }
    }
    if (ec) {
        return unexpected(StoreError{"store size " + impl_->path.string() + ": " + ec.message()});
    }
    for (std::size_t f = 0; f < kFamilyCount; ++f) {
        std::uint64_t bytes = 0;
        if (!impl_->db->GetIntProperty(impl_->cfs[cf_of(static_cast<Family>(f))],
                                       rocksdb::DB::Properties::kLiveSstFilesSize, &bytes)) {
            return unexpected(StoreError{"store size " + impl_->path.string() +
                                         ": no live table size for " +
                                         std::string(kCfNames[f + 1])});
        }
        usage.family_bytes[f] = bytes;
    }
    return usage;
}

}  // namespace keel::store
