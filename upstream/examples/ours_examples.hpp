// The seven example programs on evgcheck's own Catlass copy (ours_examples_950.cpp): the differential partner
// of run_example_950.
#pragma once
#include "upstream_examples.hpp"

namespace evg::upstream {

ExampleRun run_ours_950(Example e, const ExampleShape& s, const ExampleData& data, uint32_t block_dim,
                        const hw::Config& config);

}  // namespace evg::upstream
