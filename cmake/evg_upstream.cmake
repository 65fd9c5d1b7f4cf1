# Upstream Catlass on the model: where the checkout is, and how a target compiles against it.
#
# EVG_CATLASS_ROOT: a Catlass checkout (the folder holding include/catlass and include/tla). Default: the
# snapshot beside the repository (../shared/upstream/catlass) when it exists. The ctest label `upstream` is on
# only when the root is found.
set(_evg_default_catlass_root "${PROJECT_SOURCE_DIR}/../shared/upstream/catlass")
if(NOT DEFINED EVG_CATLASS_ROOT AND EXISTS "${_evg_default_catlass_root}/include/catlass/catlass.hpp")
  get_filename_component(_evg_default_catlass_root "${_evg_default_catlass_root}" ABSOLUTE)
  set(EVG_CATLASS_ROOT "${_evg_default_catlass_root}" CACHE PATH "A Catlass checkout to check on the model")
endif()
set(EVG_CATLASS_ROOT "${EVG_CATLASS_ROOT}" CACHE PATH "A Catlass checkout to check on the model")
if(EVG_CATLASS_ROOT AND EXISTS "${EVG_CATLASS_ROOT}/include/catlass/catlass.hpp")
  set(EVG_HAVE_UPSTREAM ON)
  message(STATUS "evgcheck: upstream Catlass at ${EVG_CATLASS_ROOT}: ctest label 'upstream' is on")
else()
  set(EVG_HAVE_UPSTREAM OFF)
  message(STATUS "evgcheck: no upstream Catlass checkout (EVG_CATLASS_ROOT='${EVG_CATLASS_ROOT}'): ctest label "
                 "'upstream' is off; turn it on with -DEVG_CATLASS_ROOT=/path/to/catlass")
endif()

# EVG_CATLASS_OTHER_ROOTS: further checkouts, other Catlass versions a user may have, whose headers and seven EVG
# example programs are compiled and run too (upstream/CMakeLists.txt), each named by its folder. Default: the
# v1.6.0 snapshot beside the repository (../shared/upstream/catlass-v1.6.0, the first release with EVG) when it
# exists. Adding a version is adding its folder to the list.
set(_evg_default_other_roots "")
get_filename_component(_evg_v160 "${PROJECT_SOURCE_DIR}/../shared/upstream/catlass-v1.6.0" ABSOLUTE)
if(EXISTS "${_evg_v160}/include/catlass/catlass.hpp")
  set(_evg_default_other_roots "${_evg_v160}")
endif()
set(EVG_CATLASS_OTHER_ROOTS "${_evg_default_other_roots}" CACHE STRING
    "Further Catlass checkouts (a list) whose headers and EVG examples are compiled and run too")

# evgcheck_use_catlass / evgcheck_add_program: the same functions an installed evgcheck gives a user's project.
include(${CMAKE_CURRENT_LIST_DIR}/evgcheck_program.cmake)
