// Signals while a kernel runs (fault_watch.hpp): the handlers, and what the machine tells them.
#include "evg/hw/fault_watch.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "evg/hw/device.hpp"
#include "evg/hw/machine.hpp"
#include "fiber.hpp"
#include "launch_watch.hpp"

namespace evg::hw {

namespace detail {
extern thread_local Core* tls_core;
}

namespace {

// Faults come from the code that runs (the thread's own launch); stops come from outside, to any thread (the
// launch started last, on whichever thread).
constexpr int kFaults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
constexpr int kStops[] = {SIGTERM, SIGINT, SIGHUP};

thread_local Machine* tls_running = nullptr;
std::atomic<Machine*> g_running{nullptr};
std::atomic<FaultSink> g_sink{nullptr};
std::atomic<StopSink> g_stop_sink{nullptr};
std::atomic_flag g_telling = ATOMIC_FLAG_INIT;  // one signal is told, the rest go straight on
struct sigaction g_previous[NSIG];
bool g_handled[NSIG] = {};

bool is_fault(int sig) {
    for (int f : kFaults)
        if (f == sig) return true;
    return false;
}

void print(const std::string& text) {
    std::fflush(stdout);
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
}

// "SIGSEGV (address 0x10 is not mapped)": the signal and what the kernel's code did, from siginfo.
std::string fault_text(int sig, const siginfo_t* info) {
    const auto address = [&] { return fmt::format("{}", static_cast<const void*>(info->si_addr)); };
    switch (sig) {
        case SIGSEGV:
            if (detail::in_stack_guard(info->si_addr))
                return fmt::format("SIGSEGV (its stack overflowed: the model gives each core {} KiB)",
                                   detail::fiber_stack_bytes() >> 10);
            if (info->si_code == SEGV_MAPERR)
                return fmt::format("SIGSEGV (address {} is not mapped)", address());
            if (info->si_code == SEGV_ACCERR)
                return fmt::format("SIGSEGV (address {} may not be accessed that way)", address());
            return fmt::format("SIGSEGV (address {})", address());
        case SIGBUS:
            if (info->si_code == BUS_ADRALN) return fmt::format("SIGBUS (misaligned address {})", address());
            return fmt::format("SIGBUS (address {})", address());
        case SIGFPE:
            if (info->si_code == FPE_INTDIV) return "SIGFPE (an integer division by zero)";
            if (info->si_code == FPE_INTOVF) return "SIGFPE (an integer division overflowed)";
            return "SIGFPE (an arithmetic exception)";
        case SIGILL:
            return fmt::format("SIGILL (an illegal instruction at {})", address());
        default:
            return fmt::format("signal {}", sig);
    }
}

const char* stop_name(int sig) {
    switch (sig) {
        case SIGTERM:
            return "SIGTERM";
        case SIGINT:
            return "SIGINT";
        case SIGHUP:
            return "SIGHUP";
        default:
            return "a signal";
    }
}

void tell(Machine& m, int sig, const siginfo_t* info) {
    if (is_fault(sig)) {
        const Report r = m.fault_report(fault_text(sig, info));
        if (FaultSink sink = g_sink.load()) {
            sink(r);
        } else {
            print(r.text());
        }
        return;
    }
    std::string text = fmt::format(
        "evgcheck: {} while a kernel ran ({}, blockDim {}): where each core was when it came "
        "(evgcheck run-program --timeout stops a run so):\n",
        stop_name(sig), m.arch().name, m.block_dim());
    for (const std::string& line : m.where_cores_are()) text += "  " + line + "\n";
    print(text);
    if (StopSink sink = g_stop_sink.load()) sink();
}

void on_signal(int sig, siginfo_t* info, void* /*context*/) {
    const bool fault = is_fault(sig);
    const int saved_errno = errno;
    Machine* m = fault ? tls_running : g_running.load();
    // A fault in evgcheck's own code (no core running) is not the kernel's: it goes on to the previous
    // handler untold.
    if (m && (!fault || detail::tls_core) && !g_telling.test_and_set()) {
        try {
            tell(*m, sig, info);
        } catch (...) {  // NOLINT(bugprone-empty-catch): the process ends by the signal whatever happens
        }
    }
    // The signal then does what it did before: the previous action is restored and the signal raised again
    // (a fault the hardware raised comes again when the faulting instruction runs again, on return).
    sigaction(sig, &g_previous[sig], nullptr);
    if (!fault || info->si_code <= 0) raise(sig);
    errno = saved_errno;
}

// Each thread that runs a launch gets a signal stack of its own, where it has none: a core's stack that
// overflowed cannot run the handler.
void ensure_signal_stack() {
    thread_local std::vector<char> stack;
    if (!stack.empty()) return;
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
    stack.resize(size_t{64} << 10);
    stack_t s{};
    s.ss_sp = stack.data();
    s.ss_size = stack.size();
    s.ss_flags = 0;
    sigaltstack(&s, nullptr);
}

void install_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (int sig : kFaults) {
            struct sigaction sa {};
            sa.sa_sigaction = on_signal;
            sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
            sigemptyset(&sa.sa_mask);
            g_handled[sig] = sigaction(sig, &sa, &g_previous[sig]) == 0;
        }
        for (int sig : kStops) {
            struct sigaction previous {};
            // A stop the process ignores (nohup) stays ignored.
            if (sigaction(sig, nullptr, &previous) != 0 || previous.sa_handler == SIG_IGN) continue;
            struct sigaction sa {};
            sa.sa_sigaction = on_signal;
            sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
            sigemptyset(&sa.sa_mask);
            g_handled[sig] = sigaction(sig, &sa, &g_previous[sig]) == 0;
        }
    });
}

}  // namespace

