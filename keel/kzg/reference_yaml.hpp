#pragma once
/// Test-only: a reader for the consensus-spec reference tests' data.yaml files as their
/// generator (PyYAML) writes them — maps, block sequences (nested `- - x` included), flow
/// sequences `[a, b]` that may span lines, and quoted or plain scalars. Not a YAML parser: it
/// reads this subset and fails the test on anything else.

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::kzg::testing {

struct YamlNode {
    std::string scalar;                      // a scalar's text, quotes removed
    std::vector<YamlNode> items;             // a sequence's items
    std::map<std::string, YamlNode> fields;  // a map's entries
    bool is_list = false;

    const YamlNode& operator[](const std::string& key) const {
        const auto it = fields.find(key);
        if (it == fields.end()) throw std::runtime_error("yaml: no field " + key);
        return it->second;
    }
    bool is_null() const { return !is_list && fields.empty() && scalar == "null"; }
};

namespace yaml_detail {

struct Line {
    std::size_t indent;
    std::string text;
};

inline std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(' ');
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(' ');
    return s.substr(a, b - a + 1);
}

inline YamlNode scalar(std::string text) {
    YamlNode n;
    text = trim(text);
    if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"'))
        text = text.substr(1, text.size() - 2);
    n.scalar = text;
    return n;
}

inline YamlNode value(const std::string& text) {
    const std::string t = trim(text);
    if (t.empty() || t.front() != '[') return scalar(t);
    YamlNode list;
    list.is_list = true;
    std::string body = t.substr(1, t.rfind(']') - 1);
    std::size_t start = 0;
    while (start < body.size()) {
        auto comma = body.find(',', start);
        if (comma == std::string::npos) comma = body.size();
        const std::string item = trim(body.substr(start, comma - start));
        if (!item.empty()) list.items.push_back(scalar(item));
        start = comma + 1;
    }
    return list;
}

inline YamlNode block(std::vector<Line>& lines, std::size_t& pos, std::size_t indent) {
    YamlNode node;
    if (pos >= lines.size()) return node;
    const std::size_t col = lines[pos].indent;
    if (col < indent) return node;
    if (lines[pos].text.rfind("- ", 0) == 0 || lines[pos].text == "-") {
        node.is_list = true;
        while (pos < lines.size() && lines[pos].indent == col &&
               lines[pos].text.rfind("-", 0) == 0) {
            const std::string rest = lines[pos].text.size() > 1 ? lines[pos].text.substr(2) : "";
            if (rest.rfind("- ", 0) == 0) {
                // `- - x`: a nested sequence whose first item is on this line.
                lines[pos] = Line{col + 2, rest};
                node.items.push_back(block(lines, pos, col + 2));
            } else {
                node.items.push_back(value(rest));
                ++pos;
            }
        }
        return node;
    }
    while (pos < lines.size() && lines[pos].indent == col) {
        const std::string& t = lines[pos].text;
        const auto colon = t.find(':');
        if (colon == std::string::npos) throw std::runtime_error("yaml: expected key: " + t);
        const std::string key = t.substr(0, colon), rest = trim(t.substr(colon + 1));
        ++pos;
        if (!rest.empty()) {
            node.fields[key] = value(rest);
        } else if (pos < lines.size() &&
                   (lines[pos].indent > col ||
                    (lines[pos].indent == col && lines[pos].text.rfind("-", 0) == 0))) {
            node.fields[key] = block(lines, pos, col);
        } else {
            node.fields[key] = YamlNode{};
        }
    }
    return node;
}

}  // namespace yaml_detail

inline YamlNode read_yaml(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("yaml: cannot open " + path.string());
    std::vector<yaml_detail::Line> lines;
    std::string pending;
    for (std::string raw; std::getline(in, raw);) {
        if (!pending.empty()) {  // a flow sequence continued from the line before
            pending += " " + yaml_detail::trim(raw);
            if (pending.find(']') != std::string::npos) {
                lines.back().text = pending;
                pending.clear();
            }
            continue;
        }
        const auto first = raw.find_first_not_of(' ');
        if (first == std::string::npos) continue;
        lines.push_back({first, raw.substr(first)});
        const auto open = lines.back().text.find('[');
        if (open != std::string::npos && lines.back().text.find(']') == std::string::npos)
            pending = lines.back().text;
    }
    std::size_t pos = 0;
    return yaml_detail::block(lines, pos, 0);
}

}  // namespace keel::kzg::testing
