#include "evg/process/subprocess.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace evg::process {

namespace {

// The process groups of the children running now (0: a free slot), read by the signal handlers: plain
// atomics, so that reading them is async-signal-safe. More children than slots at once (none of evgcheck's
// commands runs that many) are still stopped by PR_SET_PDEATHSIG when evgcheck dies.
std::array<std::atomic<pid_t>, 256> g_children{};

void remember_child(pid_t pid) {
    for (std::atomic<pid_t>& slot : g_children) {
        pid_t free = 0;
        if (slot.compare_exchange_strong(free, pid)) return;
    }
}
void forget_child(pid_t pid) {
    for (std::atomic<pid_t>& slot : g_children) {
        pid_t mine = pid;
        if (slot.compare_exchange_strong(mine, 0)) return;
    }
}

// A stop signal to evgcheck goes to every child's group (they are not in evgcheck's group, so a terminal's
// Ctrl-C does not reach them by itself), then ends evgcheck by the same signal.
extern "C" void on_stop_signal(int sig) {
    const int saved = errno;
    signal_children(sig);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    errno = saved;
}

// Installs on_stop_signal for SIGINT, SIGTERM and SIGHUP, once, leaving a signal evgcheck was started with
// ignored (nohup's SIGHUP) ignored.
void forward_stop_signals() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
            struct sigaction old {};
            if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
            struct sigaction act {};
            act.sa_handler = on_stop_signal;
            sigemptyset(&act.sa_mask);
            act.sa_flags = SA_RESTART;
            ::sigaction(sig, &act, nullptr);
        }
    });
}

// The child's failure to start: its errno to the parent, through `report`, and exit 127.
[[noreturn]] void child_failed(int report) {
    const int e = errno;
    const ssize_t ignored = ::write(report, &e, sizeof e);
    (void)ignored;
    ::_exit(127);
}

// The child's side of run_process, between fork and exec: only async-signal-safe calls (evgcheck may have
// threads). A failure is written to `report` as the errno, and the child ends with 127.
[[noreturn]] void exec_child(const char* program, char* const* argv, char* const* envp, int out, int report,
                             pid_t parent) {
    // Its own group, so that a deadline stops it and whatever it starts; SIGTERM when evgcheck dies (the
    // parent may have died before prctl: then at once).
    if (::setpgid(0, 0) != 0) child_failed(report);
    if (::prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) child_failed(report);
    if (::getppid() != parent) ::_exit(127);
    // The signals evgcheck handles go back to their defaults (exec keeps ignored ones ignored).
    for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGALRM}) ::signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    const int in = ::open("/dev/null", O_RDONLY);
    if (in < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(out, 2) < 0) child_failed(report);
    ::execve(program, argv, envp);
    child_failed(report);
}

// Stops the child's process group at its deadline: SIGTERM first, so that a build tool can stop what it
// started in process groups of its own (Ninja passes the signal on to every compiler it runs), then SIGKILL
// after two seconds if the child has not ended. The child is not reaped here (WNOWAIT): the caller collects
// its status.
void stop_group(pid_t pid) {
    ::kill(-pid, SIGTERM);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (std::chrono::steady_clock::now() < until) {
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == pid)
            return;
        ::usleep(20000);
    }
    ::kill(-pid, SIGKILL);
}

}  // namespace

void signal_children(int sig) noexcept {
    for (const std::atomic<pid_t>& slot : g_children)
        if (const pid_t pid = slot.load(); pid > 0) ::kill(-pid, sig);
}

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::map<std::string, std::string>& env,
                          std::chrono::steady_clock::time_point deadline,
                          const std::function<void(const std::string&)>& on_line) {
    std::vector<std::string> env_strings;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string entry = *e;
        const std::string key = entry.substr(0, entry.find('='));
        if (env.count(key) == 0) env_strings.push_back(entry);
    }
    for (const auto& [k, v] : env) env_strings.push_back(fmt::format("{}={}", k, v));
    std::vector<char*> envp;
    envp.reserve(env_strings.size() + 1);
    for (std::string& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> argv_strings{program};
    argv_strings.insert(argv_strings.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(argv_strings.size() + 1);
    for (std::string& s : argv_strings) argv.push_back(s.data());
    argv.push_back(nullptr);

    forward_stop_signals();
    int fds[2], report[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(report, O_CLOEXEC) != 0) {
        const int e = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        throw std::runtime_error(std::string("pipe: ") + std::strerror(e));
    }
    // Stop signals wait until the child is remembered (a signal in between would miss its group).
    sigset_t stops, before;
    sigemptyset(&stops);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, sig);
    ::pthread_sigmask(SIG_BLOCK, &stops, &before);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) exec_child(program.c_str(), argv.data(), envp.data(), fds[1], report[1], parent);
    const int fork_error = errno;
    if (pid > 0) {
        ::setpgid(pid, pid);  // also here, so that the group exists before a deadline or a signal needs it
        remember_child(pid);
    }
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    ::close(fds[1]);
    ::close(report[1]);
    if (pid < 0) {
        ::close(fds[0]);
        ::close(report[0]);
        throw std::runtime_error("cannot start '" + program + "': " + std::strerror(fork_error));
    }
    // The exec's outcome: the report pipe closes on a successful exec, or brings the errno of the failure.
    int exec_errno = 0;
    ssize_t got;
    while ((got = ::read(report[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
    }
    ::close(report[0]);
    if (got > 0) {
        ::close(fds[0]);
        int ignored = 0;
        while (::waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
        }
        forget_child(pid);
        throw std::runtime_error("cannot start '" + program + "': " + std::strerror(exec_errno));
    }

    ProcessResult result;
    std::string pending;
    char buf[8192];
    bool open = true;
    // After a stop at the deadline, what the child prints as it ends (where a model run was: fault_watch.hpp)
    // is still read, for as long as stop_group gives it.
    auto read_until = deadline;
    while (open) {
        const auto now = std::chrono::steady_clock::now();
        if (now >= read_until) {
            if (result.timed_out) break;
            stop_group(pid);
            result.timed_out = true;
            read_until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
            continue;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(read_until - now).count();
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 200)));
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            open = false;
            break;
        }
        result.output.append(buf, static_cast<size_t>(n));
        pending.append(buf, static_cast<size_t>(n));
        size_t nl;
        while ((nl = pending.find('\n')) != std::string::npos) {
            if (on_line) on_line(pending.substr(0, nl));
            pending.erase(0, nl + 1);
        }
    }
    ::close(fds[0]);
    if (!pending.empty() && on_line) on_line(pending);
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) break;
        if (!result.timed_out && std::chrono::steady_clock::now() >= deadline) {
            stop_group(pid);
            result.timed_out = true;
        }
        ::usleep(10000);
    }
    forget_child(pid);
    if (WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
    }
    return result;
}

}  // namespace evg::process
