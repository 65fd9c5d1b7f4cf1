// `assert` in device code. Kernel code may call assert without including <cassert> (Catlass's fusion nodes
// do: `assert(ub_offset <= ArchTag::UB_SIZE)`); on device a failed assertion stops the kernel with a message.
// On the model it stops the core that failed it with an error naming the expression and its file:line, which
// the launch reports; it never aborts the process. Whether NDEBUG is defined does not matter: a device
// assertion is a check of the kernel, not of the host build. (A later #include <cassert> in the same
// translation unit restores the C library's assert, as the C standard requires of <assert.h>.)
#pragma once

namespace AscendC::detail {
// Throws evg::hw::DeviceAssertion: "assertion `expr` failed at file:line".
[[noreturn]] void device_assert_failed(const char* expr, const char* file, unsigned line);
}  // namespace AscendC::detail

#undef assert
#define assert(expr) \
    (static_cast<bool>(expr) ? void(0) : ::AscendC::detail::device_assert_failed(#expr, __FILE__, __LINE__))
