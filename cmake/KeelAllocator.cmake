# keel_allocator(TARGETS t...): links these executables against jemalloc, which then serves every
# malloc and operator new of the process (RocksDB's and TBB's included).
#
# Why: an executing import keeps millions of short-lived trie nodes, RLP buffers and RocksDB
# memtable entries in flight; glibc's malloc fragments under that load (_int_malloc,
# unlink_chunk and malloc_consolidate took a fifth of the import's CPU, growing with the state)
# and the import slowed 2.3-2.9x from its first tenth of blocks to its last. With jemalloc the
# same 1,500-block contract chain imports 1.45x faster and slows 1.5x (docs/benchmarks.md).
# RocksDB recommends jemalloc; reth and Erigon ship with it.
#
# Off in sanitizer and fuzz builds (the sanitizers bring their own allocator) or with
# -DKEEL_JEMALLOC=OFF. Targets get KEEL_JEMALLOC=1 when it is linked (keel version prints it).
set(_keel_jemalloc_default ON)
if(KEEL_SANITIZE OR KEEL_BUILD_FUZZ)
    set(_keel_jemalloc_default OFF)
endif()
option(KEEL_JEMALLOC "Link the keel executables against jemalloc" ${_keel_jemalloc_default})
if(KEEL_JEMALLOC)
    find_library(KEEL_JEMALLOC_LIBRARY jemalloc REQUIRED)
    find_path(KEEL_JEMALLOC_INCLUDE jemalloc/jemalloc.h REQUIRED)
endif()

function(keel_allocator)
    cmake_parse_arguments(PARSE_ARGV 0 A "" "" "TARGETS")
    if(NOT KEEL_JEMALLOC)
        return()
    endif()
    foreach(t IN LISTS A_TARGETS)
        target_link_libraries(${t} PRIVATE ${KEEL_JEMALLOC_LIBRARY})
        target_include_directories(${t} SYSTEM PRIVATE ${KEEL_JEMALLOC_INCLUDE})
        target_compile_definitions(${t} PRIVATE KEEL_JEMALLOC=1)
    endforeach()
endfunction()
