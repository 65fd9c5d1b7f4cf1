// What the AscendC compiler (bisheng) gives device code before any header: the function and address-space
// qualifiers, the pipe and event enums at global scope, and the chip macros. GCC and clang know none of them,
// so kernel_operator.h provides them here. docs/ascendc-device-environment.md lists each name, what bisheng
// means by it and what it becomes on the model.
//
// The chip (`__NPU_ARCH__`, and Catlass's `CATLASS_ARCH`) is not chosen here: the CMake target
// evg::ascendc_device defines both for the arch a build is for (2201 AtlasA2, 3510 Ascend950). Without them
// the header is the arch-neutral API that evgcheck's own library uses (the arch is then a run-time choice).
#pragma once
#include <cstdint>

// Function qualifiers. `__forceinline__` must imply `inline`: upstream headers define non-template functions
// with CATLASS_DEVICE (= `__forceinline__ __aicore__`) in headers.
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __inline__
#define __inline__ inline
#endif
#ifndef __host_aicore__
#define __host_aicore__
#endif

// Address spaces: one flat host address space on the model (the memory a pointer names is known from the
// tensor that carries it).
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif

// Pipe annotations on API declarations, and the Ascend950 vector-function scopes: no meaning to the model.
#ifndef __inout_pipe__
#define __inout_pipe__(pipe)
#endif
#ifndef __in_pipe__
#define __in_pipe__(pipe)
#endif
#ifndef __out_pipe__
#define __out_pipe__(pipe)
#endif
#ifndef __VEC_SCOPE__
#define __VEC_SCOPE__
#endif
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif

// The compiler's pipe and event enums, at global scope as device code names them (`PIPE_V`, `EVENT_ID0`).
// Values follow the hardware numbering (docs/hardware-model.md §1).
enum pipe_t : uint8_t {
    PIPE_S = 0,
    PIPE_V = 1,
    PIPE_M = 2,
    PIPE_MTE1 = 3,
    PIPE_MTE2 = 4,
    PIPE_MTE3 = 5,
    PIPE_ALL = 6,
    PIPE_MTE4 = 7,
    PIPE_MTE5 = 8,
    PIPE_V2 = 9,
    PIPE_FIX = 10
};

enum event_t : int32_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7
};

// bisheng's scalar min and max, which device code calls unqualified (Catlass's conv block swizzle does). Only
// in a device build for a chip: evgcheck's own code, built without __NPU_ARCH__, keeps std::min alone.
#if defined(__NPU_ARCH__)
template <class T>
constexpr T min(T a, T b) {
    return b < a ? b : a;
}
template <class T>
constexpr T max(T a, T b) {
    return a < b ? b : a;
}
#endif

#if defined(__NPU_ARCH__) && !defined(CATLASS_ARCH)
#define CATLASS_ARCH __NPU_ARCH__
#endif
#if defined(__NPU_ARCH__) && !defined(__CCE_IS_AICORE__)
#define __CCE_IS_AICORE__ 1
#endif
