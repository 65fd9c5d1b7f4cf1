# Building a Catlass program to run on the model: the functions a user's CMake project gets from
# find_package(evgcheck CONFIG) (and evgcheck's own build, which uses the same file).
#
#   evgcheck_use_catlass(<target> ARCH <AtlasA2|Ascend950> [CATLASS_ROOT <dir>])
#       Compiles <target> as the AscendC compiler compiles device code for that chip (predefined names,
#       kernel_operator.h ahead of every translation unit, __NPU_ARCH__ / CATLASS_ARCH), against the Catlass
#       checkout's include/ folder, with evgcheck's stand-ins for upstream's device adapters ahead of it
#       (docs/ascendc-device-environment.md), and links the model and its ACL/CANN host shim.
#       When the checkout has examples/common (upstream's example helpers), it is on the include path too.
#       Kernel code is compiled as a checking build: -ftrivial-auto-var-init=pattern (the compiler fills the
#       automatic variables it covers with its pattern) and, with GCC, -fno-tree-sra (a local object's fields
#       stay in memory, where the model's fill of the core's stack reaches them, instead of registers, where no
#       fill does). A variable read before it is assigned then holds a fill the model recognises
#       (lib/hw/include/evg/hw/uninit_fill.hpp) on every run, and is reported as `uninit_value`.
#       The checkout's folder is compiled in (EVGCHECK_CATLASS_ROOT): the program's reports name that Catlass,
#       its git commit and version (lib/ascendc/include/acl/catlass_checkout.hpp).
#       KERNEL_COMPILER <Clang|GCC|auto> chooses the compiler of the target's code (default: the cache
#       variable EVGCHECK_KERNEL_COMPILER, itself auto): auto is Clang when a clang++ is installed, the project's
#       compiler otherwise. Clang is the front end of Ascend's device compiler (Bisheng) and evaluates a call's
#       arguments left to right as it does; GCC evaluates them right to left. Catlass's EVG places a node's UB
#       buffers in the order its callbacks' constructor arguments are evaluated, so a finding that depends on
#       which buffer follows which is the device's only under Clang's order (docs/check-your-program.md §7).
#       A compiler other than the project's is run through evgcheck_kernel_cxx.sh (a compiler launcher, with the
#       project's own launcher, e.g. ccache, kept). Every report names the compiler that built the kernel.
#   evgcheck_add_program(<name> SOURCES <file>... [CATLASS_ROOT <dir>] [ARCH <AtlasA2|Ascend950>]
#                        [KERNEL_COMPILER <Clang|GCC|auto>])
#       An executable of host code and kernels in one file, as upstream writes them, run on the model.
#       ARCH defaults to Ascend950; CATLASS_ROOT to EVG_CATLASS_ROOT (or the CATLASS_ROOT environment
#       variable). With no CMAKE_BUILD_TYPE (single-configuration generators) the program is built with -O2.
#
# Expects the targets evgcheck::ascendc_device_AtlasA2 / evgcheck::ascendc_device_Ascend950 and the variable
# EVGCHECK_STANDINS_DIR.

set(EVGCHECK_KERNEL_COMPILER "auto" CACHE STRING
    "Compiler of the kernel code of evgcheck_use_catlass targets: auto (Clang when installed), Clang or GCC")
set_property(CACHE EVGCHECK_KERNEL_COMPILER PROPERTY STRINGS auto Clang GCC)

# evgcheck_kernel_compiler_family(<out> [<choice>]): the compiler family (Clang or GCC) KERNEL_COMPILER <choice>
# (default EVGCHECK_KERNEL_COMPILER) resolves to; <out>_AVAILABLE is true when that compiler can be run (it is
# the project's, or it is installed).
function(evgcheck_kernel_compiler_family out)
  set(choice "${ARGV1}")
  if(NOT choice)
    set(choice "${EVGCHECK_KERNEL_COMPILER}")
  endif()
  find_program(EVGCHECK_CLANG_CXX NAMES clang++-14 clang++ DOC "Clang, for evgcheck's KERNEL_COMPILER Clang")
  find_program(EVGCHECK_GNU_CXX NAMES g++-12 g++ DOC "GCC, for evgcheck's KERNEL_COMPILER GCC")
  if(choice STREQUAL "auto")
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR EVGCHECK_CLANG_CXX)
      set(choice Clang)
    else()
      set(choice GCC)
    endif()
  endif()
  set(available OFF)
  if((choice STREQUAL "Clang" AND (CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR EVGCHECK_CLANG_CXX))
     OR (choice STREQUAL "GCC" AND (CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR EVGCHECK_GNU_CXX)))
    set(available ON)
  endif()
  set(${out} "${choice}" PARENT_SCOPE)
  set(${out}_AVAILABLE ${available} PARENT_SCOPE)
