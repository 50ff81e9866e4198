// keel: the command-line face of keel's libraries. Argument parsing and wiring only.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/crypto/signature.hpp"

int main(int argc, char** argv) {
    CLI::App app{"keel: a high-performance core for Ethereum nodes", "keel"};
    app.require_subcommand(1);
    app.set_version_flag("--version", KEEL_VERSION);
    keel::cli::add_version_command(app);
    keel::cli::add_keccak_command(app);
    keel::cli::add_rlp_command(app);
    keel::cli::add_tx_command(app);
    keel::cli::add_block_command(app);
    keel::cli::add_import_command(app);
    keel::cli::add_get_command(app);
    keel::cli::add_ssz_command(app);
    keel::cli::add_devnet_command(app);
    keel::cli::add_storage_command(app);
    keel::cli::add_bls_command(app);
    keel::cli::add_p2p_command(app);
    keel::cli::add_evm_command(app);

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
        std::fprintf(stderr, "keel: %s\n", f.message.c_str());
        return f.exit_code;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "keel: out of memory\n");
        return keel::cli::kExitBadData;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "keel: %s\n", e.what());
        return keel::cli::kExitBadData;
    }
    return 0;
}
