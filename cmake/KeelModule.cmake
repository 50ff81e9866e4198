# keel_module(): one folder, one static library, one test executable, benchmarks into keel-bench.
#
#   keel_module(
#     NAME    rlp                 # folder keel/rlp, target keel_rlp, alias keel::rlp
#     LAYER   1                   # DESIGN.md §1; dependencies must sit on a lower layer
#     SOURCES encode.cpp decode.cpp
#     DEPS    common              # keel modules this one uses (each declared before, lower layer)
#     LIBS    OpenSSL::Crypto     # third-party libraries, linked publicly
#     TESTS   decode_test.cpp     # GoogleTest sources -> keel_rlp_test, registered with CTest
#     BENCHES decode_bench.cpp    # Google Benchmark sources, linked into keel-bench
#     TESTS_KEEP_OPT)             # tests built at the build's level, not KEEL_LIGHT_OPT
#                                 # (cmake/KeelOptimization.cmake)
#
# Configure fails on an unknown module, an upward or same-layer dependency, or a NAME that does
# not match the folder. scripts/check-layers.sh checks that #includes agree with DEPS.
include(KeelOptimization)

function(keel_module)
    cmake_parse_arguments(PARSE_ARGV 0 M "TESTS_KEEP_OPT" "NAME;LAYER"
                          "SOURCES;DEPS;LIBS;PRIVATE_LIBS;TESTS;TEST_LIBS;BENCHES")
    if(NOT M_NAME OR "${M_LAYER}" STREQUAL "")
        message(FATAL_ERROR "keel_module: NAME and LAYER are required")
    endif()
    get_filename_component(folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
    if(NOT folder STREQUAL M_NAME)
        message(FATAL_ERROR "keel_module(${M_NAME}): must live in keel/${M_NAME}, not ${folder}")
    endif()
    get_property(known GLOBAL PROPERTY KEEL_MODULES)
    if(M_NAME IN_LIST known)
        message(FATAL_ERROR "keel_module(${M_NAME}): declared twice")
    endif()

    foreach(dep IN LISTS M_DEPS)
        if(NOT dep IN_LIST known)
            message(FATAL_ERROR "keel_module(${M_NAME}): unknown dependency '${dep}' "
                                "(modules are declared in layer order in the top CMakeLists.txt)")
        endif()
        get_property(dep_layer GLOBAL PROPERTY KEEL_LAYER_${dep})
        if(NOT dep_layer LESS M_LAYER)
            message(FATAL_ERROR "keel_module(${M_NAME}): layer ${M_LAYER} may not depend on "
                                "'${dep}' (layer ${dep_layer}); dependencies point down only")
        endif()
    endforeach()
    set_property(GLOBAL APPEND PROPERTY KEEL_MODULES ${M_NAME})
    set_property(GLOBAL PROPERTY KEEL_LAYER_${M_NAME} ${M_LAYER})
    set_property(GLOBAL PROPERTY KEEL_DEPS_${M_NAME} ${M_DEPS})

    set(lib keel_${M_NAME})
    add_library(${lib} STATIC ${M_SOURCES})
    add_library(keel::${M_NAME} ALIAS ${lib})
    target_include_directories(${lib} PUBLIC ${PROJECT_SOURCE_DIR})
    target_compile_features(${lib} PUBLIC cxx_std_23)
    list(TRANSFORM M_DEPS PREPEND "keel::" OUTPUT_VARIABLE dep_targets)
    target_link_libraries(${lib} PUBLIC ${dep_targets} ${M_LIBS} PRIVATE ${M_PRIVATE_LIBS})
    keel_warnings(${lib})

    if(M_TESTS AND KEEL_BUILD_TESTS)
        set(test keel_${M_NAME}_test)
        add_executable(${test} ${M_TESTS})
        target_link_libraries(${test} PRIVATE ${lib} keel::testutil ${M_TEST_LIBS}
                                              GTest::gtest GTest::gtest_main)
        target_compile_definitions(${test} PRIVATE KEEL_VECTORS_DIR="${KEEL_VECTORS_DIR}")
        keel_warnings(${test})
        keel_unity(TARGETS ${test})
        if(NOT M_TESTS_KEEP_OPT)
            keel_light_opt(TARGETS ${test})
        endif()
        add_test(NAME ${M_NAME} COMMAND ${test} --gtest_brief=1)
    endif()

    if(M_BENCHES)
        list(TRANSFORM M_BENCHES PREPEND "${CMAKE_CURRENT_SOURCE_DIR}/")
        set_property(GLOBAL APPEND PROPERTY KEEL_BENCH_SOURCES ${M_BENCHES})
        set_property(GLOBAL APPEND PROPERTY KEEL_BENCH_LIBS ${lib})
    endif()
endfunction()
