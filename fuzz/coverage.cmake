# What libFuzzer's coverage sees in a fuzz build (EVG_FUZZ=ON): the one list of the sources compiled without
# the coverage instrumentation (they keep ASan and UBSan). Each source left out is code whose edges say nothing
# about what the fuzz targets hunt: the sync targets look for new ways of using flags, counters, pipes and
# barriers (the machine's scheduling, its sync API and its sync checkers, plus the pattern counters), and
# problem_file / graph_text for new shapes of input (the parsers, the graph checks, the launch estimate).
# Left out, with why:
#   fuzz/explorer (whole library)  the ground truth, not the code under test; its comparisons were a fifth of a
#                                  sync_program input's time (libFuzzer's trace-cmp hooks)
#   fibers, the uninitialised-stack fill, the instruction pool, memory bookkeeping (written bytes, the fill
#   pattern), call chains, sites, reports and trace files, timing and costs, the fault watch, the schedule
#   sweep: the model's infrastructure, the same edges on every input (the stack refill alone was 9% of a
#   sync_program input, all of it in trace-cmp hooks on its word compares)
#   lib/hw/src/numeric, lib/ascendc's vector_compute.cpp: the element arithmetic (dtype x op), which graph
#   validation and the vector API's dispatch already tell apart
#   checkers fp_exceptions, dcache, node_slots: checkers of values and data-cache use, not of sync
# Every edge costs twice: the instrumentation itself, and libFuzzer's per-feature bookkeeping of each execution
# (InputCorpus::UpdateFeatureFrequency was 28-36% of a sync_program session with every library instrumented).
# With EVG_FUZZ_ENGINE set (OSS-Fuzz), the engine's flags are the project's business: nothing is changed.
if(NOT EVG_FUZZ OR EVG_FUZZ_ENGINE)
  return()
endif()
set(EVG_FUZZ_NO_COVERAGE -fno-sanitize=fuzzer-no-link)
if(TARGET evg_explorer)
  target_compile_options(evg_explorer PRIVATE ${EVG_FUZZ_NO_COVERAGE})
endif()
set(_hw ${PROJECT_SOURCE_DIR}/lib/hw/src)
set(_ascendc ${PROJECT_SOURCE_DIR}/lib/ascendc/src)
file(GLOB _numeric ${_hw}/numeric/*.cpp)
set(_uncovered
  ${_hw}/call_chain.cpp ${_hw}/cost_table.cpp ${_hw}/fault_watch.cpp ${_hw}/fiber.cpp ${_hw}/instr_pool.cpp
  ${_hw}/memory.cpp ${_hw}/report.cpp ${_hw}/schedule_sweep.cpp ${_hw}/site.cpp ${_hw}/timing.cpp
  ${_hw}/trace.cpp ${_hw}/trace_file.cpp
  ${_hw}/checkers/fp_exceptions.cpp ${_hw}/checkers/dcache.cpp ${_hw}/checkers/node_slots.cpp
  ${_numeric})
set_source_files_properties(${_uncovered} TARGET_DIRECTORY evg_hw PROPERTIES COMPILE_OPTIONS "${EVG_FUZZ_NO_COVERAGE}")
set_source_files_properties(${_ascendc}/vector_compute.cpp TARGET_DIRECTORY evg_ascendc
                            PROPERTIES COMPILE_OPTIONS "${EVG_FUZZ_NO_COVERAGE}")
