// Arch::Resource: the kernel's local memories, carved by byte offset as Catlass does (one buffer per memory).
#pragma once
#include <cstdint>

#include "catlass/arch/arch.hpp"
#include "catlass/catlass.hpp"

namespace Catlass::Arch {

template <class ArchTag, AscendC::TPosition Pos, uint32_t SIZE>
struct LocalTensorBuffer {
    // A tensor of T starting `offset` bytes into this memory and spanning the rest of it.
    template <class T>
    CATLASS_DEVICE AscendC::LocalTensor<T> GetBufferByByte(uint32_t offset) const {
        uint32_t left = offset < SIZE ? SIZE - offset : 0;
        return AscendC::LocalTensor<T>(Pos, offset, left / static_cast<uint32_t>(sizeof(T)));
    }
};

template <class ArchTag>
struct Resource {
    AscendC::TPipe pipe;
    LocalTensorBuffer<ArchTag, AscendC::TPosition::VECCALC, ArchTag::UB_SIZE> ubBuf;
    LocalTensorBuffer<ArchTag, AscendC::TPosition::A1, ArchTag::L1_SIZE> l1Buf;
    LocalTensorBuffer<ArchTag, AscendC::TPosition::A2, ArchTag::L0A_SIZE> l0ABuf;
    LocalTensorBuffer<ArchTag, AscendC::TPosition::B2, ArchTag::L0B_SIZE> l0BBuf;
    LocalTensorBuffer<ArchTag, AscendC::TPosition::CO1, ArchTag::L0C_SIZE> l0CBuf;
    // Catlass destroys the TPipe at once: TPipe would insert synchronisation of its own.
    CATLASS_DEVICE Resource() { pipe.Destroy(); }
};

}  // namespace Catlass::Arch
