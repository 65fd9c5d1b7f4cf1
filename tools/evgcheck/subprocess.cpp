#include "subprocess.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace evgcheck {

namespace {

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

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    // The child leads its own process group, so that a deadline stops it and whatever it started.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, program.c_str(), &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        throw std::runtime_error("cannot start '" + program + "': " + std::strerror(rc));
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
    if (WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
    }
    return result;
}

}  // namespace evgcheck
