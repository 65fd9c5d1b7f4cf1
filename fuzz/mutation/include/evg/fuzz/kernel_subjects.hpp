// The seed kernels of fuzz/kernels (evg::fuzz::seed_kernels) as mutation subjects; empty when fuzz/kernels
// is not part of the build.
#pragma once
#include <vector>

#include "evg/fuzz/subject.hpp"

namespace evg::fuzz {

std::vector<Subject> kernel_subjects();

}  // namespace evg::fuzz
