// An ACL-like host runtime shim: enough of the ACL runtime for Catlass example host code, on the model.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>

#include "evg/hw/machine.hpp"

// Error codes: CANN's values for the ones the shim returns. A program's own error macro (Catlass's examples
// define ACL_CHECK, comparing with ACL_ERROR_NONE) prints what the model reports as any other ACL error.
using aclError = int;
constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_NONE = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;
constexpr aclError ACL_ERROR_RT_KERNEL_CHECK = 507015;  // a launch reported violations

struct EvgAclStream;
using aclrtStream = EvgAclStream*;
using aclrtContext = void*;

enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2
};
enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
};

aclError aclInit(const char* configPath);
aclError aclFinalize();
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
// Findings name the buffer by the variable the call stores the pointer in (`aclrtMalloc((void **)&deviceX,
// ...)`: deviceX), read from the call's line, and say where it was allocated; `site` is the caller's line.
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
                     evg::hw::Site site = evg::hw::Site::here());
aclError aclrtFree(void* devPtr);
aclError aclrtMallocHost(void** hostPtr, size_t size);
aclError aclrtFreeHost(void* hostPtr);
// A device-to-host copy of GM bytes that no kernel store and no host copy ever wrote is a finding
// (uninit_to_host), printed and kept in EVG_REPORT as a host report; the copy still happens. `site` is the
// caller's line.
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                     evg::hw::Site site = evg::hw::Site::here());
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtCreateStream(aclrtStream* stream);
// Returns ACL_ERROR_RT_KERNEL_CHECK, and prints the report on stderr, when a launch on the stream found
// violations since the last synchronisation. The environment (read by aclInit and again at every launch) is
// listed, with what each variable does, in its one table, acl/program_env.def (EVG_REPORT, EVG_STRICT,
// EVG_SCHEDULER, EVG_SEED, EVG_CHECK, EVG_MUTATE, EVG_LIST_MUTATIONS, EVG_TRACE_OUT). `evgcheck run-program`
// sets them for a built program; docs/check-your-program.md.
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtDestroyStream(aclrtStream stream);
const char* aclGetRecentErrMsg();

namespace evg::acl {
// Launches `kernel` on `block_dim` blocks of the given kernel type, in stream order (the model runs it at
// once). Its report is kept on the stream until aclrtSynchronizeStream. `site` is the line that launched it:
// when it is the user's (evg/hw/site.hpp), the report's findings are headed by the user's line
// (Report::set_launch_site).
aclError launch(aclrtStream stream, uint32_t block_dim, evg::hw::KernelType type,
                const std::function<void()>& kernel, evg::hw::Site site = evg::hw::Site::here());
// The same on a given chip (Catlass's DeviceGemm passes its kernel's ArchTag).
aclError launch(aclrtStream stream, uint32_t block_dim, evg::hw::KernelType type,
                const std::function<void()>& kernel, evg::hw::ArchId arch,
                evg::hw::Site site = evg::hw::Site::here());
}  // namespace evg::acl
