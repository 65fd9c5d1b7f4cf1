#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define EVG_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EVG_FIBER_ASAN 1
#endif
#endif

#ifdef EVG_FIBER_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace evg::hw::detail {

namespace {

// Kernel bodies are template code with modest frames; ASan's redzones make frames several times larger.
#ifdef EVG_FIBER_ASAN
constexpr size_t kStackBytes = size_t{8} << 20;
#else
constexpr size_t kStackBytes = size_t{2} << 20;
#endif

size_t page_size() {
    static const size_t p = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return p;
}

// Stacks of finished fibers, kept for the next launch on this thread (a launch has 1-3 cores in most runs).
struct StackPool {
    std::vector<void*> free;
    ~StackPool() {
        for (void* s : free) munmap(static_cast<char*>(s) - page_size(), kStackBytes + page_size());
    }
};
thread_local StackPool pool;
constexpr size_t kPoolCap = 64;

void* take_stack() {
    if (!pool.free.empty()) {
        void* s = pool.free.back();
        pool.free.pop_back();
        return s;
    }
    // MAP_NORESERVE: only the pages a kernel touches count; a launch of thousands of cores stays cheap.
    void* base = mmap(nullptr, kStackBytes + page_size(), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    mprotect(base, page_size(), PROT_NONE);  // the guard page
    return static_cast<char*>(base) + page_size();
}

void give_stack(void* s) {
    if (pool.free.size() < kPoolCap) {
        pool.free.push_back(s);
        return;
    }
    munmap(static_cast<char*>(s) - page_size(), kStackBytes + page_size());
}

}  // namespace

Fiber::Fiber(std::function<void()> body) : body_(std::move(body)) {}

Fiber::~Fiber() {
    // A fiber that started and did not finish still holds frames on its stack; the machine runs every fiber
    // to its end before destroying it, so that cannot happen there. Its stack is only recycled when it is
    // clean.
    if (stack_ && (!started_ || finished_)) give_stack(stack_);
}

void Fiber::entry(unsigned lo, unsigned hi) {
    // makecontext passes int arguments only: the Fiber pointer arrives in two halves.
    auto* f = reinterpret_cast<Fiber*>(  // NOLINT(performance-no-int-to-ptr)
        (static_cast<uintptr_t>(hi) << 32) | static_cast<uintptr_t>(lo));
#ifdef EVG_FIBER_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &f->caller_bottom_, &f->caller_size_);
#endif
    f->body_();  // the machine's core_main catches everything
    f->finished_ = true;
    f->switch_out(true);
}

void Fiber::resume() {
    if (!started_) {
        stack_ = take_stack();
        getcontext(&self_);
        self_.uc_stack.ss_sp = stack_;
        self_.uc_stack.ss_size = kStackBytes;
        self_.uc_link = nullptr;
        auto p = reinterpret_cast<uintptr_t>(this);
        makecontext(&self_, reinterpret_cast<void (*)()>(&Fiber::entry), 2,
                    static_cast<unsigned>(p & 0xffffffffu), static_cast<unsigned>(p >> 32));
        started_ = true;
    }
#ifdef EVG_FIBER_ASAN
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, stack_, kStackBytes);
#endif
    swapcontext(&caller_, &self_);
#ifdef EVG_FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

void Fiber::yield() {
    switch_out(false);
}

void Fiber::switch_out(bool last) {
#ifdef EVG_FIBER_ASAN
    __sanitizer_start_switch_fiber(last ? nullptr : &fake_stack_, caller_bottom_, caller_size_);
#else
    (void)last;
#endif
    swapcontext(&self_, &caller_);
#ifdef EVG_FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake_stack_, &caller_bottom_, &caller_size_);
#endif
}

}  // namespace evg::hw::detail
