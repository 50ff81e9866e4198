#include "apps/keel/fixture_json.hpp"

#include <algorithm>
#include <vector>

#include "apps/keel/input.hpp"
#include "keel/common/hex.hpp"

namespace keel::cli::fixture {

void bad(const std::string& where, const std::string& what) {
    throw Failure{kExitBadData, where + ": " + what};
}

namespace {

/// What a JSON value is, for a message: "a number", "an object"...
std::string kind_of(const json& j) {
    switch (j.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::object:
            return "an object";
        case json::value_t::array:
            return "an array";
        case json::value_t::string:
            return "a string";
        case json::value_t::boolean:
            return "a boolean";
        case json::value_t::binary:
            return "binary";
        case json::value_t::discarded:
            return "nothing";
        default:
            return "a number";
    }
}

}  // namespace

Uint256 number(const json& j, const std::string& where) {
    if (!j.is_string()) bad(where, "not a number string but " + kind_of(j));
    const std::string& s = j.get_ref<const std::string&>();
    auto v = Uint256::from_string(s);
    if (!v) bad(where, "not a 256-bit number: \"" + printable(s, 80) + "\"");
    return *v;
}

std::string text(const json& j, const std::string& where) {
    if (!j.is_string()) bad(where, "not a string but " + kind_of(j));
    return j.get<std::string>();
}

std::size_t index(const json& j, const std::string& where) {
    if (!j.is_number_unsigned()) {
        bad(where,
            "not a whole number but " +
                (j.is_number()
                     ? j.dump()
                     : kind_of(j) +
                           (j.is_string()
                                ? " \"" + printable(j.get_ref<const std::string&>(), 80) + "\""
                                : std::string())));
    }
    return j.get<std::size_t>();
}

const json& element(const json& j, std::size_t i, const std::string& where) {
    if (!j.is_array()) bad(where, "not an array but " + kind_of(j));
    if (i >= j.size())
        bad(where, "index " + std::to_string(i) + " out of range (" + std::to_string(j.size()) +
                       " entries)");
    return j[i];
}

std::uint64_t u64(const json& j, const std::string& where) {
    const Uint256 v = number(j, where);
    if (!v.fits_u64()) bad(where, "wider than 64 bits");
    return v.as_u64();
}

Bytes bytes_of(const json& j, const std::string& where) {
    if (!j.is_string()) bad(where, "not a hex string but " + kind_of(j));
    std::string s = j.get<std::string>();
    // ethereum/tests write some code as ":raw 0x..." (filler syntax kept in fillers only).
    if (s.rfind(":raw ", 0) == 0) s = s.substr(5);
    auto b = hex::decode(s);
    if (!b) bad(where, "not hex: \"" + printable(s, 80) + "\"");
    return *b;
}

const json& field(const json& j, const char* key, const std::string& where) {
    if (!j.is_object())
        bad(where, std::string("not an object (for field '") + key + "') but " + kind_of(j));
    if (!j.contains(key)) bad(where, std::string("missing field '") + key + "'");
    return j.at(key);
}

std::string hex32(const Hash32& h) {
    return hex::encode_prefixed(h.view());
}

state::MemoryState accounts(const json& pre, const std::string& where) {
    if (!pre.is_object()) bad(where, "not an object of accounts");
    state::MemoryState m;
    for (const auto& [address, acc] : pre.items()) {
        const std::string w = where + " " + printable(address, 80);
        std::vector<std::pair<Uint256, Uint256>> slots;
        const json& storage = field(acc, "storage", w);
        if (!storage.is_object()) bad(w + " storage", "not an object but " + kind_of(storage));
        for (const auto& [k, v] : storage.items())
            slots.emplace_back(number(json(k), w + " storage key"),
                               number(v, w + " storage " + printable(k, 80)));
        m.put(fixed_of<Address>(json(address), w), u64(field(acc, "nonce", w), w + " nonce"),
              number(field(acc, "balance", w), w + " balance"), bytes_of(field(acc, "code", w), w),
              slots);
    }
    return m;
}

}  // namespace keel::cli::fixture

