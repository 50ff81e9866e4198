# KEEL_SANITIZE=address,undefined applies sanitizers to every target in the build. Errors are
# fatal (no recover), so a sanitizer report fails the test that triggered it. Line tables are all
# a report's stack needs (file:line of each frame); full debug info cost 7-30% more compile time.
if(KEEL_SANITIZE)
    add_compile_options(-fsanitize=${KEEL_SANITIZE} -fno-sanitize-recover=all
                        -fno-omit-frame-pointer -gline-tables-only)
    add_link_options(-fsanitize=${KEEL_SANITIZE})
endif()
