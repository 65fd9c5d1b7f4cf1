// The fills of kernel memory nobody initialised, and how a value is recognised as one.
//
// The model keeps a core's stack filled where the kernel's frames go (lib/hw/src/fiber.cpp: a fresh stack
// when it is mapped, and again when a core's fiber ends), so that a kernel variable read before it is
// assigned holds a fill on every run and every build type, instead of whatever an earlier frame left there
// (often 0: a legal event id, length or offset). The model's byte is the one GCC's
// -ftrivial-auto-var-init=pattern writes into the variables it covers (scalars and arrays, not objects with
// constructors), and clang's writes its own byte into every automatic variable; evgcheck_use_catlass
// (cmake/evgcheck_program.cmake) compiles kernel code with the option, so the three fills are one recognised
// vocabulary (docs/checkers.md, "Values never initialised").
//
// Every byte 0xFE or every byte 0xAA: as a signed 32-bit value negative, as a 16-bit one over 43000; no event
// id, flag id, length, stride or address the hardware accepts has that form.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace evg::hw {

// The model's fill (and GCC's), then clang's.
inline constexpr std::array<unsigned char, 2> kUninitFillBytes = {0xFE, 0xAA};
inline constexpr unsigned char kUninitFillByte = kUninitFillBytes[0];

// True when every byte of `v` is one and the same fill byte. Values of one byte are never reported: 0xFE
// (254) is a legal repeat count or mode, so a one-byte match says nothing.
template <class T>
constexpr bool is_uninit_fill(T v) {
    static_assert(std::is_integral_v<T>);
    if constexpr (sizeof(T) < 2) {
        return false;
    } else {
        const auto u = static_cast<std::make_unsigned_t<T>>(v);
        for (const unsigned char fill : kUninitFillBytes) {
            bool all = true;
            for (size_t i = 0; i < sizeof(T); ++i) all &= ((u >> (8 * i)) & 0xFFu) == fill;
            if (all) return true;
        }
        return false;
    }
}

}  // namespace evg::hw
