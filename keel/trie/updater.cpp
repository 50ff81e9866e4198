#include "keel/trie/updater.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/trie/root.hpp"

namespace keel::trie {

struct Updater::Node {
    enum class Kind : std::uint8_t { unloaded, leaf, extension, branch };
    Kind kind = Kind::unloaded;
    bool dirty = false;
    bool stored = false;  // loaded from its own row at its path
    Bytes nibbles;        // leaf: the rest of the key; extension: the shared nibbles
    Bytes value;          // leaf
    // How the parent names the node: a 32-byte hash, or the node's RLP when shorter (inlined).
    // Meaningful for unloaded nodes and for clean ones (reused when encoding).
    Bytes ref;
    std::array<std::unique_ptr<Node>, 16> children;  // branch; extension: children[0]
};

namespace {

using NodePtr = std::unique_ptr<Updater::Node>;

bool same(BytesView a, BytesView b) noexcept {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

std::size_t common_prefix(BytesView a, BytesView b) noexcept {
    const std::size_t n = std::min(a.size(), b.size());
    std::size_t i = 0;
    while (i < n && a[i] == b[i]) ++i;
    return i;
}

// Hex-prefix encoding (YP app. C) of nibbles for a leaf (t = 1) or an extension (t = 0).
Bytes hex_prefix(BytesView nibbles, bool leaf) {
    Bytes out;
    out.reserve(nibbles.size() / 2 + 1);
    const std::uint8_t flag = leaf ? 2 : 0;
    std::size_t i = 0;
    if (nibbles.size() % 2 == 1) {
        out.push_back(static_cast<std::uint8_t>((flag + 1) << 4 | nibbles[0]));
        i = 1;
    } else {
        out.push_back(static_cast<std::uint8_t>(flag << 4));
    }
    for (; i < nibbles.size(); i += 2) {
        out.push_back(static_cast<std::uint8_t>(nibbles[i] << 4 | nibbles[i + 1]));
    }
    return out;
}

std::string path_text(BytesView path) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s = "0x";
    for (std::uint8_t n : path) s += kDigits[n & 0xf];
    return s;
}

// A child reference inside a node's RLP: the empty string (no child), a 32-byte string (a hash)
// or an inlined node (a list). Returns false for anything else.
bool child_from_item(const rlp::Item& item, NodePtr& out) {
    if (!item.is_list) {
        if (item.payload.empty()) return true;
        if (item.payload.size() != 32) return false;
        out = std::make_unique<Updater::Node>();
        out->ref.assign(item.payload.begin(), item.payload.end());
        return true;
    }
    const BytesView enc = item.encoded();
    if (enc.size() >= 32) return false;  // a node this long is referenced by hash
    out = std::make_unique<Updater::Node>();
    out->ref.assign(enc.begin(), enc.end());
    return true;
}

// Decodes a node's RLP into `n` (kind, nibbles, value, unloaded children). False when malformed.
bool decode_node(BytesView rlp_bytes, Updater::Node& n) {
    auto top = rlp::decode_single(rlp_bytes);
    if (!top || !top->is_list) return false;
    rlp::Decoder d(top->payload);
    std::array<rlp::Item, 17> items;
    std::size_t count = 0;
    while (!d.empty()) {
        if (count == items.size()) return false;
        auto it = d.next();
        if (!it) return false;
        items[count++] = *it;
    }
    if (count == 2) {
        if (items[0].is_list || items[0].payload.empty()) return false;
        const BytesView hp = items[0].payload;
        const std::uint8_t flag = hp[0] >> 4;
        if (flag > 3) return false;
        const bool leaf = (flag & 2) != 0;
        n.nibbles.clear();
        if ((flag & 1) != 0) {
            n.nibbles.push_back(hp[0] & 0xf);
        } else if ((hp[0] & 0xf) != 0) {
            return false;
        }
        for (std::size_t i = 1; i < hp.size(); ++i) {
            n.nibbles.push_back(hp[i] >> 4);
            n.nibbles.push_back(hp[i] & 0xf);
        }
        if (leaf) {
            if (items[1].is_list) return false;
            n.kind = Updater::Node::Kind::leaf;
            n.value.assign(items[1].payload.begin(), items[1].payload.end());
            return true;
        }
        if (n.nibbles.empty()) return false;
        n.kind = Updater::Node::Kind::extension;
        return child_from_item(items[1], n.children[0]) && n.children[0] != nullptr;
    }
    if (count == 17) {
        // Fixed-length keys: a branch never holds a value.
        if (items[16].is_list || !items[16].payload.empty()) return false;
        n.kind = Updater::Node::Kind::branch;
        int used = 0;
        for (std::size_t i = 0; i < 16; ++i) {
            if (!child_from_item(items[i], n.children[i])) return false;
            used += n.children[i] != nullptr;
        }
        return used >= 2;
    }
    return false;
}

NodePtr make_leaf(BytesView nibbles, BytesView value) {
    auto n = std::make_unique<Updater::Node>();
    n->kind = Updater::Node::Kind::leaf;
    n->dirty = true;
    n->nibbles.assign(nibbles.begin(), nibbles.end());
    n->value.assign(value.begin(), value.end());
    return n;
}

NodePtr make_extension(BytesView nibbles, NodePtr child) {
    auto n = std::make_unique<Updater::Node>();
    n->kind = Updater::Node::Kind::extension;
    n->dirty = true;
    n->nibbles.assign(nibbles.begin(), nibbles.end());
    n->children[0] = std::move(child);
    return n;
}

NodePtr make_branch() {
    auto n = std::make_unique<Updater::Node>();
    n->kind = Updater::Node::Kind::branch;
    n->dirty = true;
    return n;
}

// Appends a child reference to a node being encoded: a hash as a 32-byte string, an inlined
// node as its RLP.
void add_ref(rlp::Encoder& enc, BytesView ref) {
    if (ref.size() == 32) {
        enc.add_string(ref);
    } else {
        enc.add_raw(ref);
    }
}

}  // namespace

Bytes pack_path(BytesView path) {
    KEEL_ASSERT(path.size() <= 255);
    Bytes out((path.size() + 1) / 2 + 1, 0);
    for (std::size_t i = 0; i < path.size(); ++i) {
        out[i / 2] |= static_cast<std::uint8_t>(i % 2 == 0 ? path[i] << 4 : path[i]);
    }
    out.back() = static_cast<std::uint8_t>(path.size());
    return out;
}

Bytes to_nibbles(BytesView key) {
    Bytes out(key.size() * 2);
    for (std::size_t i = 0; i < key.size(); ++i) {
        out[2 * i] = key[i] >> 4;
        out[2 * i + 1] = key[i] & 0xf;
    }
    return out;
}

namespace {

// check_stored()'s walk: each node from its reference (a hash: its row; else inline bytes).
class StoredWalk {
  public:
    explicit StoredWalk(const NodeSource& source) : source_(&source) {}

