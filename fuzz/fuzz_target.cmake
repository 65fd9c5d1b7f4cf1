# evg_fuzz_target(<name> SOURCES <file>... [LIBS <lib>...] [TIMEOUT <seconds>] [REPLAY_OBJECTS <objlib>]
#                 [LIBFUZZER_OPTIONS <key>=<value>...])
#
# A fuzz target is one or more sources defining LLVMFuzzerTestOneInput (relative paths are relative to fuzz/).
# It builds:
#  * fuzz_<name>_replay (always, with the project's compiler): the sources + fuzz/replay/replay_main.cpp, and
#    the ctest `fuzz_replay_<name>` (label fuzz-replay) that runs every input of fuzz/corpus/<name>/ (which must
#    exist and hold inputs) and fuzz/regressions/<name>/ (may be missing or empty; the test says how many ran);
#  * fuzz_<name> (clang with EVG_FUZZ=ON only): the libFuzzer binary, linked with -fsanitize=fuzzer (or with
#    ${EVG_FUZZ_ENGINE} when fuzz/build.sh gives OSS-Fuzz's LIB_FUZZING_ENGINE). Its sources are compiled with
#    EVG_LIBFUZZER defined: what needs libFuzzer (LLVMFuzzerCustomMutator calling LLVMFuzzerMutate, extra
#    counters) sits under #ifdef EVG_LIBFUZZER, so that the replay program builds without it.
# REPLAY_OBJECTS: an object library of the same SOURCES that the replay program links instead of compiling
# them again (the libFuzzer binary always compiles its own, with EVG_LIBFUZZER).
# TIMEOUT is the time one input may take (default 10 s): the replay's -timeout, and libFuzzer's -timeout in
# fuzz_<name>.options, which `evgcheck fuzz` and fuzz/build.sh read. A fuzz/targets/<name>.dict is the
# target's libFuzzer dictionary. LIBFUZZER_OPTIONS: more lines of the .options file's [libfuzzer] section,
# which `evgcheck fuzz`, the benchmark's sessions and OSS-Fuzz pass to the libFuzzer binary as -<key>=<value>.
# Both binaries land in <build>/fuzz/; <build>/fuzz/targets.txt lists the targets, one `name` per line.
set(EVG_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR} CACHE INTERNAL "fuzz/ (evg_fuzz_target_objects is called from other folders)")
set(EVG_FUZZ_BIN_DIR ${PROJECT_BINARY_DIR}/fuzz CACHE INTERNAL "where the fuzz binaries go")
file(WRITE ${EVG_FUZZ_BIN_DIR}/targets.txt "")

function(evg_fuzz_target name)
  cmake_parse_arguments(ARG "" "TIMEOUT;REPLAY_OBJECTS" "SOURCES;LIBS;LIBFUZZER_OPTIONS" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "evg_fuzz_target(${name}): SOURCES is required")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 10)
  endif()
  set(sources "")
  foreach(s ${ARG_SOURCES})
    cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY ${EVG_FUZZ_DIR} OUTPUT_VARIABLE abs)
    list(APPEND sources ${abs})
  endforeach()

  if(ARG_REPLAY_OBJECTS)  # an object library already holding the sources, compiled the replay's way
    add_executable(fuzz_${name}_replay ${EVG_FUZZ_DIR}/replay/replay_main.cpp)
    target_link_libraries(fuzz_${name}_replay PRIVATE ${ARG_REPLAY_OBJECTS} ${ARG_LIBS})
  else()
    add_executable(fuzz_${name}_replay ${sources} ${EVG_FUZZ_DIR}/replay/replay_main.cpp)
    target_link_libraries(fuzz_${name}_replay PRIVATE ${ARG_LIBS})
  endif()
  target_include_directories(fuzz_${name}_replay PRIVATE ${EVG_FUZZ_DIR}/common)
  set_target_properties(fuzz_${name}_replay PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${EVG_FUZZ_BIN_DIR})
  add_test(NAME fuzz_replay_${name}
           COMMAND fuzz_${name}_replay -timeout=${ARG_TIMEOUT}
                   --corpus ${EVG_FUZZ_DIR}/corpus/${name} --regressions ${EVG_FUZZ_DIR}/regressions/${name})
  set_tests_properties(fuzz_replay_${name} PROPERTIES LABELS fuzz-replay TIMEOUT 300)

  set(options "[libfuzzer]\ntimeout = ${ARG_TIMEOUT}\n")
  foreach(o ${ARG_LIBFUZZER_OPTIONS})
    if(NOT o MATCHES "^([A-Za-z0-9_]+)=([^ \t]+)$")
      message(FATAL_ERROR "evg_fuzz_target(${name}): LIBFUZZER_OPTIONS '${o}' is not <key>=<value>")
    endif()
    string(APPEND options "${CMAKE_MATCH_1} = ${CMAKE_MATCH_2}\n")
  endforeach()
  if(EXISTS ${EVG_FUZZ_DIR}/targets/${name}.dict)
    string(APPEND options "dict = ${name}.dict\n")
  endif()
  file(WRITE ${EVG_FUZZ_BIN_DIR}/fuzz_${name}.options "${options}")
  file(APPEND ${EVG_FUZZ_BIN_DIR}/targets.txt "${name}\n")
  set_property(GLOBAL APPEND PROPERTY EVG_FUZZ_TARGETS ${name})
  set_property(GLOBAL PROPERTY EVG_FUZZ_TARGET_${name}_SOURCES ${sources})
  set_property(GLOBAL PROPERTY EVG_FUZZ_TARGET_${name}_LIBS ${ARG_LIBS})

  if(EVG_FUZZ)
    add_executable(fuzz_${name} ${sources})
    target_link_libraries(fuzz_${name} PRIVATE ${ARG_LIBS})
    target_include_directories(fuzz_${name} PRIVATE ${EVG_FUZZ_DIR}/common)
    target_compile_definitions(fuzz_${name} PRIVATE EVG_LIBFUZZER=1)
    if(EVG_FUZZ_ENGINE)
      separate_arguments(engine UNIX_COMMAND "${EVG_FUZZ_ENGINE}")
      target_link_options(fuzz_${name} PRIVATE ${engine})
    else()
      target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    endif()
    set_target_properties(fuzz_${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${EVG_FUZZ_BIN_DIR})
  endif()
endfunction()

# evg_fuzz_target_objects(<name> <target>): an object library <target> of fuzz target <name>'s sources (linking
# its LIBS), with LLVMFuzzerTestOneInput renamed evg_fuzz_entry_<name> (and LLVMFuzzerInitialize
# evg_fuzz_init_<name>), so that one program (a benchmark) can hold several targets. Call it after the target.
function(evg_fuzz_target_objects name target)
  get_property(sources GLOBAL PROPERTY EVG_FUZZ_TARGET_${name}_SOURCES)
  get_property(libs GLOBAL PROPERTY EVG_FUZZ_TARGET_${name}_LIBS)
  if(NOT sources)
    message(FATAL_ERROR "evg_fuzz_target_objects: no fuzz target ${name}")
  endif()
  add_library(${target} OBJECT ${sources})
  target_link_libraries(${target} PUBLIC ${libs})
  target_include_directories(${target} PRIVATE ${EVG_FUZZ_DIR}/common)
  target_compile_definitions(${target} PRIVATE LLVMFuzzerTestOneInput=evg_fuzz_entry_${name}
                                               LLVMFuzzerInitialize=evg_fuzz_init_${name})
endfunction()
