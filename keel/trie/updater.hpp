#pragma once
/// Incremental updates of a stored Merkle-Patricia trie: only the paths that changed are loaded,
/// rebuilt and rehashed (yellow paper appendix D; the node encodings are those of root.hpp).
///
/// Nodes are stored by *path*: the nibbles from the root to the node (the root at the empty
/// path), the layout of go-ethereum's path-based scheme and of reth's trie tables. A node whose
/// RLP is shorter than 32 bytes is inlined into its parent (YP app. D, n(J, i)) and has no row
/// of its own; the root always has one. Because a node's path is its position, an update
/// touches only the rows along the changed keys' paths: it writes the nodes it rebuilt and
/// deletes the rows of nodes that disappeared or moved (a leaf pulled up when its sibling was
/// deleted, a node that became short enough to be inlined).
///
/// Every node loaded by hash is checked against that hash, so a damaged or missing row is found
/// (and reported with its path) instead of producing a wrong root.
///
/// Keys are fixed-length (the state and storage tries use 32-byte Keccak keys), so branch nodes
/// never carry a value; values are stored as given (the caller's RLP of an account or a slot).
///
/// Threading: an Updater is used by one thread; the NodeSource is read from that thread only.
/// Errors: a node the source does not have, or whose bytes do not hash to the reference that
/// names it, or that does not decode; reported by commit() (updates after the first error are
/// ignored), nothing is written by the updater itself.

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::trie {

/// Where the stored nodes come from.
class NodeSource {
  public:
    virtual ~NodeSource() = default;
    /// The RLP of the node stored at `path` (nibbles, one per byte, each 0..15), or nullopt.
    /// A source that fails to read returns nullopt and the updater reports the missing node.
    [[nodiscard]] virtual std::optional<Bytes> node(BytesView path) const = 0;
    /// node(), and in `hash` the Keccak-256 of the bytes where the source already knows it (a
    /// cache of nodes it has hashed): the updater then compares that with the reference instead
    /// of hashing the node again. A source must only give a hash it computed over these very
    /// bytes. The default knows none.
    [[nodiscard]] virtual std::optional<Bytes> hashed_node(BytesView path,
                                                           std::optional<Hash32>& hash) const {
        hash.reset();
        return node(path);
    }
};

/// What a commit changes in the node store. Paths are nibbles, one per byte. `writes` and
/// `deletes` are disjoint, so they may be applied in any order.
struct NodeChanges {
    std::vector<std::pair<Bytes, Bytes>> writes;  ///< path -> node RLP
    std::vector<Hash32> write_hashes;             ///< Keccak-256 of each written RLP, in order
    std::vector<Bytes> deletes;                   ///< paths whose row goes
};

/// Packs a nibble path into bytes for a database key: two nibbles per byte (the last byte's low
/// nibble zero when the count is odd), then the count as one byte; distinct paths give distinct
/// keys. `path.size()` must be at most 255 (asserted).
Bytes pack_path(BytesView path);
/// The nibbles of `key`, high nibble first.
Bytes to_nibbles(BytesView key);

/// What check_stored() found in a consistent stored trie.
struct StoredTrie {
    std::uint64_t rows = 0;    ///< nodes with a row of their own (the root included)
    std::uint64_t leaves = 0;  ///< keys
};

/// Walks every node of the stored trie whose root is `root`, loading each row by path and
/// checking it against the hash its parent names (the root against `root`), and decoding every
/// node. Errors: the first row missing, damaged or undecodable, with its path. Memory: one path.
[[nodiscard]] Result<StoredTrie, std::string> check_stored(const NodeSource& source,
                                                           const Hash32& root);

/// The Merkle proof of `key` in the stored trie whose root is `root` (EIP-1186's accountProof
/// and storageProof): the RLP of every node with a row of its own on the key's path, root first
/// (inlined nodes are inside their parents). For an absent key, the nodes up to where the path
/// ends or diverges: a proof of exclusion. Errors: a row missing or not matching its hash.
[[nodiscard]] Result<std::vector<Bytes>, std::string> prove(const NodeSource& source,
                                                            const Hash32& root, BytesView key);

class Updater {
  public:
    /// An updater over the trie whose root is `root` (kEmptyRoot: an empty trie) and whose nodes
    /// `source` holds; `source` must outlive the updater.
    Updater(const NodeSource& source, const Hash32& root);
    ~Updater();
    Updater(const Updater&) = delete;
    Updater& operator=(const Updater&) = delete;

    /// Sets `key` (any fixed length, the same for every key of the trie) to `value`; an empty
    /// value deletes the key (deleting an absent key changes nothing).
    void put(BytesView key, BytesView value);

    /// The root after every put(), and in `out` the node rows to write and delete. The updater
    /// is spent afterwards. Errors: the first node that could not be loaded (see the file
    /// comment), e.g. "trie node at path 0x3a1 missing (expected hash 0x…)".
    [[nodiscard]] Result<Hash32, std::string> commit(NodeChanges& out);

    struct Node;  ///< a node in memory (internal)

  private:
    bool insert(std::unique_ptr<Node>& slot, Bytes& path, BytesView key, BytesView value);
    bool remove(std::unique_ptr<Node>& slot, Bytes& path, BytesView key);
    bool resolve(std::unique_ptr<Node>& n, BytesView path);
    void discard(Node& n, BytesView path);
    void collapse(std::unique_ptr<Node>& slot, Bytes& path);
    Bytes encode(Node& n, Bytes& path, bool is_root, NodeChanges& out);

    /// Byte-wise order of paths (std::less on vectors trips g++ 12's -Wstringop-overread).
    struct PathLess {
        bool operator()(const Bytes& a, const Bytes& b) const noexcept;
    };

    const NodeSource* source_;
    std::unique_ptr<Node> root_;
    std::set<Bytes, PathLess>
        deleted_;  ///< rows of nodes that went (a later write at the path wins)
    std::string error_;
};

}  // namespace keel::trie
