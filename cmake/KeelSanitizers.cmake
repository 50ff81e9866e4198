# KEEL_SANITIZE=address,undefined applies sanitizers to every target in the build. Errors are
# fatal (no recover), so a sanitizer report fails the test that triggered it.
if(KEEL_SANITIZE)
    add_compile_options(-fsanitize=${KEEL_SANITIZE} -fno-sanitize-recover=all
                        -fno-omit-frame-pointer -g)
    add_link_options(-fsanitize=${KEEL_SANITIZE})
endif()
