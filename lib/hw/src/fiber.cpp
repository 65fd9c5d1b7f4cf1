#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "evg/hw/uninit_fill.hpp"

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

// Under valgrind's memcheck the refill does not read the dead stack to find how much was dirtied: memcheck
// holds what lies below the stack pointer as undefined, and would report every such read in every program
// run under it. (Without the header, from the Debian package valgrind, a run under memcheck reports them.)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define EVG_FIBER_ON_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#else
#define EVG_FIBER_ON_VALGRIND() false
#endif

#ifdef EVG_FIBER_OWN_SWITCH
// evg_fiber_switch(save, to): pushes the callee-saved registers and the SSE and x87 control words on the
// running stack, stores the stack pointer in *save, loads `to` (a stack pointer stored the same way, or a new
// stack laid out by Fiber::resume) and pops the same from there. The System V ABI leaves every other register
// to the caller. evg_fiber_start is where a new stack "returns" to: it calls the function in r13 with the
// argument in r12, on a 16-byte-aligned stack; its return address is marked undefined, so that an unwinder
// (a finding's call chain, gdb, an exception) stops there.
extern "C" void evg_fiber_switch(void** save, void* to);
extern "C" void evg_fiber_start();
asm(R"(
    .text
    .globl evg_fiber_switch
    .hidden evg_fiber_switch
    .type evg_fiber_switch, @function
    .p2align 4
evg_fiber_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size evg_fiber_switch, .-evg_fiber_switch

    .globl evg_fiber_start
    .hidden evg_fiber_start
    .type evg_fiber_start, @function
    .p2align 4
evg_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    callq *%r13
    ud2
    .cfi_endproc
    .size evg_fiber_start, .-evg_fiber_start
)");
#endif

