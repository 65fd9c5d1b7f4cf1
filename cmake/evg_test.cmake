# evg_add_gtest(<target> LABELS <label>... SOURCES <file>... [LIBS <lib>...])
# Builds a GoogleTest binary and registers each of its tests with ctest under the given labels.
function(evg_add_gtest target)
  cmake_parse_arguments(ARG "" "TIMEOUT" "LABELS;SOURCES;LIBS" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main Threads::Threads)
  # A test's own sources are compiled at -O1 in a Release build: the code under test is in the libraries, built
  # at the build type's -O3, and -O3 on gtest bodies and their template instantiations took about 40% more
  # compile time (the largest share of a fresh build) for no run time that matters. Bench binaries keep -O3.
  if(CMAKE_BUILD_TYPE STREQUAL "Release")
    target_compile_options(${target} PRIVATE -O1)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  # NO_PRETTY_VALUES: parameterised tests are named by their name generators (CAST_RINT, AtlasA2, ...); without it
  # CTest appends gtest's "# GetParam() = 1-byte object <01>" dump to each name.
  gtest_discover_tests(${target}
    NO_PRETTY_VALUES
    DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT})
endfunction()
