# Lighter optimization for sources whose compile time outweighs their run time: the tests' own
# sources (GoogleTest cases, the spec runners, the fuzz harnesses) and, in the sanitizer builds,
# a few library sources that are slow to compile and light to run (the beacon registry's
# per-fork tables, the traced interpreter). KEEL_LIGHT_OPT is set by CMakePresets.json: -O1 in
# the release build (the libraries and the keel command stay at -O3, so every vector suite runs
# the code as shipped), -O0 in the ASan and TSan builds (their libraries stay at -O1). Sources
# that inline keel/bls's field assembly keep the build's level (keel_module's TESTS_KEEP_OPT,
# fuzz/CMakeLists.txt): at -O0 clang cannot give its asm statements their registers. Measured on
# one core (docs/ci.md): an ASan test source compiles in about half the time at -O0, the traced
# interpreter in 20 s instead of 163 s, a release test source in 20% less at -O1.
set(KEEL_LIGHT_OPT "" CACHE STRING
    "Optimization flag for test sources (and, under sanitizers, heavy light-running sources)")

# keel_light_opt(TARGETS t...): every source of each target.
# keel_light_opt(SANITIZED_SOURCES s...): these sources of the current folder, in sanitizer
# builds only (in the release build they stay at the build's level).
function(keel_light_opt)
    cmake_parse_arguments(PARSE_ARGV 0 L "" "" "TARGETS;SANITIZED_SOURCES")
    if(NOT KEEL_LIGHT_OPT)
        return()
    endif()
    foreach(t IN LISTS L_TARGETS)
        target_compile_options(${t} PRIVATE ${KEEL_LIGHT_OPT})
    endforeach()
    if(L_SANITIZED_SOURCES AND KEEL_SANITIZE)
        set_property(SOURCE ${L_SANITIZED_SOURCES} APPEND PROPERTY COMPILE_OPTIONS
                     ${KEEL_LIGHT_OPT})
    endif()
endfunction()

# Test executables and the keel command compile as unity batches (CMake's UNITY_BUILD: up to
# KEEL_UNITY_BATCH sources of a target included in one translation unit): the sources of a
# module's tests, like the keel command's, share most of their headers (GoogleTest,
# nlohmann/json, CLI11, keel's own), which a batch parses and instantiates once. Measured on the
# release build (docs/ci.md): a batch of 8 test sources compiles in about a third of the time of
# its sources one by one, the keel command in 114 CPU-s instead of 262. A source therefore keeps
# its file-local names distinct from the other sources of its target (or shares them through the
# module's test helper header). The libraries stay one translation unit per source: their code
# generation is what the benchmarks measure. 0 turns it off.
set(KEEL_UNITY_BATCH 8 CACHE STRING "Sources per unity translation unit of the tests and the keel command (0: none)")

# keel_unity(TARGETS t...): those targets' sources in unity batches.
function(keel_unity)
    cmake_parse_arguments(PARSE_ARGV 0 U "" "" "TARGETS")
    if(NOT KEEL_UNITY_BATCH)
        return()
    endif()
    foreach(t IN LISTS U_TARGETS)
        set_target_properties(${t} PROPERTIES UNITY_BUILD ON
                                              UNITY_BUILD_BATCH_SIZE ${KEEL_UNITY_BATCH})
    endforeach()
endfunction()
