// A fault or a stop while a kernel runs, told before the process ends.
//
// While a launch runs (Machine::run), a SIGSEGV, SIGBUS, SIGFPE or SIGILL raised by a core's code becomes a
// kernel_exception finding naming the core, the signal and the last instruction the core issued; the report
// goes to the fault sink, and the process then ends by the signal as it would have without evgcheck. A
// SIGTERM, SIGINT or SIGHUP (evgcheck run-program's --timeout sends SIGTERM) first prints on stderr where
// each core of the launch is: blocked in which wait, or running its scalar code after which instruction.
// docs/checkers.md ("Crashes and hangs").
#pragma once

#include "evg/hw/report.hpp"

namespace evg::hw {

// Receives the report of a launch a fault ended, just before the process ends; called from the signal
// handler, once. The default prints report.text() on stderr; the ACL shim's prints it as a program's findings
// are printed and writes it to EVG_REPORT.
using FaultSink = void (*)(const Report& report);
void set_fault_sink(FaultSink sink);

// Called from the handler of a stop signal (SIGTERM, SIGINT, SIGHUP) after where the cores are is printed,
// just before the process ends by it: the ACL shim's writes what a program's first launch would have written
// (EVG_ABOUT), so that a run stopped in its first launch still says which Catlass it ran.
using StopSink = void (*)();
void set_stop_sink(StopSink sink);

}  // namespace evg::hw