endfunction()

# The compiler family (Clang or GCC) <target>'s code is built with for KERNEL_COMPILER <choice>, into <out>; a
# family other than the project's compiler's is set up as the target's compiler launcher.
function(_evgcheck_kernel_compiler target choice out)
  evgcheck_kernel_compiler_family(choice "${choice}")
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(project_family Clang)
  elseif(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(project_family GCC)
  else()
    set(project_family "${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(NOT choice MATCHES "^(Clang|GCC)$")
    message(FATAL_ERROR "evgcheck: ${target}: KERNEL_COMPILER must be Clang, GCC or auto, not '${choice}'")
  endif()
  if(NOT choice STREQUAL project_family)
    if(choice STREQUAL "Clang")
      set(kernel_cxx "${EVGCHECK_CLANG_CXX}")
      set(package clang)
    else()
      set(kernel_cxx "${EVGCHECK_GNU_CXX}")
      set(package g++)
    endif()
    if(NOT kernel_cxx)
      message(FATAL_ERROR "evgcheck: ${target}: KERNEL_COMPILER ${choice}, but no ${choice} compiler is installed "
                          "(apt-get install ${package}), and the project's compiler is ${CMAKE_CXX_COMPILER_ID}")
    endif()
    # The launcher beside this file (the folder of the file that defines the function: a directory variable set
    # when the file is included would not reach a project that adds evgcheck with add_subdirectory).
    set(launcher "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/evgcheck_kernel_cxx.sh")
    set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER
                          "${launcher};${kernel_cxx};${CMAKE_CXX_COMPILER_LAUNCHER};--")
  endif()
  set(${out} "${choice}" PARENT_SCOPE)
endfunction()

function(_evgcheck_catlass_root out given)
  set(root "${given}")
  if(NOT root AND DEFINED EVG_CATLASS_ROOT)
    set(root "${EVG_CATLASS_ROOT}")
  endif()
  if(NOT root AND DEFINED ENV{CATLASS_ROOT})
    set(root "$ENV{CATLASS_ROOT}")
  endif()
  if(NOT root)
    message(FATAL_ERROR "evgcheck: no Catlass checkout given: pass CATLASS_ROOT <dir>, or set EVG_CATLASS_ROOT "
                        "or the environment variable CATLASS_ROOT to the folder holding include/catlass")
  endif()
  get_filename_component(root "${root}" ABSOLUTE)
  if(NOT EXISTS "${root}/include/catlass/catlass.hpp")
    message(FATAL_ERROR "evgcheck: '${root}' is not a Catlass checkout (no include/catlass/catlass.hpp)")
  endif()
  set(${out} "${root}" PARENT_SCOPE)
endfunction()

# Stops the configure with one sentence when a source of <target> is written for the other chip than ARCH: it
# names Arch::<other> and never Arch::<arch> (comments aside), or it uses upstream's EVG (catlass/epilogue/fusion),
# which exists for Ascend950 only, and ARCH is AtlasA2. Otherwise the compiler would print a page of upstream
# template errors (a missing specialisation) and no word of the cause.
function(_evgcheck_check_arch target arch)
  get_target_property(sources ${target} SOURCES)
  get_target_property(dir ${target} SOURCE_DIR)
  if(arch STREQUAL "AtlasA2")
    set(other Ascend950)
  else()
    set(other AtlasA2)
  endif()
  foreach(src IN LISTS sources)
    if(NOT src MATCHES "\\.(c|cc|cpp|cxx|h|hh|hpp)$" OR src MATCHES "^\\$<")
      continue()
    endif()
    if(NOT IS_ABSOLUTE "${src}")
      set(src "${dir}/${src}")
    endif()
    if(NOT EXISTS "${src}")
      continue()
    endif()
    file(READ "${src}" text)
    string(REGEX REPLACE "//[^\n]*" "" text "${text}")
    if(text MATCHES "Arch::${other}[^A-Za-z0-9_]" AND NOT text MATCHES "Arch::${arch}[^A-Za-z0-9_]")
      message(FATAL_ERROR "evgcheck: ${src} is written for ${other} (it names Arch::${other}, never Arch::${arch}), "
                          "but ${target} is built with ARCH ${arch}: pass ARCH ${other} to evgcheck_add_program / "
                          "evgcheck_use_catlass")
    endif()
    if(arch STREQUAL "AtlasA2" AND text MATCHES "#include[ \t]*[<\"]catlass/epilogue/fusion/")
      message(FATAL_ERROR "evgcheck: ${src} uses upstream's EVG (catlass/epilogue/fusion), which Catlass builds for "
                          "Ascend950 only, but ${target} is built with ARCH AtlasA2: pass ARCH Ascend950 "
                          "(docs/ascendc-api.md)")
    endif()
  endforeach()
endfunction()

function(evgcheck_use_catlass target)
  cmake_parse_arguments(ARG "" "ARCH;CATLASS_ROOT;KERNEL_COMPILER" "" ${ARGN})
  if(NOT ARG_ARCH MATCHES "^(AtlasA2|Ascend950)$")
    message(FATAL_ERROR "evgcheck_use_catlass(${target}): ARCH must be AtlasA2 or Ascend950, not '${ARG_ARCH}'")
  endif()
  _evgcheck_check_arch(${target} ${ARG_ARCH})
  _evgcheck_catlass_root(root "${ARG_CATLASS_ROOT}")
  target_include_directories(${target} BEFORE PRIVATE ${EVGCHECK_STANDINS_DIR})
  target_include_directories(${target} SYSTEM AFTER PRIVATE "${root}/include")
  if(EXISTS "${root}/examples/common/helper.hpp")
    target_include_directories(${target} SYSTEM AFTER PRIVATE "${root}/examples/common")
  endif()
  target_link_libraries(${target} PRIVATE evgcheck::ascendc_device_${ARG_ARCH})
  # The program's reports name the checkout (kernel_operator.h registers it; docs/check-your-program.md §6).
  target_compile_definitions(${target} PRIVATE "EVGCHECK_CATLASS_ROOT=\"${root}\"")
  target_compile_features(${target} PRIVATE cxx_std_20)
  # Debug information: the call chain of an instruction issued inside Catlass resolves to the user's line it came
  # through (lib/hw/include/evg/hw/call_chain.hpp); without it a finding names the kernel launch only. A chain
  # reads line tables, inlined calls and function names (the mangled names, which say whose visitor a frame
  # is), no types or variables: GCC's -g1 and Clang's -gline-tables-only with -fdebug-info-for-profiling (which
  # adds the mangled names) give exactly that, in 25-32% less compile time than -g (docs/build-cost.md). A build
  # type that asks for full debug information (Debug, RelWithDebInfo) gets -g, for a debugger.
  _evgcheck_kernel_compiler(${target} "${ARG_KERNEL_COMPILER}" family)
  if(family STREQUAL "GCC")
    set(chain_debug_info -g1)
    target_compile_options(${target} PRIVATE -fno-tree-sra)
  else()
    set(chain_debug_info -gline-tables-only -fdebug-info-for-profiling)
  endif()
  target_compile_options(${target} PRIVATE -ftrivial-auto-var-init=pattern
                         "$<IF:$<CONFIG:Debug,RelWithDebInfo>,-g,${chain_debug_info}>")
endfunction()

function(evgcheck_add_program name)
  cmake_parse_arguments(ARG "" "ARCH;CATLASS_ROOT;KERNEL_COMPILER" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "evgcheck_add_program(${name}): SOURCES is empty")
  endif()
  if(NOT ARG_ARCH)
    set(ARG_ARCH Ascend950)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  evgcheck_use_catlass(${name} ARCH ${ARG_ARCH} CATLASS_ROOT "${ARG_CATLASS_ROOT}"
                       KERNEL_COMPILER "${ARG_KERNEL_COMPILER}")
  # A project that chose no build type would build the kernels unoptimised, and the model would run them 5 to 9
  # times slower: optimise this program (asserts stay on) and say so once.
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT multi_config AND NOT CMAKE_BUILD_TYPE)
    target_compile_options(${name} PRIVATE -O2)
    get_property(told GLOBAL PROPERTY _EVGCHECK_TOLD_BUILD_TYPE)
    if(NOT told)
      set_property(GLOBAL PROPERTY _EVGCHECK_TOLD_BUILD_TYPE ON)
      message(STATUS "evgcheck: no CMAKE_BUILD_TYPE: evgcheck_add_program builds its programs with -O2 (the model "
                     "runs unoptimised kernels 5 to 9 times slower); set CMAKE_BUILD_TYPE to choose")
    endif()
  endif()
endfunction()