namespace keel::cli::fixture {

eth::BlobParams blob_params_of(const json& entry, const std::string& where) {
    const eth::BlobParams p{
        u64(field(entry, "target", where), where + " target"),
        u64(field(entry, "max", where), where + " max"),
        u64(field(entry, "baseFeeUpdateFraction", where), where + " baseFeeUpdateFraction")};
    if (const std::string problem = eth::blob_params_problem(p); !problem.empty())
        bad(where, problem);
    return p;
}

std::string one_line(std::string_view text, std::size_t max) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    const std::size_t n = std::min(text.size(), max);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        } else {
            out += text[i];
        }
    }
    if (text.size() > max) out += "...";
    return out;
}

// ---- NamePattern ---------------------------------------------------------------------------

struct PatternCompiler {
    static constexpr std::size_t kMaxPattern = 1000;
    static constexpr int kMaxCount = 100;
    static constexpr std::size_t kMaxProgram = 100000;

    enum class Kind : std::uint8_t {
        empty,
        byte,
        any,
        set,
        line_start,
        line_end,
        concat,
        alt,
        repeat
    };
    struct Node {
        Kind kind;
        std::uint8_t byte = 0;
        std::uint32_t set = 0;
        int min = 0, max = 0;  ///< repeat; max < 0: unbounded
        std::vector<std::size_t> kids;
    };

    std::string_view p;
    std::size_t at = 0;
    std::vector<Node> nodes;
    NamePattern& out;

    [[noreturn]] void error(const std::string& what) const {
        throw Failure{kExitUsage, "--run: " + what + " at offset " + std::to_string(at) +
                                      " of the pattern " + printable(p, 80)};
    }
    std::size_t add(Node n) {
        nodes.push_back(std::move(n));
        return nodes.size() - 1;
    }
    bool more() const { return at < p.size(); }

