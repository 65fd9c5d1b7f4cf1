// An instruction's data effect (Instr::exec): a move-only callable that keeps the closures the AscendC layer
// issues (a few places, sizes, dtypes; up to kInline bytes) inside the instruction, so issuing one does not
// allocate as std::function did for every closure above its 16-byte buffer. Larger closures go to the heap.
#pragma once
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace evg::hw {

struct Instr;

class InstrFn {
  public:
    static constexpr size_t kInline = 128;

    InstrFn() = default;
    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InstrFn>>>
    InstrFn(F&& f) {  // NOLINT(google-explicit-constructor): assigned from lambdas like std::function
        emplace(std::forward<F>(f));
    }
    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InstrFn>>>
    InstrFn& operator=(F&& f) {
        reset();
        emplace(std::forward<F>(f));
        return *this;
    }
    InstrFn(InstrFn&& o) noexcept { take(o); }
    InstrFn& operator=(InstrFn&& o) noexcept {
        if (this != &o) {
            reset();
            take(o);
        }
        return *this;
    }
    InstrFn(const InstrFn&) = delete;
    InstrFn& operator=(const InstrFn&) = delete;
    ~InstrFn() { reset(); }

    explicit operator bool() const { return ops_ != nullptr; }
    void operator()(Instr& in) { ops_->call(buf_, in); }
    void reset() {
        if (ops_) ops_->destroy(buf_);
        ops_ = nullptr;
    }

  private:
    struct Ops {
        void (*call)(void*, Instr&);
        void (*destroy)(void*);
        void (*move)(void* to, void* from);  // move-constructs at `to` and destroys `from`
    };
    // Whether a closure of type F is kept inline.
    template <class F>
    static constexpr bool fits() {
        constexpr bool small = sizeof(F) <= kInline;
        constexpr bool aligned = alignof(F) <= alignof(std::max_align_t);
        if constexpr (!small)
            return false;
        else if constexpr (!aligned)
            return false;
        else
            return std::is_nothrow_move_constructible_v<F>;
    }

    template <class F>
    static const Ops* inline_ops() {
        static constexpr Ops ops{[](void* p, Instr& in) { (*std::launder(static_cast<F*>(p)))(in); },
                                 [](void* p) { std::launder(static_cast<F*>(p))->~F(); },
                                 [](void* to, void* from) {
                                     F* f = std::launder(static_cast<F*>(from));
                                     ::new (to) F(std::move(*f));
                                     f->~F();
                                 }};
        return &ops;
    }
    template <class F>
    static const Ops* heap_ops() {
        static constexpr Ops ops{[](void* p, Instr& in) { (**static_cast<F**>(p))(in); },
                                 [](void* p) { delete *static_cast<F**>(p); },
                                 [](void* to, void* from) { ::new (to) F*(*static_cast<F**>(from)); }};
        return &ops;
    }
    template <class F>
    void emplace(F&& f) {
        using D = std::decay_t<F>;
        if constexpr (fits<D>()) {
            ::new (static_cast<void*>(buf_)) D(std::forward<F>(f));
            ops_ = inline_ops<D>();
        } else {
            ::new (static_cast<void*>(buf_)) D*(new D(std::forward<F>(f)));
            ops_ = heap_ops<D>();
        }
    }
    void take(InstrFn& o) noexcept {
        if (!o.ops_) return;
        o.ops_->move(buf_, o.buf_);
        ops_ = o.ops_;
        o.ops_ = nullptr;
    }

    alignas(std::max_align_t) unsigned char buf_[kInline];
    const Ops* ops_ = nullptr;
};

}  // namespace evg::hw
