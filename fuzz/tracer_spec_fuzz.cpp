// Tracer names and configs as debug_trace* requests carry them (keel/trace/tracer_spec.hpp): the
// input is a name, a NUL, then the config's JSON text (the RPC's hostile input); the name is also
// parsed as a timeout (keel/trace/duration.hpp).
// Properties:
//   - no input crashes, reads out of bounds or trips an assert (ASan/UBSan, KEEL_ASSERT);
//   - a refused pair gets a one-line message of bounded length;
//   - an accepted spec makes a tracer for every fork, whose begin() gives a tracer.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "keel/trace/duration.hpp"
#include "keel/trace/tracer_spec.hpp"

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = text.find('\0');
    const std::string_view name = text.substr(0, nul);
    const std::string_view config = nul == std::string_view::npos ? "" : text.substr(nul + 1);
    // The name's text is also a TraceConfig.timeout: Go's duration syntax.
    if (const auto d = keel::trace::parse_duration(name); !d) {
        check(!d.error().empty() && d.error().find('\n') == std::string::npos);
        check(d.error().size() <= 300);
    }
    const auto spec = keel::trace::parse_tracer_spec(name, config);
    if (!spec) {
        const std::string& m = spec.error();
        check(!m.empty() && m.find('\n') == std::string::npos);
        // Names and keys are shown cut at 64 bytes, each escaped in at most 4 characters, beside
        // the fixed words (the list of tracers): bounded whatever the input's size.
        check(m.size() <= 600);
        return 0;
    }
    for (const auto fork :
         {keel::eth::Fork::frontier, keel::eth::Fork::cancun, keel::eth::Fork::osaka}) {
        keel::trace::TxTracer tracer(*spec, fork);
        std::string out;
        check(tracer.begin(out, 0) != nullptr);
    }
    return 0;
}
