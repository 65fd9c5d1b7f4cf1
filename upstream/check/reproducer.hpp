// The files a failure of the upstream check leaves (upstream_check.hpp): in <work>/failure-<hash>, the
// minimal case (case.txt), a program in upstream's dialect that reproduces it on the model (repro.cpp: the
// kernel as the upstream corpus builds it, the case's data and the outputs to compare with) and its
// CMakeLists.txt (evgcheck_add_program against the same checkout).
#pragma once
#include <filesystem>
#include <string>

#include "evg/props/model_property.hpp"
#include "upstream_check.hpp"

namespace evg::upstream::check {

struct FailureFiles {
    std::filesystem::path dir, case_file, program, cmake_lists;
    std::string case_text;  // what case.txt holds
    std::string scheduler;  // run-program's options for the case's schedule: "--scheduler in_order", ...
};

// Writes the three files of the failing case `c`; `first_line` is the failure's sentence (its first line goes
// into the program's head comment).
FailureFiles write_failure_files(const UpstreamCheckOptions& o, const props::Case& c,
                                 const std::string& first_line);

}  // namespace evg::upstream::check
