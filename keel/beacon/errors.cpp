#include "keel/beacon/errors.hpp"

namespace keel::beacon {

std::string_view describe(Errc e) noexcept {
    switch (e) {
        case Errc::unknown_preset:
            return "unknown preset";
        case Errc::unknown_type:
            return "unknown type";
        case Errc::ssz:
            return "not a valid SSZ encoding of the type";
        case Errc::json_syntax:
            return "not JSON";
        case Errc::json:
            return "JSON value does not map to the type";
    }
    return "unknown beacon registry error";
}

Error from_ssz(const ssz::Error& e) {
    Error out;
    out.code = Errc::ssz;
    out.offset = e.offset;
    out.path = e.path;
    out.detail = ssz::rule(e);
    out.ssz_code = e.code;
    return out;
}

Error from_json_error(const ssz::JsonError& e) {
    Error out;
    out.code = Errc::json;
    out.path = e.path;
    out.detail = e.detail.empty() ? std::string(ssz::describe(e.code)) : e.detail;
    out.json_code = e.code;
    return out;
}

std::string to_string(const Error& e) {
    std::string out;
    switch (e.code) {
        case Errc::unknown_preset:
            return "unknown preset '" + e.path + "' (expected mainnet or minimal)";
        case Errc::unknown_type:
            out = "unknown type '" + e.path + "'";
            if (!e.detail.empty()) {
                out += e.detail.starts_with('(') ? " " : ": ";
                out += e.detail;
            }
            return out;
        case Errc::ssz:
            // The same line as ssz::to_string of the decoder's error.
            out = "ssz: ";
            if (!e.path.empty()) out += e.path + ": ";
            out += e.detail + " at offset " + std::to_string(e.offset);
            return out;
        case Errc::json_syntax:
            return "json: " + e.detail;
        case Errc::json:
            out = "json: ";
            if (!e.path.empty()) out += e.path + ": ";
            out += e.detail;
            return out;
    }
    return std::string(describe(e.code));
}

}  // namespace keel::beacon
