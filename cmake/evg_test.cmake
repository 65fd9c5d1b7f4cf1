# Code whose host speed no run depends on is compiled at -O1 in a Release build, where -O3 would cost compile
# time for nothing:
# - a test's own sources: the code under test is in the libraries, built at the build type's -O3, and -O3 on
#   gtest bodies and their template instantiations took about 40% more compile time (the largest share of a
#   fresh build) for no run time that matters. Bench binaries keep -O3.
# - the two corpus generators, which run once a build to write C++.
# Cold code in a program whose run time matters stays at -O3 all the same: an inline function (the model's
# headers, AscendC's, fmt's) instantiated in an -O1 object can be the copy the linker keeps for the whole
# program. The command line's own files and the report writers at -O1 made `evgcheck sync-table --small
# --graphs 6` take 49-60 CPU-s instead of 39-42. (A test binary pays the same, by choice: its compile time counts
# for more than its run time.)
function(evg_quick_compile target)
  if(CMAKE_BUILD_TYPE STREQUAL "Release")
    target_compile_options(${target} PRIVATE -O1)
  endif()
endfunction()

# Every test binary reuses one precompiled header of gtest, fmt and the standard headers tests include most:
# parsing gtest alone is about 1.7 s of a test file's 2-4.5 s. The header only adds declarations a test file
# includes itself anyway (each keeps its own #include lines). A target whose compile options differ from the
# header's would have it rejected by GCC (-Winvalid-pch, an error under -Werror): a mismatch cannot pass
# unnoticed.
add_library(evg_test_pch STATIC ${CMAKE_CURRENT_LIST_DIR}/evg_test_pch.cpp)
target_link_libraries(evg_test_pch PRIVATE GTest::gtest fmt::fmt Threads::Threads)
evg_quick_compile(evg_test_pch)
target_precompile_headers(evg_test_pch PRIVATE
  <gtest/gtest.h> <fmt/format.h>
  <algorithm> <cmath> <cstdint> <cstring> <filesystem> <fstream> <map> <set> <sstream> <string> <vector>)

# The label `sanitize` marks the tests CI runs in the sanitizer build (scripts/sanitize.sh): the model's and the
# AscendC layer's own tests, which reach every part of the code that manages memory by hand (fibers and their
# stacks, memories and their shadows, the instruction pool), and upstream Catlass's programs on the model,
# which bring code evgcheck did not write. The other suites drive the same code through more graphs; the whole
# suite in that build is `EVG_PRESET=debug scripts/test.sh`, too long for CI beside the release tests and lint.
# The target evg_sanitize builds what the label runs, not the whole tree: a test binary given the label joins it
# here, a program run by such a test where the test is added (evg_sanitize_needs).
add_custom_target(evg_sanitize)
function(evg_sanitize_needs)
  add_dependencies(evg_sanitize ${ARGN})
endfunction()

# evg_add_gtest(<target> LABELS <label>... SOURCES <file>... [LIBS <lib>...] [TIMEOUT <s>]
#               [ENVIRONMENT <VAR=value>...])
# Builds a GoogleTest binary and registers each of its tests with ctest under the given labels, with the given
# environment.
function(evg_add_gtest target)
  cmake_parse_arguments(ARG "" "TIMEOUT" "LABELS;SOURCES;LIBS;ENVIRONMENT" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  # fmt for every test binary: the precompiled header holds fmt, whose shared-library macro must match.
  target_link_libraries(${target} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main fmt::fmt Threads::Threads)
  evg_quick_compile(${target})
  target_precompile_headers(${target} REUSE_FROM evg_test_pch)
  # GCC 12 reports its known false positives on std::string concatenation (-Warray-bounds,
  # -Wstringop-overflow, -Wstringop-overread on the memcpy in char_traits.h, inlined into
  # `std::string(DIR) + "/file"`) once the standard headers come from a precompiled header: without one they
  # are silenced as system-header code. The test sources only: the libraries keep these warnings, and so do
  # the tests in a clang build (preset clang).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-stringop-overflow -Wno-stringop-overread)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  # A timeout is there to stop a hang, not to time the code: the sanitizers make the model 3 to 5 times slower.
  if(EVG_SANITIZE)
    math(EXPR ARG_TIMEOUT "${ARG_TIMEOUT} * 4")
  endif()
  set(evg_environment)
  if(ARG_ENVIRONMENT)
    set(evg_environment ENVIRONMENT "${ARG_ENVIRONMENT}")
  endif()
  if("sanitize" IN_LIST ARG_LABELS)
    evg_sanitize_needs(${target})
  endif()
  list(GET ARG_LABELS 0 evg_first_label)
  # NO_PRETTY_VALUES: parameterised tests are named by their name generators (CAST_RINT, AtlasA2, ...); without it
  # CTest appends gtest's "# GetParam() = 1-byte object <01>" dump to each name.
  gtest_discover_tests(${target}
    NO_PRETTY_VALUES
    DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS ${evg_first_label} TIMEOUT ${ARG_TIMEOUT} ${evg_environment}
    TEST_LIST ${target}_TESTS)
  # gtest_discover_tests passes its properties through a command line, where a list loses its separators (the
  # second label would be read as a property name): a test of several labels gets the first there and all of
  # them from a script ctest includes after the discovered tests.
  list(LENGTH ARG_LABELS evg_label_count)
  if(evg_label_count GREATER 1)
    set(evg_labels_script ${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake)
    file(WRITE ${evg_labels_script}
         "if(${target}_TESTS)\n  set_tests_properties(\${${target}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\nendif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${evg_labels_script})
  endif()
endfunction()