void set_fault_sink(FaultSink sink) {
    g_sink.store(sink);
}

void set_stop_sink(StopSink sink) {
    g_stop_sink.store(sink);
}

namespace detail {

LaunchWatch::LaunchWatch(Machine& m) : outer_(tls_running) {
    install_handlers();
    ensure_signal_stack();
    tls_running = &m;
    g_running.store(&m);
}

LaunchWatch::~LaunchWatch() {
    Machine* self = tls_running;
    tls_running = outer_;
    // Another thread's launch may have started since; it stays named.
    g_running.compare_exchange_strong(self, outer_);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------------------------
// What the machine tells

Report Machine::fault_report(const std::string& what) {
    Core* c = detail::tls_core;
    std::vector<Location> locs;
    std::string after = " before it issued any instruction";
    if (c) {
        if (const TraceEntry* t = traced(state(*c).last_instr)) {
            after = fmt::format(" after its last instruction, #{} {} at {}", t->id, t->op(), t->site().str());
            locs.push_back(location_of(*this, *t));
        }
    }
    violate(
        {ViolationKind::kernel_exception, Severity::error,
         fmt::format("{} crashed in the kernel's code: {}{}; the launch and the process end here, as they "
                     "would without evgcheck (on an NPU: an AI Core exception)",
                     c ? c->name() : std::string("a core"), what, after),
         std::move(locs), 1});
    Report r = make_report();
    dev_.name_buffers(r);
    return r;
}

std::vector<std::string> Machine::where_cores_are() const {
    std::vector<std::string> lines;
    for (size_t i = 0; i < cores_.size(); ++i) {
        const Core& c = *cores_[i];
        const CoreState& st = states_[i];
        const Runner* r = i < runners_.size() ? &runners_[i] : nullptr;
        const TraceEntry* last = traced(st.last_instr);
        const std::string last_text =
            last ? fmt::format("its last instruction #{} {} at {}", last->id, last->op(), last->site().str())
                 : std::string("its start (it issued no instruction yet)");
        std::string line;
        if (!r || r->state == Runner::State::finished) {
            line = fmt::format("{}: its kernel body returned", c.name());
        } else if (r->state == Runner::State::blocked) {
            line = fmt::format("{}: its scalar unit waits in {}", c.name(), r->blocked_on);
        } else if (&c == detail::tls_core) {
            line = fmt::format("{}: running its scalar code, issuing nothing more since {}", c.name(),
                               last_text);
        } else {
            line = fmt::format("{}: ready to go on after {}", c.name(), last_text);
        }
        for (int s = 0; s < kPipeSlots; ++s) {
            const auto& q = st.pipes[static_cast<size_t>(s)];
            if (q.queue.empty()) continue;
            const Instr& head = *q.queue.front();
            line += fmt::format("; pipe {} holds {} instruction(s), first #{} {} (issued at {})",
                                pipe_name(slot_pipe(s)), q.queue.size(), head.id, head.op, head.site.str());
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

}  // namespace evg::hw
