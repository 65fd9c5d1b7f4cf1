// The AscendC kernel API on the evgcheck machine. Kernel code includes this exactly as on device.
#pragma once
#include "ascendc/cache.hpp"
#include "ascendc/cube.hpp"
#include "ascendc/data_copy.hpp"
#include "ascendc/dtypes_ext.hpp"
#include "ascendc/micro_api.hpp"
#include "ascendc/std_utils.hpp"
#include "ascendc/sync.hpp"
#include "ascendc/system.hpp"
#include "ascendc/tensor.hpp"
#include "ascendc/types.hpp"
#include "ascendc/unmodelled.hpp"
#include "ascendc/vector.hpp"
#include "ascendc/vector_level0.hpp"
#include "ascendc/vector_mask.hpp"
#include "ascendc/vector_reduce.hpp"
#include "ascendc/vector_select.hpp"

// Findings name the user's line first: evgcheck's own headers (this folder) are not the user's code
// (evg/hw/site.hpp), and instructions of upstream Catlass's visitors are named by their node.
#include <filesystem>

#include "acl/catlass_checkout.hpp"
#include "evg/hw/site.hpp"
namespace evg::acl::program {
inline const bool evgcheck_dir_registered = ::evg::hw::register_code_dir(
    std::filesystem::path(__FILE__).parent_path().string(), ::evg::hw::SiteOwner::evgcheck);
inline const bool upstream_node_namer_registered = register_upstream_node_namer();
}  // namespace evg::acl::program

// A program built with evgcheck_use_catlass (cmake/evgcheck_program.cmake) names the Catlass checkout it was
// built against, so that its reports can say which Catlass they are about (acl/catlass_checkout.hpp). One
// registration per program, however many of its translation units include this header.
#ifdef EVGCHECK_CATLASS_ROOT
namespace evg::acl::program {
inline const bool catlass_root_registered = register_program_catlass_root(EVGCHECK_CATLASS_ROOT);
}  // namespace evg::acl::program
#endif

// Which compiler built this translation unit, and the order it evaluates a constructor's arguments in,
// measured here as EVG's get_callbacks meets it (acl/kernel_compiler.hpp): every report names it. Internal
// linkage: each translation unit measures and registers its own compiler, so a program whose files two
// compilers built lists both.
#include "acl/kernel_compiler.hpp"
namespace evg::acl::program {
#if defined(__clang__)
#define EVG_KERNEL_COMPILER_NAME "clang " __clang_version__
#elif defined(__GNUC__)
#define EVG_KERNEL_COMPILER_NAME "gcc " __VERSION__
#else
#define EVG_KERNEL_COMPILER_NAME "an unknown compiler"
#endif
namespace {
struct ArgumentOrderProbe {
    bool left_to_right;
    ArgumentOrderProbe(int first, int second) : left_to_right(first < second) {}
};
inline int argument_order_tick(int& next) {
    return next++;
}
inline bool arguments_left_to_right() {
    int next = 0;
    return ArgumentOrderProbe(argument_order_tick(next), argument_order_tick(next)).left_to_right;
}
[[maybe_unused]] inline const bool kernel_compiler_registered =
    register_kernel_compiler(EVG_KERNEL_COMPILER_NAME, arguments_left_to_right());
}  // namespace
#undef EVG_KERNEL_COMPILER_NAME
}  // namespace evg::acl::program

// Last, after every standard header the ones above include: device code sees the model's assert.
#include "ascendc/device_assert.hpp"
