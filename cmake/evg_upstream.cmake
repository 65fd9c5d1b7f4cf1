# Upstream Catlass on the model: where the checkout is, and how a target compiles against it.
#
# EVG_CATLASS_ROOTS: the Catlass checkouts to check (a list of folders, each holding include/catlass and
# include/tla), each a Catlass version a user may have. Every one gets the header-compile test and its seven EVG
# example programs built unchanged and run (upstream/CMakeLists.txt). The first is also the one the upstream
# corpus, the upstream conformance cells, the planted copies and `evgcheck check --catlass-root` are built
# against (EVG_CATLASS_ROOT below). Adding a version is adding its folder to the list.
# Default: the snapshots beside the repository that exist, master first (../shared/upstream/catlass, then
# ../shared/upstream/catlass-v1.6.0, the first release with EVG). -DEVG_CATLASS_ROOT=DIR alone (one checkout, as
# before the list) means EVG_CATLASS_ROOTS=DIR.
set(_evg_default_roots "")
foreach(_evg_folder catlass catlass-v1.6.0)
  get_filename_component(_evg_r "${PROJECT_SOURCE_DIR}/../shared/upstream/${_evg_folder}" ABSOLUTE)
  if(EXISTS "${_evg_r}/include/catlass/catlass.hpp")
    list(APPEND _evg_default_roots "${_evg_r}")
  endif()
endforeach()
unset(EVG_CATLASS_OTHER_ROOTS CACHE)  # the list's earlier spelling (a first root and the others)
# A root given alone (-DEVG_CATLASS_ROOT=DIR) replaces the list; one cached by an older evgcheck as its default
# (the master snapshot) is not a choice.
if(DEFINED CACHE{EVG_CATLASS_ROOT})
  if(NOT EVG_CATLASS_ROOT IN_LIST _evg_default_roots)
    set(EVG_CATLASS_ROOTS "${EVG_CATLASS_ROOT}" CACHE STRING "The Catlass checkouts to check (a list)" FORCE)
  endif()
  unset(EVG_CATLASS_ROOT CACHE)
endif()
set(EVG_CATLASS_ROOTS "${_evg_default_roots}" CACHE STRING "The Catlass checkouts to check (a list)")
set(EVG_CATLASS_ROOT "")
set(EVG_CATLASS_OTHER_ROOTS "")
foreach(_evg_r IN LISTS EVG_CATLASS_ROOTS)
  get_filename_component(_evg_r "${_evg_r}" ABSOLUTE)
  if(NOT EXISTS "${_evg_r}/include/catlass/catlass.hpp")
    message(FATAL_ERROR "EVG_CATLASS_ROOTS: '${_evg_r}' is not a Catlass checkout (no include/catlass/catlass.hpp)")
  endif()
  if(NOT EVG_CATLASS_ROOT)
    set(EVG_CATLASS_ROOT "${_evg_r}")
  else()
    list(APPEND EVG_CATLASS_OTHER_ROOTS "${_evg_r}")
  endif()
endforeach()
if(EVG_CATLASS_ROOT)
  set(EVG_HAVE_UPSTREAM ON)
  list(JOIN EVG_CATLASS_ROOTS ", " _evg_roots_text)
  message(STATUS "evgcheck: upstream Catlass at ${_evg_roots_text}: ctest label 'upstream' is on")
else()
  set(EVG_HAVE_UPSTREAM OFF)
  message(STATUS "evgcheck: no upstream Catlass checkout: ctest label 'upstream' is off; turn it on with "
                 "-DEVG_CATLASS_ROOTS=/path/to/catlass[;/path/to/another]")
endif()

# evgcheck_use_catlass / evgcheck_add_program: the same functions an installed evgcheck gives a user's project.
include(${CMAKE_CURRENT_LIST_DIR}/evgcheck_program.cmake)
