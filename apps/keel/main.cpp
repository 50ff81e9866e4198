// keel: the command-line face of keel's libraries. Argument parsing and wiring only.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/crypto/signature.hpp"

namespace {

/// A message fit for one line of stderr: control characters as \xNN, at most 4,000 characters
/// (the pieces that come from input are escaped and capped where they are read; this is the
/// last guard for any that are not).
std::string one_line(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (const char ch : text.substr(0, 4000)) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        } else {
            out += ch;
        }
    }
    if (text.size() > 4000) out += "...";
    return out;
}

int run(CLI::App& app, int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"keel: a high-performance core for Ethereum nodes", "keel"};
    app.require_subcommand(1);
    app.set_version_flag("--version", KEEL_VERSION);
    keel::cli::add_version_command(app);
    keel::cli::add_keccak_command(app);
    keel::cli::add_rlp_command(app);
    keel::cli::add_tx_command(app);
    keel::cli::add_block_command(app);
    keel::cli::add_init_command(app);
    keel::cli::add_import_command(app);
    keel::cli::add_get_command(app);
    keel::cli::add_ssz_command(app);
    keel::cli::add_devnet_command(app);
    keel::cli::add_storage_command(app);
    keel::cli::add_bls_command(app);
    keel::cli::add_kzg_command(app);
    keel::cli::add_p2p_command(app);
    keel::cli::add_evm_command(app);
    keel::cli::add_trace_command(app);
    keel::cli::add_node_command(app);
    keel::cli::add_jwt_command(app);

    // A process-wide choice, made once here before any command runs (DESIGN.md §4.3).
    app.add_option_function<std::string>(
           "--signature-algorithm",
           [](const std::string& name) {
               auto a = keel::crypto::parse_signature_algorithm(name);
               if (!a)
                   throw CLI::ValidationError("--signature-algorithm",
                                              "want secp256k1 or secp256r1");
               keel::crypto::set_signature_algorithm(*a);
           },
           "curve for sender recovery: secp256k1 (default) or secp256r1 (private networks)")
        ->check(CLI::IsMember({"secp256k1", "secp256r1"}));

    int rc = run(app, argc, argv);
    // Output that was not written is a failure, whatever the command: `keel evm run >/dev/full`
    // used to exit 0. Everything written to stdout goes through its buffer, flushed here.
    errno = 0;
    std::cout.flush();
    const bool cout_failed = !std::cout;
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || cout_failed) {
        const int err = errno;
        std::fprintf(stderr, "keel: cannot write to standard output: %s\n",
                     err != 0 ? std::strerror(err) : "write error");
        if (rc == 0) rc = keel::cli::kExitUsage;
    }
    return rc;
}

namespace {

int run(CLI::App& app, int argc, char** argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "keel: %s (see keel --help)\n", e.what());
        return keel::cli::kExitUsage;
    } catch (const keel::cli::Failure& f) {
        std::fprintf(stderr, "keel: %s\n", one_line(f.message).c_str());
        return f.exit_code;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "keel: out of memory\n");
        return keel::cli::kExitBadData;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "keel: %s\n", one_line(e.what()).c_str());
        return keel::cli::kExitBadData;
    }
    return 0;
}

}  // namespace