    std::size_t alternation() {
        std::vector<std::size_t> branches{concatenation()};
        while (more() && p[at] == '|') {
            ++at;
            branches.push_back(concatenation());
        }
        if (branches.size() == 1) return branches[0];
        return add({Kind::alt, 0, 0, 0, 0, std::move(branches)});
    }
    std::size_t concatenation() {
        std::vector<std::size_t> items;
        while (more() && p[at] != '|' && p[at] != ')') items.push_back(repetition());
        return add({Kind::concat, 0, 0, 0, 0, std::move(items)});
    }
    int count() {
        int v = 0;
        const std::size_t start = at;
        while (more() && p[at] >= '0' && p[at] <= '9') {
            v = v * 10 + (p[at++] - '0');
            if (v > kMaxCount) error("a count above " + std::to_string(kMaxCount));
        }
        if (at == start) error("a count expected");
        return v;
    }
    std::size_t repetition() {
        std::size_t node = atom();
        while (more()) {
            int min = 0, max = -1;
            const char c = p[at];
            if (c == '*') {
                ++at;
            } else if (c == '+') {
                ++at;
                min = 1;
            } else if (c == '?') {
                ++at;
                max = 1;
            } else if (c == '{') {
                ++at;
                min = max = count();
                if (more() && p[at] == ',') {
                    ++at;
                    max = more() && p[at] == '}' ? -1 : count();
                }
                if (!more() || p[at] != '}') error("'}' expected");
                ++at;
                if (max >= 0 && max < min) error("a count range backwards");
            } else {
                break;
            }
            if (more() && p[at] == '?') ++at;  // lazy: the same yes or no
            node = add({Kind::repeat, 0, 0, min, max, {node}});
        }
        return node;
    }
    // One escaped character class or character after a backslash, into `set`; false when it is
    // a single character (then in `ch`).
    bool escape(std::bitset<256>& set, std::uint8_t& ch) {
        if (!more()) error("a pattern ending in a backslash");
        const char c = p[at++];
        const auto fill = [&set](auto pred, bool negate) {
            for (int b = 0; b < 256; ++b)
                if (pred(b) != negate) set.set(static_cast<std::size_t>(b));
        };
        const auto digit = [](int b) { return b >= '0' && b <= '9'; };
        const auto word = [&digit](int b) {
            return digit(b) || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_';
        };
        const auto space = [](int b) {
            return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v';
        };
        switch (c) {
            case 'd':
                fill(digit, false);
                return true;
            case 'D':
                fill(digit, true);
                return true;
            case 'w':
                fill(word, false);
                return true;
            case 'W':
                fill(word, true);
                return true;
            case 's':
                fill(space, false);
                return true;
            case 'S':
                fill(space, true);
                return true;
            case 'n':
                ch = '\n';
                return false;
            case 't':
                ch = '\t';
                return false;
            case 'r':
                ch = '\r';
                return false;
            default:
                break;
        }
        const auto u = static_cast<unsigned char>(c);
        if ((u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z'))
            error(std::string("unsupported escape \\") + c);
        ch = u;
        return false;
    }
    std::size_t char_class() {
        std::bitset<256> set;
        bool negate = false;
        if (more() && p[at] == '^') {
            negate = true;
            ++at;
        }
        bool first = true;
        while (more() && (p[at] != ']' || first)) {
            first = false;
            std::uint8_t lo = 0;
            if (p[at] == '\\') {
                ++at;
                if (escape(set, lo)) continue;
            } else {
                lo = static_cast<std::uint8_t>(p[at++]);
            }
            std::uint8_t hi = lo;
            if (at + 1 < p.size() && p[at] == '-' && p[at + 1] != ']') {
                ++at;
                if (p[at] == '\\') {
                    ++at;
                    std::bitset<256> unused;
                    if (escape(unused, hi)) error("a class escape as the end of a range");
                } else {
                    hi = static_cast<std::uint8_t>(p[at++]);
                }
                if (hi < lo) error("a character range backwards");
            }
            for (int b = lo; b <= hi; ++b) set.set(static_cast<std::size_t>(b));
        }
        if (!more()) error("']' expected");
        ++at;
        if (negate) set.flip();
        out.sets_.push_back(set);
        return add({Kind::set, 0, static_cast<std::uint32_t>(out.sets_.size() - 1), 0, 0, {}});
    }
    std::size_t atom() {
        const char c = p[at];
        switch (c) {
            case '(': {
                ++at;
                if (p.substr(at, 2) == "?:")
                    at += 2;
                else if (more() && p[at] == '?')
                    error("unsupported group syntax");
                const std::size_t inner = alternation();
                if (!more() || p[at] != ')') error("')' expected");
                ++at;
                return inner;
            }
            case '[':
                ++at;
                return char_class();
            case '.':
                ++at;
                return add({Kind::any, 0, 0, 0, 0, {}});
            case '^':
                ++at;
                return add({Kind::line_start, 0, 0, 0, 0, {}});
            case '$':
                ++at;
                return add({Kind::line_end, 0, 0, 0, 0, {}});
            case '*':
            case '+':
            case '?':
            case '{':
                error(std::string("nothing to repeat before '") + c + "'");
            case '\\': {
                ++at;
                std::bitset<256> set;
                std::uint8_t ch = 0;
                if (escape(set, ch)) {
                    out.sets_.push_back(set);
                    return add(
                        {Kind::set, 0, static_cast<std::uint32_t>(out.sets_.size() - 1), 0, 0, {}});
                }
                return add({Kind::byte, ch, 0, 0, 0, {}});
            }
            default:
                ++at;
                return add({Kind::byte, static_cast<std::uint8_t>(c), 0, 0, 0, {}});
        }
    }

    using Inst = NamePattern::Inst;
    using Op = NamePattern::Op;
    std::uint32_t here() const { return static_cast<std::uint32_t>(out.prog_.size()); }
    void emit_inst(Inst i) {
        if (out.prog_.size() >= kMaxProgram) error("a pattern too large once its counts expand");
        out.prog_.push_back(i);
    }
    void emit(std::size_t id) {
        const Node& n = nodes[id];
        switch (n.kind) {
            case Kind::empty:
                return;
            case Kind::byte:
                emit_inst({Op::byte, n.byte});
                return;
            case Kind::any:
                emit_inst({Op::any});
                return;
            case Kind::set:
                emit_inst({Op::set, 0, n.set});
                return;
            case Kind::line_start:
                emit_inst({Op::line_start});
                return;
            case Kind::line_end:
                emit_inst({Op::line_end});
                return;
            case Kind::concat:
                for (const std::size_t k : n.kids) emit(k);
                return;
            case Kind::alt: {
                std::vector<std::uint32_t> to_end;
                for (std::size_t i = 0; i + 1 < n.kids.size(); ++i) {
                    const std::uint32_t split = here();
                    emit_inst({Op::split});
                    out.prog_[split].x = here();
                    emit(n.kids[i]);
                    to_end.push_back(here());
                    emit_inst({Op::jump});
                    out.prog_[split].y = here();
                }
                emit(n.kids.back());
                for (const std::uint32_t j : to_end) out.prog_[j].x = here();
                return;
            }
            case Kind::repeat: {
                const std::size_t kid = n.kids[0];
                for (int i = 0; i < n.min; ++i) emit(kid);
                if (n.max < 0) {
                    const std::uint32_t loop = here();
                    emit_inst({Op::split});
                    out.prog_[loop].x = here();
                    emit(kid);
                    emit_inst({Op::jump, 0, loop});
                    out.prog_[loop].y = here();
                    return;
                }
                std::vector<std::uint32_t> splits;
                for (int i = n.min; i < n.max; ++i) {
                    splits.push_back(here());
                    emit_inst({Op::split});
                    out.prog_[splits.back()].x = here();
                    emit(kid);
                }
                for (const std::uint32_t s : splits) out.prog_[s].y = here();
                return;
            }
        }
    }
};

NamePattern::NamePattern(std::string_view pattern) {
    PatternCompiler c{pattern, 0, {}, *this};
    if (pattern.size() > PatternCompiler::kMaxPattern)
        throw Failure{kExitUsage, "--run: a pattern of " + std::to_string(pattern.size()) +
                                      " characters (at most 1000)"};
    const std::size_t root = c.alternation();
    if (c.more()) c.error("unbalanced ')'");
    c.emit(root);
    c.emit_inst({Op::match});
}

bool NamePattern::search(std::string_view name) const {
    // Pike's simulation of the NFA: every thread advances one character at a time; a state
    // already on the list for this position is not added twice, so the work per character is
    // bounded by the program's size. The epsilon closure walks an explicit stack.
    const std::size_t n = name.size();
    std::vector<std::uint32_t> current, next, stack;
    std::vector<std::uint64_t> seen(prog_.size(), 0);
    std::uint64_t generation = 1;
    const auto add_thread = [&](std::vector<std::uint32_t>& list, std::uint32_t start,
                                std::size_t pos) {
        stack.push_back(start);
        while (!stack.empty()) {
            const std::uint32_t pc = stack.back();
            stack.pop_back();
            if (seen[pc] == generation) continue;
            seen[pc] = generation;
            const Inst& i = prog_[pc];
            switch (i.op) {
                case Op::jump:
                    stack.push_back(i.x);
                    break;
                case Op::split:
                    stack.push_back(i.y);
                    stack.push_back(i.x);
                    break;
                case Op::line_start:
                    if (pos == 0) stack.push_back(pc + 1);
                    break;
                case Op::line_end:
                    if (pos == n) stack.push_back(pc + 1);
                    break;
                case Op::match:
                    stack.clear();
                    return true;
                default:
                    list.push_back(pc);
            }
        }
        return false;
    };
    if (add_thread(current, 0, 0)) return true;
    for (std::size_t pos = 0; pos < n; ++pos) {
        const auto c = static_cast<std::uint8_t>(name[pos]);
        ++generation;
        next.clear();
        for (const std::uint32_t pc : current) {
            const Inst& i = prog_[pc];
            const bool step = (i.op == Op::byte && i.byte == c) || (i.op == Op::any && c != '\n') ||
                              (i.op == Op::set && sets_[i.x].test(c));
            if (step && add_thread(next, pc + 1, pos + 1)) return true;
        }
        if (add_thread(next, 0, pos + 1)) return true;  // a match may start at any position
        current.swap(next);
    }
    return false;
}

}  // namespace keel::cli::fixture
