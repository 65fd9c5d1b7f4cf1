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

// Where a LocalTensor lives: its logical position, its byte offset in the position's memory and its length in
// bytes. Public as in AscendC (`address_`, `SetAddr`): upstream code moves a tensor by copying another's.
struct TBuffAddr {
    uint32_t dataLen = 0;     // bytes
    uint64_t bufferAddr = 0;  // byte offset inside the core's memory of `logicPos`
    TPosition logicPos = TPosition::VECCALC;
};

template <class T>
class LocalTensor {
  public:
    using PrimType = T;
    LocalTensor() = default;
    LocalTensor(TPosition pos, uint64_t addr, uint32_t size)
        : address_{static_cast<uint32_t>(uint64_t(size) * sizeof(T)), addr, pos} {}

    LocalTensor operator[](uint32_t offset) const {
        uint32_t size = GetSize();
        return LocalTensor(address_.logicPos, address_.bufferAddr + uint64_t(offset) * sizeof(T),
                           size > offset ? size - offset : 0);
    }
    uint32_t GetSize() const { return static_cast<uint32_t>(address_.dataLen / sizeof(T)); }
    void SetSize(uint32_t size) { address_.dataLen = static_cast<uint32_t>(uint64_t(size) * sizeof(T)); }
    uint32_t GetLength() const { return address_.dataLen; }
    TPosition GetPosition() const { return address_.logicPos; }
    uint64_t GetPhyAddr() const { return address_.bufferAddr; }
    uint64_t GetPhyAddr(uint32_t offset) const { return address_.bufferAddr + uint64_t(offset) * sizeof(T); }
    // Takes another tensor's place (position, address, length in bytes).
    void SetAddr(const TBuffAddr& address) { address_ = address; }
    template <class U>
    LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>(address_.logicPos, address_.bufferAddr,
                              static_cast<uint32_t>(uint64_t(address_.dataLen) / sizeof(U)));
    }

    T GetValue(uint32_t index, Site site = Site::here()) const {
        T v{};
        detail::scalar_read(ref(), uint64_t(index) * sizeof(T), &v, sizeof(T), site);
        return v;
    }
    void SetValue(uint32_t index, T value, Site site = Site::here()) const {
        detail::scalar_write(ref(), uint64_t(index) * sizeof(T), &value, sizeof(T), site);
    }

    detail::LocalRef ref() const {
        return {position_memory(address_.logicPos), address_.bufferAddr, uint64_t(address_.dataLen)};
    }

    TBuffAddr address_;
};

template <class T>
class GlobalTensor {
  public:
    using PrimType = T;
    GlobalTensor() = default;
    void SetGlobalBuffer(__gm__ T* buffer, uint64_t size = 0) {
        address_ = buffer;
        size_ = size;
    }
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t;
        t.address_ = address_ ? address_ + offset : nullptr;
        t.size_ = size_ > offset ? size_ - offset : 0;
        if (!address_) t.null_offset_ = null_offset_ + offset;
        return t;
    }
    __gm__ T* GetPhyAddr() const { return address_; }
    __gm__ T* GetPhyAddr(uint64_t offset) const { return address_ ? address_ + offset : nullptr; }
    uint64_t GetSize() const { return size_; }
    void SetL2CacheHint(CacheMode) {}

    T GetValue(uint64_t index, Site site = Site::here()) const {
        T v{};
        detail::gm_scalar_read(address_ ? address_ + index : nullptr, &v, sizeof(T), site);
        return v;
    }
    void SetValue(uint64_t index, T value, Site site = Site::here()) {
        detail::gm_scalar_write(address_ ? address_ + index : nullptr, &value, sizeof(T), site);
    }

    // The GM address of element 0; public as in AscendC (upstream copies it between tensors).
    __gm__ T* address_ = nullptr;

  private:
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

class TPipe;
namespace detail {
// The TPipe the calling core constructed last and has not destroyed (nullptr if none); outside a kernel, the
// calling thread's.
void set_tpipe(TPipe* pipe);
void clear_tpipe(TPipe* pipe);
TPipe* get_tpipe();
}  // namespace detail

// Hands out each memory from its start, in InitBuffer order. Constructing one makes it the core's
// GetTPipePtr(); destroying it unsets that.
class TPipe {
  public:
    TPipe() { detail::set_tpipe(this); }
    ~TPipe() { detail::clear_tpipe(this); }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;
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

// The calling core's current TPipe (AscendC declares it at global scope).
inline ::AscendC::TPipe* GetTPipePtr() {
    return ::AscendC::detail::get_tpipe();
}
