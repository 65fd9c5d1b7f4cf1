// LocalTensor, GlobalTensor, TPipe and TBuf: addresses into the machine's memories.
#pragma once
#include <cstdint>

#include "ascendc/types.hpp"

namespace AscendC {

namespace detail {
// A typed-erased local operand: which memory, where, and how many bytes the tensor spans.
struct LocalRef {
    ::evg::hw::MemKind mem = ::evg::hw::MemKind::UB;
    uint64_t addr = 0;   // byte offset inside the core's memory
    uint64_t bytes = 0;  // extent of the tensor (for diagnostics)
};
// Scalar access from PIPE_S (GetValue / SetValue) on local memory or GM.
void scalar_read(const LocalRef& t, uint64_t byte_off, void* out, uint32_t size, Site site);
void scalar_write(const LocalRef& t, uint64_t byte_off, const void* in, uint32_t size, Site site);
void gm_scalar_read(const void* addr, void* out, uint32_t size, Site site);
void gm_scalar_write(void* addr, const void* in, uint32_t size, Site site);
// UB carving: reports ub_overflow when [offset, offset+bytes) does not fit the memory of `pos`.
bool check_carve(TPosition pos, uint64_t offset, uint64_t bytes, const char* what, Site site);
}  // namespace detail

template <class T>
class LocalTensor {
  public:
    using PrimType = T;
    LocalTensor() = default;
    LocalTensor(TPosition pos, uint64_t addr, uint32_t size) : pos_(pos), addr_(addr), size_(size) {}

    LocalTensor operator[](uint32_t offset) const {
        return LocalTensor(pos_, addr_ + uint64_t(offset) * sizeof(T), size_ > offset ? size_ - offset : 0);
    }
    uint32_t GetSize() const { return size_; }
    void SetSize(uint32_t size) { size_ = size; }
    uint32_t GetLength() const { return size_ * sizeof(T); }
    TPosition GetPosition() const { return pos_; }
    uint64_t GetPhyAddr() const { return addr_; }
    uint64_t GetPhyAddr(uint32_t offset) const { return addr_ + uint64_t(offset) * sizeof(T); }
    template <class U>
    LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>(pos_, addr_, static_cast<uint32_t>(uint64_t(size_) * sizeof(T) / sizeof(U)));
    }

    T GetValue(uint32_t index, Site site = Site::here()) const {
        T v{};
        detail::scalar_read(ref(), uint64_t(index) * sizeof(T), &v, sizeof(T), site);
        return v;
    }
    void SetValue(uint32_t index, T value, Site site = Site::here()) const {
        detail::scalar_write(ref(), uint64_t(index) * sizeof(T), &value, sizeof(T), site);
    }

    detail::LocalRef ref() const { return {position_memory(pos_), addr_, uint64_t(size_) * sizeof(T)}; }

  private:
    TPosition pos_ = TPosition::VECCALC;
    uint64_t addr_ = 0;
    uint32_t size_ = 0;
};

template <class T>
class GlobalTensor {
  public:
    using PrimType = T;
    GlobalTensor() = default;
    void SetGlobalBuffer(__gm__ T* buffer, uint64_t size = 0) {
        ptr_ = buffer;
        size_ = size;
    }
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t;
        t.ptr_ = ptr_ ? ptr_ + offset : nullptr;
        t.size_ = size_ > offset ? size_ - offset : 0;
        if (!ptr_) t.null_offset_ = null_offset_ + offset;
        return t;
    }
    __gm__ T* GetPhyAddr() const { return ptr_; }
    __gm__ T* GetPhyAddr(uint64_t offset) const { return ptr_ ? ptr_ + offset : nullptr; }
    uint64_t GetSize() const { return size_; }
    void SetL2CacheHint(CacheMode) {}

    T GetValue(uint64_t index, Site site = Site::here()) const {
        T v{};
        detail::gm_scalar_read(ptr_ ? ptr_ + index : nullptr, &v, sizeof(T), site);
        return v;
    }
    void SetValue(uint64_t index, T value, Site site = Site::here()) {
        detail::gm_scalar_write(ptr_ ? ptr_ + index : nullptr, &value, sizeof(T), site);
    }

  private:
    T* ptr_ = nullptr;
    uint64_t size_ = 0;
    uint64_t null_offset_ = 0;
};

// Buffer carving as Catlass's Arch::Resource does it: one TBuf spanning UB, handed out by byte offset.
template <TPosition Pos = TPosition::VECCALC>
class TBuf {
  public:
    template <class T>
    LocalTensor<T> Get() const {
        return LocalTensor<T>(Pos, base_, static_cast<uint32_t>(bytes_ / sizeof(T)));
    }
    template <class T>
    LocalTensor<T> Get(uint32_t count) const {
        return LocalTensor<T>(Pos, base_, count);
    }
    template <class T>
    LocalTensor<T> GetWithOffset(uint32_t count, uint32_t byte_offset, Site site = Site::here()) const {
        detail::check_carve(Pos, base_ + byte_offset, uint64_t(count) * sizeof(T), "TBuf::GetWithOffset",
                            site);
        return LocalTensor<T>(Pos, base_ + byte_offset, count);
    }
    uint64_t base_ = 0;
    uint64_t bytes_ = 0;
};

class TPipe {
  public:
    TPipe() = default;
    template <TPosition Pos>
    bool InitBuffer(TBuf<Pos>& buf, uint32_t bytes, Site site = Site::here()) {
        constexpr auto mem = position_memory(Pos);
        uint64_t& next = next_[static_cast<int>(mem)];
        buf.base_ = next;
        buf.bytes_ = bytes;
        bool ok = detail::check_carve(Pos, next, bytes, "TPipe::InitBuffer", site);
        next += (uint64_t(bytes) + 31) / 32 * 32;
        return ok;
    }
    void Destroy() {}
    void Reset() {
        for (auto& n : next_) n = 0;
    }

  private:
    uint64_t next_[8] = {};
};

}  // namespace AscendC
