#pragma once
/// Compiling a data file into the binary: KEEL_INCBIN(sym, "path") puts the file's bytes in
/// .rodata between the symbols sym_begin and sym_end (the assembler's .incbin), declared here
/// as `extern "C" const char sym_begin[], sym_end[]`. `path` is a string literal, usually a
/// folder the build passes as a definition joined to a file name. The build does not track the
/// file: list it in the source's OBJECT_DEPENDS so that a change rebuilds the object.

#include <cstddef>
#include <string_view>

#define KEEL_INCBIN(sym, path)           \
    __asm__(                             \
        ".section .rodata\n"             \
        ".global " #sym "_begin\n" #sym  \
        "_begin:\n"                      \
        ".incbin \"" path                \
        "\"\n"                           \
        ".global " #sym "_end\n" #sym    \
        "_end:\n"                        \
        ".previous\n");                  \
    extern "C" const char sym##_begin[]; \
    extern "C" const char sym##_end[];

namespace keel {

/// The bytes between two KEEL_INCBIN symbols.
inline std::string_view incbin_view(const char* begin, const char* end) noexcept {
    return {begin, static_cast<std::size_t>(end - begin)};
}

}  // namespace keel
