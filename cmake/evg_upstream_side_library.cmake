# Upstream Catlass's side as a shared library of its own (upstream/corpus/, upstream/examples/): compiled
# against a checkout for Ascend950 with its own copy of the model, every symbol hidden but the boundary's (the
# one-definition rule against evgcheck's copy, which the judging code links), warnings inside upstream's code
# shown but not fatal. The one recipe for evgcheck's build (upstream/CMakeLists.txt) and for the candidates
# `evgcheck check --catlass-root` compiles at run time (a project of its own that finds the build folder's
# package, build/<preset>/package).
#
#   evg_upstream_side_library(<target> SOURCES <file>... [ROOT <checkout>] [KERNEL_COMPILER <Clang|GCC>]
#                             [CORPUS [OPTIMIZE <0|1>]])
#     ROOT defaults to EVG_CATLASS_ROOT; KERNEL_COMPILER to evgcheck_use_catlass's default. CORPUS: a library of
#     corpus instances (generated files of upstream/corpus/corpus_emit.hpp): adds the registry's object (compiled
#     once, with the ABI stamp of the build that compiled it) and the harness's folder, at -O<OPTIMIZE>
#     (default 1), whatever the build type (the model itself is the build's own). At
#     -O0 Clang compiles a file of instances 3 to 5 times faster than at -O1 (GCC a quarter faster), and
#     upstream's kernel code runs slower: a corpus case by about a quarter, and the shrink of a kernel that does
#     not end (a million instructions a case) took 75 s instead of 48. OPTIMIZE 0 is for libraries compiled
#     more than run: the node suite's cells (built in, and compiled at run time for another checkout or
#     family), the other compiler's twin of the corpus, the fixed copy's named instances; 1 for the corpus
#     whose cases per CPU-second bench/ measures and for the graphs `evgcheck check --catlass-root` compiles
#     (docs/build-cost.md).
#
# Expects evgcheck_use_catlass (evgcheck_program.cmake) and EVG_UPSTREAM_CORPUS_DIR (upstream/corpus).
#
#   evg_corpus_abi_stamp(<target>)
#     Gives <target> the corpus ABI stamp (upstream/corpus/corpus_load.hpp): the hash of the headers
#     whose types cross the boundary, recomputed whenever one of them changes. Each side computes its own
#     when it is built, so a library and a runner built from different texts of those headers disagree.
set(EVG_CORPUS_ABI_TEXT_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/evg_corpus_abi_text.cmake)
function(evg_corpus_abi_stamp target)
  # The model's and the vocabulary's headers and the boundary's own (a superset of what corpus_abi.hpp includes:
  # an include added there is still covered). EVG_UPSTREAM_CORPUS_DIR is <evgcheck source>/upstream/corpus.
  get_filename_component(src "${EVG_UPSTREAM_CORPUS_DIR}/../.." ABSOLUTE)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${src}/lib/hw/include/*.hpp ${src}/lib/hw/include/*.def
       ${src}/lib/vocab/include/*.hpp)
  list(APPEND headers ${EVG_UPSTREAM_CORPUS_DIR}/corpus_abi.hpp)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_abi)
  string(REPLACE ";" "|" joined "${headers}")  # one argument on any generator's command line
  add_custom_command(
    OUTPUT ${dir}/corpus_abi_text.hpp
    COMMAND ${CMAKE_COMMAND} -DOUT=${dir}/corpus_abi_text.hpp "-DHEADERS=${joined}" -P ${EVG_CORPUS_ABI_TEXT_SCRIPT}
    DEPENDS ${headers} ${EVG_CORPUS_ABI_TEXT_SCRIPT}
    COMMENT "The corpus ABI stamp of ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE ${dir}/corpus_abi_text.hpp)
  target_include_directories(${target} PRIVATE ${dir} ${EVG_UPSTREAM_CORPUS_DIR})
endfunction()

function(evg_upstream_side_library target)
  cmake_parse_arguments(ARG "CORPUS" "ROOT;KERNEL_COMPILER;OPTIMIZE" "SOURCES" ${ARGN})
  if(NOT DEFINED ARG_OPTIMIZE)
    set(ARG_OPTIMIZE 1)
  elseif(NOT ARG_CORPUS OR NOT ARG_OPTIMIZE MATCHES "^[01]$")
    message(FATAL_ERROR "evg_upstream_side_library(${target}): OPTIMIZE takes 0 or 1, with CORPUS")
  endif()
  add_library(${target} SHARED ${ARG_SOURCES})
  # The registry (upstream/corpus/registry.cpp) is compiled once, by the build whose package this is, and its
  # object linked into every corpus library: it reads nothing of the checkout, and it was a third to a half of a
  # one-instance library's compile (docs/build-cost.md). In evgcheck's own build it is the target; in a
  # project of the package, the object file the package names (evgcheckBuildTreeConfig.cmake.in).
  if(ARG_CORPUS)
    if(TARGET evg_corpus_registry)
      target_sources(${target} PRIVATE $<TARGET_OBJECTS:evg_corpus_registry>)
    elseif(EVG_CORPUS_REGISTRY_OBJECT)
      target_sources(${target} PRIVATE ${EVG_CORPUS_REGISTRY_OBJECT})
    else()
      message(FATAL_ERROR "evg_upstream_side_library(${target} CORPUS): no corpus registry object: the "
                          "package must be an evgcheck build folder's (build/<preset>/package)")
    endif()
  endif()
  evgcheck_use_catlass(${target} ARCH Ascend950 CATLASS_ROOT "${ARG_ROOT}" KERNEL_COMPILER "${ARG_KERNEL_COMPILER}")
  target_compile_definitions(${target} PRIVATE K_MAX_SHAPE_DIM=0)
  # Never batched (EVG_UNITY_BUILD): the files of a side library are already sized to their compile cost.
  set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON UNITY_BUILD OFF)
  target_compile_options(${target} PRIVATE -Wno-error)
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL)
  # Every symbol resolved at link time, but in a Clang build with sanitizers (the fuzz preset): Clang links the
  # sanitizers' runtime into executables only, so a sanitized shared library's __asan_* and __ubsan_* calls are
  # resolved when the program that loads it starts.
  if(NOT (CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND (EVG_FUZZ OR EVG_SANITIZE OR EVGCHECK_SANITIZE)))
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
  if(ARG_CORPUS)
    target_include_directories(${target} PUBLIC ${EVG_UPSTREAM_CORPUS_DIR})
    target_compile_options(${target} PRIVATE -O${ARG_OPTIMIZE})
  endif()
endfunction()