namespace evg::hw::detail {

namespace {

// Kernel bodies are template code with modest frames; ASan's redzones make frames several times larger.
#ifdef EVG_FIBER_ASAN
constexpr size_t kStackBytes = size_t{8} << 20;
#else
constexpr size_t kStackBytes = size_t{2} << 20;
#endif

// The fill of a core's stack (uninit_fill.hpp): a fresh stack is filled over its top kFreshFillDepth bytes
// when it is mapped, where a kernel's own frames start (its untouched pages below read 0), and when a fiber
// ends the part of its stack the kernel dirtied, down to kFillDepth, is filled again (entry()), so that a
// stack goes back to the pool filled wherever a kernel went and every launch starts on the fill, at the cost
// of what the last kernel dirtied. Filling 128 KiB of every fresh stack cost 3% of the property benchmark (a
// launch of many cores maps stacks beyond the pool's): 16 KiB does not show.
constexpr size_t kFreshFillDepth = kStackBytes / 128;  // 16 KiB; under ASan, whose frames are larger, 64 KiB
constexpr size_t kFillDepth = kStackBytes / 16;        // 128 KiB; under ASan 512 KiB
// When a fiber ends, its refill looks at the whole kFillDepth: a kernel frame may hold an unused buffer of
// any size (an epilogue's callbacks of many nodes), below which a deeper frame of an earlier launch left its
// values, and a refill that stopped at the first clean run left them for the next launch to read (upstream's
// uninitialised l0CEventList then read an old offset, not the fill). Scanning 128 KiB costs a read of it; the
// fill is written only down to the deepest dirty block. (Core::run_kernel's refill stops after 1 KiB of fill:
// the model's own frames hold no unused buffers.)
constexpr size_t kEndCleanRun = kFillDepth;
// Left untouched above the guard page, so that a refill never reaches it.
constexpr size_t kRefillMargin = size_t{64} << 10;

// The stack of the fiber running on this thread, if any: refill_dead_stack works only there.
thread_local const char* tls_stack_low = nullptr;

size_t page_size() {
    static const size_t p = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return p;
}

// Stacks of finished fibers, kept for the next launch on this thread (a launch has 1-3 cores in most runs),
// each with whether it holds the fill (a launch without the uninit checker leaves its stack as it was).
struct PooledStack {
    void* stack;
    bool filled;
};
struct StackPool {
    std::vector<PooledStack> free;
    ~StackPool() {
        for (const PooledStack& s : free)
            munmap(static_cast<char*>(s.stack) - page_size(), kStackBytes + page_size());
    }
};
thread_local StackPool pool;
constexpr size_t kPoolCap = 64;

PooledStack take_stack() {
    if (!pool.free.empty()) {
        const PooledStack s = pool.free.back();
        pool.free.pop_back();
        return s;
    }
    // MAP_NORESERVE: only the pages a kernel touches count; a launch of thousands of cores stays cheap.
    void* base = mmap(nullptr, kStackBytes + page_size(), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    mprotect(base, page_size(), PROT_NONE);  // the guard page
    char* stack = static_cast<char*>(base) + page_size();
    std::memset(stack + kStackBytes - kFreshFillDepth, kUninitFillByte, kFreshFillDepth);
    return {stack, true};
}

void give_stack(void* s, bool filled) {
    if (pool.free.size() < kPoolCap) {
        pool.free.push_back({s, filled});
        return;
    }
    munmap(static_cast<char*>(s) - page_size(), kStackBytes + page_size());
}

}  // namespace

bool in_stack_guard(const void* addr) noexcept {
    if (!tls_stack_low) return false;
    const auto a = reinterpret_cast<uintptr_t>(addr);
    const auto low = reinterpret_cast<uintptr_t>(tls_stack_low);
    return a < low && a >= low - page_size();
}

size_t fiber_stack_bytes() noexcept {
    return kStackBytes;
}

Fiber::Fiber(std::function<void()> body, bool fill) : body_(std::move(body)), fill_(fill) {}

Fiber::~Fiber() {
    // A fiber that started and did not finish still holds frames on its stack; the machine runs every fiber
    // to its end before destroying it, so that cannot happen there. Its stack is only recycled when it is
    // clean.
    if (stack_ && (!started_ || finished_)) give_stack(stack_, stack_filled_);
}

#ifdef EVG_FIBER_OWN_SWITCH
void Fiber::entry(Fiber* f) {
    run(f);
    __builtin_unreachable();  // switch_out(true) never comes back
}
#else
void Fiber::entry(unsigned lo, unsigned hi) {
    // makecontext passes int arguments only: the Fiber pointer arrives in two halves.
    run(reinterpret_cast<Fiber*>(  // NOLINT(performance-no-int-to-ptr)
        (static_cast<uintptr_t>(hi) << 32) | static_cast<uintptr_t>(lo)));
}
#endif

void Fiber::run(Fiber* f) {
#ifdef EVG_FIBER_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &f->caller_bottom_, &f->caller_size_);
#endif
    // A stack an earlier launch left unfilled is filled before a kernel that reads the fill runs on it (here,
    // at the top of the fiber, everything below is dead).
    if (f->fill_ && !f->stack_filled_) refill_dead_stack(kFillDepth, kEndCleanRun);
    f->body_();  // the machine's core_main catches everything
    if (f->fill_) refill_dead_stack(kFillDepth, kEndCleanRun);
    f->stack_filled_ = f->fill_;
    f->finished_ = true;
    f->switch_out(true);
}

void Fiber::resume() {
    if (!started_) {
        const PooledStack s = take_stack();
        stack_ = s.stack;
        stack_filled_ = s.filled;
#ifdef EVG_FIBER_OWN_SWITCH
        // The frame evg_fiber_switch pops on its first switch here (from the top of the stack down): a zero
        // word (the 16-byte alignment evg_fiber_start calls with), evg_fiber_start as the return address,
        // rbp 0 (the end of a frame-pointer chain), rbx, r12 = this, r13 = entry, r14, r15, then the SSE
        // and x87 control words of the thread now.
        auto* top = reinterpret_cast<uint64_t*>(static_cast<char*>(stack_) + kStackBytes);
        uint64_t* sp = top - 10;
        uint32_t mxcsr = 0;
        uint16_t fcw = 0;
        asm volatile("stmxcsr %0" : "=m"(mxcsr));
        asm volatile("fnstcw %0" : "=m"(fcw));
        sp[0] = mxcsr | (uint64_t{fcw} << 32);
        sp[1] = 0;                                             // r15
        sp[2] = 0;                                             // r14
        sp[3] = reinterpret_cast<uint64_t>(&Fiber::entry);     // r13
        sp[4] = reinterpret_cast<uint64_t>(this);              // r12
        sp[5] = 0;                                             // rbx
        sp[6] = 0;                                             // rbp
        sp[7] = reinterpret_cast<uint64_t>(&evg_fiber_start);  // the return address
        sp[8] = 0;
        sp[9] = 0;
        self_sp_ = sp;
#else
        getcontext(&self_);
        self_.uc_stack.ss_sp = stack_;
        self_.uc_stack.ss_size = kStackBytes;
        self_.uc_link = nullptr;
        auto p = reinterpret_cast<uintptr_t>(this);
        makecontext(&self_, reinterpret_cast<void (*)()>(&Fiber::entry), 2,
                    static_cast<unsigned>(p & 0xffffffffu), static_cast<unsigned>(p >> 32));
#endif
        started_ = true;
    }
#ifdef EVG_FIBER_ASAN
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, stack_, kStackBytes);
#endif
    const char* outer = tls_stack_low;
    tls_stack_low = static_cast<const char*>(stack_);
#ifdef EVG_FIBER_OWN_SWITCH
    evg_fiber_switch(&caller_sp_, self_sp_);
#else
    swapcontext(&caller_, &self_);
#endif
    tls_stack_low = outer;
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
#ifdef EVG_FIBER_OWN_SWITCH
    evg_fiber_switch(&self_sp_, caller_sp_);
#else
    swapcontext(&self_, &caller_);
#endif
#ifdef EVG_FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake_stack_, &caller_bottom_, &caller_size_);
#endif
}

// Not inlined, so that its frame is the only one between the caller and the part it fills, an alloca of this
// frame: it never writes where a live frame is. What lies below the caller was dirtied from the top down to
// the deepest frame of what ran there: the fill goes down from the top until it has seen `clean_run` bytes of
// the fill in a row (every word of every kStep-byte block compared), so that it writes what was dirtied only.
[[gnu::noinline]] size_t refill_dead_stack(size_t depth, size_t clean_run) noexcept {
    constexpr size_t kStep = 64;
    const char* low = tls_stack_low;
    if (!low) return 0;
    const char* here = static_cast<const char*>(__builtin_frame_address(0));
    if (here <= low + kRefillMargin + depth) return 0;
    auto* dead = static_cast<unsigned char*>(__builtin_alloca(depth));
    uint64_t fill_word = 0;
    std::memset(&fill_word, kUninitFillByte, sizeof fill_word);
    static const bool on_valgrind = EVG_FIBER_ON_VALGRIND();
    // Bytes from the top down to the deepest block of kStep bytes that is not all fill.
    size_t dirty = on_valgrind ? depth : 0;
    // A block's words are compared without a branch each (their differences or-ed together, one test per
    // block): the scan of a fiber's 128 KiB at its end is 4-5% of a property case, most of it the reads.
    for (size_t d = kStep; !on_valgrind && d <= depth && d - dirty <= clean_run + kStep; d += kStep) {
        uint64_t differs = 0;
        for (size_t w = 0; w < kStep; w += sizeof fill_word) {
            uint64_t word = 0;
            std::memcpy(&word, dead + depth - d + w, sizeof word);
            differs |= word ^ fill_word;
        }
        if (differs != 0) dirty = d;
    }
    std::memset(dead + depth - dirty, kUninitFillByte, dirty);
    asm volatile("" : : "r"(dead) : "memory");  // the fill is the point: keep it
    return dirty;
}

}  // namespace evg::hw::detail