    bool visit(BytesView ref, Bytes& path) {
        Bytes bytes;
        if (ref.size() == 32) {
            auto row = source_->node(path);
            if (!row) {
                error = "trie node at path " + path_text(path) + " missing (expected hash 0x" +
                        hex::encode(ref) + ")";
                return false;
            }
            const Hash32 h = crypto::keccak256(*row);
            if (!same(h.view(), ref)) {
                error = "trie node at path " + path_text(path) + " has hash 0x" +
                        hex::encode(h.view()) + ", its parent names 0x" + hex::encode(ref);
                return false;
            }
            ++found.rows;
            bytes = std::move(*row);
        } else {
            bytes.assign(ref.begin(), ref.end());
        }
        Updater::Node n;
        if (!decode_node(bytes, n)) {
            error = "trie node at path " + path_text(path) + " does not decode";
            return false;
        }
        const std::size_t at = path.size();
        switch (n.kind) {
            case Updater::Node::Kind::leaf:
                ++found.leaves;
                return true;
            case Updater::Node::Kind::extension: {
                path.insert(path.end(), n.nibbles.begin(), n.nibbles.end());
                const bool ok = visit(n.children[0]->ref, path);
                path.resize(at);
                return ok;
            }
            case Updater::Node::Kind::branch:
                for (std::uint8_t i = 0; i < 16; ++i) {
                    if (!n.children[i]) continue;
                    path.push_back(i);
                    const bool ok = visit(n.children[i]->ref, path);
                    path.pop_back();
                    if (!ok) return false;
                }
                return true;
            case Updater::Node::Kind::unloaded:
                break;
        }
        return false;
    }

