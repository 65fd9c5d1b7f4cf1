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

# evg_use_upstream_catlass(<target> ARCH <AtlasA2|Ascend950> [ROOT <catlass checkout>])
# Compiles <target> as bisheng compiles device code for that chip, against the checkout's headers (warnings in
# them are the checkout's business: its include folder is a system folder), with evgcheck's launch stand-ins
# ahead of it, and links the model.
function(evg_use_upstream_catlass target)
  cmake_parse_arguments(ARG "" "ARCH;ROOT" "" ${ARGN})
  if(NOT ARG_ARCH MATCHES "^(AtlasA2|Ascend950)$")
    message(FATAL_ERROR "evg_use_upstream_catlass(${target}): ARCH must be AtlasA2 or Ascend950, not '${ARG_ARCH}'")
  endif()
  if(NOT ARG_ROOT)
    set(ARG_ROOT "${EVG_CATLASS_ROOT}")
  endif()
  if(NOT EXISTS "${ARG_ROOT}/include/catlass/catlass.hpp")
    message(FATAL_ERROR "evg_use_upstream_catlass(${target}): '${ARG_ROOT}' is not a Catlass checkout "
                        "(no include/catlass/catlass.hpp)")
  endif()
  target_include_directories(${target} BEFORE PRIVATE ${EVG_ASCENDC_STANDINS_DIR})
  target_include_directories(${target} SYSTEM AFTER PRIVATE "${ARG_ROOT}/include")
  target_link_libraries(${target} PRIVATE evg::ascendc_device_${ARG_ARCH})
endfunction()
