# Warning flags shared by every keel target (keel_module, apps, tests, bench, fuzz).
function(keel_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                                             -Wnon-virtual-dtor -Wimplicit-fallthrough)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        # g++ 12 at -O3 reports false -Wrestrict overlaps inside std::string (GCC bug 105329).
        target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    if(KEEL_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()