    StoredTrie found;
    std::string error;

  private:
    const NodeSource* source_;
};

}  // namespace

Result<StoredTrie, std::string> check_stored(const NodeSource& source, const Hash32& root) {
    if (root == kEmptyRoot) return StoredTrie{};
    StoredWalk walk(source);
    Bytes path;
    if (!walk.visit(root.view(), path)) return unexpected(walk.error);
    return walk.found;
}

Result<std::vector<Bytes>, std::string> prove(const NodeSource& source, const Hash32& root,
                                              BytesView key) {
    std::vector<Bytes> proof;
    if (root == kEmptyRoot) return proof;
    const Bytes nibbles = to_nibbles(key);
    Bytes path;
    Bytes ref(root.begin(), root.end());
    while (true) {
        Bytes bytes;
        if (ref.size() == 32) {
            auto row = source.node(path);
            if (!row) return unexpected("trie node at path " + path_text(path) + " missing");
            if (!same(crypto::keccak256(*row).view(), ref)) {
                return unexpected("trie node at path " + path_text(path) +
                                  " does not match its hash");
            }
            proof.push_back(*row);
            bytes = std::move(*row);
        } else {
            bytes = ref;
        }
        Updater::Node n;
        if (!decode_node(bytes, n)) {
            return unexpected("trie node at path " + path_text(path) + " does not decode");
        }
        const BytesView rest = BytesView(nibbles).subspan(path.size());
        switch (n.kind) {
            case Updater::Node::Kind::leaf:
                return proof;
            case Updater::Node::Kind::extension:
                if (rest.size() < n.nibbles.size() ||
                    !same(n.nibbles, rest.first(n.nibbles.size()))) {
                    return proof;  // the path diverges: the key is absent
                }
                path.insert(path.end(), n.nibbles.begin(), n.nibbles.end());
                ref = n.children[0]->ref;
                break;
            case Updater::Node::Kind::branch:
                if (rest.empty() || !n.children[rest[0]]) return proof;
                path.push_back(rest[0]);
                ref = n.children[rest[0]]->ref;
                break;
            case Updater::Node::Kind::unloaded:
                return unexpected(std::string("trie node kind"));
        }
    }
}

bool Updater::PathLess::operator()(const Bytes& a, const Bytes& b) const noexcept {
    const std::size_t n = std::min(a.size(), b.size());
    const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
    return c < 0 || (c == 0 && a.size() < b.size());
}

Updater::Updater(const NodeSource& source, const Hash32& root) : source_(&source) {
    if (root != kEmptyRoot) {
        root_ = std::make_unique<Node>();
        root_->ref.assign(root.begin(), root.end());
    }
}

Updater::~Updater() = default;

bool Updater::resolve(std::unique_ptr<Node>& n, BytesView path) {
    if (n->kind != Node::Kind::unloaded) return true;
    Bytes bytes;
    if (n->ref.size() == 32) {
        std::optional<Hash32> known;
        auto row = source_->hashed_node(path, known);
        if (!row) {
            error_ = "trie node at path " + path_text(path) + " missing (expected hash 0x" +
                     hex::encode(n->ref) + ")";
            return false;
        }
        const Hash32 h = known ? *known : crypto::keccak256(*row);
        if (!same(h.view(), n->ref)) {
            error_ = "trie node at path " + path_text(path) + " has hash 0x" +
                     hex::encode(h.view()) + ", its parent names 0x" + hex::encode(n->ref);
            return false;
        }
        bytes = std::move(*row);
        n->stored = true;
    } else {
        bytes = n->ref;
    }
    if (!decode_node(bytes, *n)) {
        error_ = "trie node at path " + path_text(path) + " does not decode";
        return false;
    }
    n->dirty = false;
    return true;
}

void Updater::discard(Node& n, BytesView path) {
    if (n.stored) deleted_.insert(Bytes(path.begin(), path.end()));
    n.stored = false;
}

void Updater::put(BytesView key, BytesView value) {
    if (!error_.empty()) return;
    const Bytes nibbles = to_nibbles(key);
    Bytes path;
    path.reserve(nibbles.size() + 1);
    if (value.empty()) {
        remove(root_, path, nibbles);
    } else {
        insert(root_, path, nibbles, value);
    }
}

bool Updater::insert(std::unique_ptr<Node>& slot, Bytes& path, BytesView key, BytesView value) {
    if (!slot) {
        slot = make_leaf(key, value);
        return true;
    }
    if (!resolve(slot, path)) return false;
    Node& n = *slot;
    switch (n.kind) {
        case Node::Kind::leaf: {
            if (same(n.nibbles, key)) {
                if (same(n.value, value)) {
                    return false;
                }
                n.value.assign(value.begin(), value.end());
                n.dirty = true;
                return true;
            }
            const std::size_t c = common_prefix(n.nibbles, key);
            KEEL_ASSERT(c < n.nibbles.size() && c < key.size());  // fixed-length keys
            auto branch = make_branch();
            // The old leaf moves one level below a new branch at path + key[0, c).
            discard(n, path);
            std::unique_ptr<Node> old = std::move(slot);
            const std::uint8_t old_index = old->nibbles[c];
            old->nibbles.erase(old->nibbles.begin(), old->nibbles.begin() + c + 1);
            old->dirty = true;
            branch->children[old_index] = std::move(old);
            branch->children[key[c]] = make_leaf(key.subspan(c + 1), value);
            slot = c > 0 ? make_extension(key.first(c), std::move(branch)) : std::move(branch);
            return true;
        }
        case Node::Kind::extension: {
            const std::size_t c = common_prefix(n.nibbles, key);
            if (c == n.nibbles.size()) {
                const std::size_t at = path.size();
                path.insert(path.end(), n.nibbles.begin(), n.nibbles.end());
                const bool changed = insert(n.children[0], path, key.subspan(c), value);
                path.resize(at);
                n.dirty |= changed;
                return changed;
            }
            // Split: a branch at path + key[0, c); the extension's child keeps its path.
            discard(n, path);
            auto branch = make_branch();
            std::unique_ptr<Node> child = std::move(n.children[0]);
            const std::uint8_t old_index = n.nibbles[c];
            if (c + 1 < n.nibbles.size()) {
                branch->children[old_index] =
                    make_extension(BytesView(n.nibbles).subspan(c + 1), std::move(child));
            } else {
                branch->children[old_index] = std::move(child);
            }
            branch->children[key[c]] = make_leaf(key.subspan(c + 1), value);
            slot = c > 0 ? make_extension(key.first(c), std::move(branch)) : std::move(branch);
            return true;
        }
        case Node::Kind::branch: {
            path.push_back(key[0]);
            const bool changed = insert(n.children[key[0]], path, key.subspan(1), value);
            path.pop_back();
            n.dirty |= changed;
            return changed;
        }
        case Node::Kind::unloaded:
            break;
    }
    KEEL_ASSERT(false);
    return false;
}

bool Updater::remove(std::unique_ptr<Node>& slot, Bytes& path, BytesView key) {
    if (!slot) return false;
    if (!resolve(slot, path)) return false;
    Node& n = *slot;
    switch (n.kind) {
        case Node::Kind::leaf:
            if (!same(n.nibbles, key)) {
                return false;
            }
            discard(n, path);
            slot.reset();
            return true;
        case Node::Kind::extension: {
            if (key.size() < n.nibbles.size() || !same(n.nibbles, key.first(n.nibbles.size()))) {
                return false;
            }
            const std::size_t at = path.size();
            path.insert(path.end(), n.nibbles.begin(), n.nibbles.end());
            const bool changed = remove(n.children[0], path, key.subspan(n.nibbles.size()));
            if (!changed || !error_.empty()) {
                path.resize(at);
                return changed;
            }
            n.dirty = true;
            Node& child = *n.children[0];  // a branch keeps at least one child: never null
            if (child.kind == Node::Kind::leaf || child.kind == Node::Kind::extension) {
                // The child moves up into this node's place: one leaf or extension.
                discard(child, path);
                path.resize(at);
                discard(n, path);
                std::unique_ptr<Node> merged = std::move(n.children[0]);
                merged->nibbles.insert(merged->nibbles.begin(), n.nibbles.begin(), n.nibbles.end());
                merged->dirty = true;
                slot = std::move(merged);
                return true;
            }
            path.resize(at);
            return true;
        }
        case Node::Kind::branch: {
            const std::uint8_t i = key[0];
            path.push_back(i);
            const bool changed = remove(n.children[i], path, key.subspan(1));
            path.pop_back();
            if (!changed || !error_.empty()) return changed;
            n.dirty = true;
            int used = 0;
            for (const auto& c : n.children) used += c != nullptr;
            if (used == 1) collapse(slot, path);
            return true;
        }
        case Node::Kind::unloaded:
            break;
    }
    KEEL_ASSERT(false);
    return false;
}

void Updater::collapse(std::unique_ptr<Node>& slot, Bytes& path) {
    Node& branch = *slot;
    std::uint8_t i = 0;
    while (branch.children[i] == nullptr) ++i;
    path.push_back(i);
    if (!resolve(branch.children[i], path)) {
        path.pop_back();
        return;
    }
    std::unique_ptr<Node> child = std::move(branch.children[i]);
    std::unique_ptr<Node> replacement;
    if (child->kind == Node::Kind::branch) {
        // The branch stays where it is, under a one-nibble extension.
        path.pop_back();
        const std::uint8_t nib[1] = {i};
        replacement = make_extension(BytesView(nib, 1), std::move(child));
    } else {
        // A leaf or an extension moves up one level and takes the nibble.
        discard(*child, path);
        path.pop_back();
        child->nibbles.insert(child->nibbles.begin(), i);
        child->dirty = true;
        replacement = std::move(child);
    }
    discard(branch, path);
    slot = std::move(replacement);
}

Bytes Updater::encode(Node& n, Bytes& path, bool is_root, NodeChanges& out) {
    if (n.kind == Node::Kind::unloaded || !n.dirty) return n.ref;
    Bytes rlp_bytes;
    {
        rlp::Encoder enc(rlp_bytes);
        const auto list = enc.begin_list();
        switch (n.kind) {
            case Node::Kind::leaf:
                enc.add_string(hex_prefix(n.nibbles, true));
                enc.add_string(n.value);
                break;
            case Node::Kind::extension: {
                enc.add_string(hex_prefix(n.nibbles, false));
                const std::size_t at = path.size();
                path.insert(path.end(), n.nibbles.begin(), n.nibbles.end());
                // The child's encoding goes into its own buffer: this one is being written.
                const Bytes child = encode(*n.children[0], path, false, out);
                path.resize(at);
                add_ref(enc, child);
                break;
            }
            case Node::Kind::branch:
                for (std::uint8_t i = 0; i < 16; ++i) {
                    if (!n.children[i]) {
                        enc.add_string({});
                        continue;
                    }
                    path.push_back(i);
                    const Bytes child = encode(*n.children[i], path, false, out);
                    path.pop_back();
                    add_ref(enc, child);
                }
                enc.add_string({});
                break;
            case Node::Kind::unloaded:
                break;
        }
        enc.end_list(list);
    }
    n.dirty = false;
    if (rlp_bytes.size() >= 32 || is_root) {
        const Hash32 h = crypto::keccak256(rlp_bytes);
        deleted_.erase(path);
        out.writes.emplace_back(path, std::move(rlp_bytes));
        out.write_hashes.push_back(h);
        n.stored = true;
        n.ref.assign(h.begin(), h.end());
        return n.ref;
    }
    if (n.stored) deleted_.insert(path);
    n.stored = false;
    n.ref = rlp_bytes;
    return rlp_bytes;
}

Result<Hash32, std::string> Updater::commit(NodeChanges& out) {
    out.writes.clear();
    out.write_hashes.clear();
    out.deletes.clear();
    if (!error_.empty()) return unexpected(error_);
    Hash32 root = kEmptyRoot;
    if (root_) {
        Bytes path;
        const Bytes ref = encode(*root_, path, true, out);
        KEEL_ASSERT(ref.size() == 32);
        std::copy(ref.begin(), ref.end(), root.begin());
    }
    out.deletes.assign(deleted_.begin(), deleted_.end());
    deleted_.clear();
    return root;
}

}  // namespace keel::trie
