// The counting operator new of alloc_count.hpp. Each replacement forwards to malloc / aligned_alloc and adds
// one to a relaxed atomic counter; the matching deletes free. Linked into every benchmark binary once.
#include "alloc_count.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<uint64_t> g_allocations{0};

void* counted(std::size_t n) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void* counted_aligned(std::size_t n, std::align_val_t a) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    const auto align = static_cast<std::size_t>(a);
    const std::size_t size = (n + align - 1) / align * align;  // aligned_alloc wants a multiple
    if (void* p = std::aligned_alloc(align, size == 0 ? align : size)) return p;
    throw std::bad_alloc();
}
}  // namespace

namespace evg::bench {
uint64_t allocations() {
    return g_allocations.load(std::memory_order_relaxed);
}
}  // namespace evg::bench

void* operator new(std::size_t n) {
    return counted(n);
}
void* operator new[](std::size_t n) {
    return counted(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return counted(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new(std::size_t n, std::align_val_t a) {
    return counted_aligned(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a) {
    return counted_aligned(n, a);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
