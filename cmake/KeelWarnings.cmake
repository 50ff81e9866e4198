# Warning flags shared by every keel target (keel_module, apps, tests, bench, fuzz).
function(keel_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                                             -Wnon-virtual-dtor -Wimplicit-fallthrough)
    if(KEEL_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()
