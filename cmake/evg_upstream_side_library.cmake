# Upstream Catlass's side as a shared library of its own (upstream/corpus/, upstream/examples/): compiled
# against a checkout for Ascend950 with its own copy of the model, every symbol hidden but the boundary's (the
# one-definition rule against evgcheck's copy, which the judging code links), warnings inside upstream's code
# shown but not fatal. The one recipe for evgcheck's build (upstream/CMakeLists.txt) and for the candidates
# `evgcheck check --catlass-root` compiles at run time (a project of its own that finds the build folder's
# package, build/<preset>/package).
#
#   evg_upstream_side_library(<target> SOURCES <file>... [ROOT <checkout>] [KERNEL_COMPILER <Clang|GCC>] [CORPUS])
#     ROOT defaults to EVG_CATLASS_ROOT; KERNEL_COMPILER to evgcheck_use_catlass's default. CORPUS: a library of corpus instances (generated files of
#     upstream/corpus/corpus_emit.hpp): adds the registry and the harness's folder, at -O1 (compile time
#     dominates; the model is the build's own).
#
# Expects evgcheck_use_catlass (evgcheck_program.cmake) and EVG_UPSTREAM_CORPUS_DIR (upstream/corpus).
function(evg_upstream_side_library target)
  cmake_parse_arguments(ARG "CORPUS" "ROOT;KERNEL_COMPILER" "SOURCES" ${ARGN})
  set(sources ${ARG_SOURCES})
  if(ARG_CORPUS)
    list(PREPEND sources ${EVG_UPSTREAM_CORPUS_DIR}/registry.cpp)
  endif()
  add_library(${target} SHARED ${sources})
  evgcheck_use_catlass(${target} ARCH Ascend950 CATLASS_ROOT "${ARG_ROOT}" KERNEL_COMPILER "${ARG_KERNEL_COMPILER}")
  target_compile_definitions(${target} PRIVATE K_MAX_SHAPE_DIM=0)
  set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_compile_options(${target} PRIVATE -Wno-error)
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL -Wl,--no-undefined)
  if(ARG_CORPUS)
    target_include_directories(${target} PUBLIC ${EVG_UPSTREAM_CORPUS_DIR})
    target_compile_options(${target} PRIVATE -O1)
  endif()
endfunction()
