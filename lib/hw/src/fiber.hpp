// A stackful coroutine on the calling thread: the cores of one launch run as fibers that the machine's
// scheduler resumes in turn, so a hand-off is a context switch instead of an OS-thread wake-up.
//
// On x86-64 Linux a switch is a few instructions of fiber.cpp's own (the callee-saved registers and the
// floating-point control words, saved on the stack being left); elsewhere it is POSIX ucontext (glibc),
// whose swapcontext also saves and restores the signal mask with a system call at every switch: a tenth of a
// property case under a hypervisor that makes system calls dear. Both have AddressSanitizer's fiber
// annotations, so that the ASan build tracks the stack it is on. Stacks are mmap'ed with a guard page below
// them (an overflow faults instead of corrupting the heap) and recycled per thread, since a property run
// launches thousands of kernels.
#pragma once

#if defined(__x86_64__) && defined(__linux__)
#define EVG_FIBER_OWN_SWITCH 1
#else
#include <ucontext.h>
#endif

#include <cstddef>
#include <functional>

namespace evg::hw::detail {

// Fills (uninit_fill.hpp) what lies below the caller on the running fiber's stack, down to `depth` bytes and
// stopping after `clean_run` bytes of the fill in a row; nothing off a fiber. Below the caller every frame is
// dead: a kernel variable later allocated there starts as the fill, not as what those frames held. Returns
// the bytes it wrote (0 off a fiber, and when all it looked at held the fill already).
size_t refill_dead_stack(size_t depth, size_t clean_run) noexcept;

// Whether `addr` lies in the guard page below the stack of the fiber running on this thread: a fault there is
// a stack overflow. The size of a fiber's stack, to say so.
bool in_stack_guard(const void* addr) noexcept;
size_t fiber_stack_bytes() noexcept;

class Fiber {
  public:
    // `fill`: the launch reads the uninitialised-stack fill (its uninit checker is on). Without it the fiber
    // neither refills its stack at its end (a 512-KiB scan under ASan) nor needs a filled one; the stack goes
    // back to the pool marked as not filled, and the next fiber that needs the fill refills it first.
    explicit Fiber(std::function<void()> body, bool fill = true);
    ~Fiber();
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    // From outside the fiber: runs it until it yields or its body returns. Not to be called once finished().
    void resume();
    // From inside the fiber: returns to the resume() that entered it.
    void yield();
    bool finished() const { return finished_; }
    bool suspended() const { return started_ && !finished_; }  // inside its body, waiting for resume()

  private:
    static void run(Fiber* f);
#ifdef EVG_FIBER_OWN_SWITCH
    [[noreturn]] static void entry(Fiber* f);
#else
    static void entry(unsigned lo, unsigned hi);
#endif
    void switch_out(bool last);

    std::function<void()> body_;
#ifdef EVG_FIBER_OWN_SWITCH
    void* self_sp_ = nullptr;    // the fiber's stack pointer while it is switched out
    void* caller_sp_ = nullptr;  // resume()'s, while the fiber runs
#else
    ucontext_t self_{};
    ucontext_t caller_{};
#endif
    void* stack_ = nullptr;  // the usable stack, above its guard page
    bool fill_ = true;
    bool stack_filled_ = true;  // the stack holds the fill wherever earlier kernels went
    bool started_ = false;
    bool finished_ = false;
    // AddressSanitizer bookkeeping, read and written only when fiber.cpp is built with ASan (clang's
    // -Wunused-private-field would fail the other builds).
    [[maybe_unused]] void* fake_stack_ = nullptr;
    [[maybe_unused]] const void* caller_bottom_ = nullptr;
    [[maybe_unused]] size_t caller_size_ = 0;
};

}  // namespace evg::hw::detail
