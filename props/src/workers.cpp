// The property runner's forked workers: each runs its share of the cases and reports through a pipe; the
// parent merges passes, coverage and tallies, and reports the lowest-numbered worker that failed.
//
// Processes, not threads: rapidcheck's generation context (rc::detail::ImplicitParam<...>::m_stack,
// ImplicitScope::m_scopes in rapidcheck/detail/ImplicitParam.h) is a set of plain static stacks, neither
// thread_local nor locked (the library has no thread-local symbol at all), and every `*gen` pushes and pops
// them: two threads drawing cases at once corrupt each other's. A forked worker has its own copy of all of
// it, and of the model's state. The parent must be single-threaded when it forks (gtest and the property
// binaries are).
//
// A worker writes to its pipe "p\n" per passing case, "f\n" at its first failure, and at the end
// "r <bytes>\n" followed by its Attempt as fields ("<key> <bytes>\n<value>\n").

#include <fmt/format.h>

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <string_view>
#include <vector>

#include "attempt.hpp"
#include "evg/props/progress_line.hpp"
#include "evg/props/regression.hpp"

namespace evg::props::detail {

namespace {

void put(std::string& out, std::string_view key, std::string_view value) {
    out += fmt::format("{} {}\n", key, value.size());
    out += value;
    out += '\n';
}

std::map<std::string, std::string> fields_of(std::string_view text) {
    std::map<std::string, std::string> f;
    while (!text.empty()) {
        const size_t sp = text.find(' '), eol = text.find('\n');
        if (sp == std::string_view::npos || eol == std::string_view::npos || sp > eol) break;
        const std::string key(text.substr(0, sp));
        const size_t n = std::stoul(std::string(text.substr(sp + 1, eol - sp - 1)));
        f[key] = std::string(text.substr(eol + 1, n));
        text.remove_prefix(std::min(text.size(), eol + 1 + n + 1));
    }
    return f;
}

void write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t w = ::write(fd, data.data(), data.size());
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;  // the parent is gone
        data.remove_prefix(static_cast<size_t>(w));
    }
}

std::string encode(const Attempt& a, const Coverage& cov, const std::string& name) {
    std::string f;
    put(f, "passed", std::to_string(a.passed));
    if (a.rc_failure) put(f, "rc_failure", *a.rc_failure);
    if (a.st.failed) {
        put(f, "tag", a.st.tag);
        put(f, "reason", a.st.reason);
        put(f, "steps", std::to_string(a.st.steps));
        put(f, "exhausted", a.st.exhausted ? "1" : "0");
        put(f, "shrink_seconds", fmt::format("{}", a.shrink_seconds));
        if (a.st.best) put(f, "case", to_text(*a.st.best, name));
        if (a.st.first) put(f, "first", to_text(*a.st.first, name));
    }
    if (!a.error.empty()) put(f, "error", a.error);
    put(f, "coverage", cov.to_text());
    std::string tallies;
    for (const auto& [k, n] : process_tallies()) tallies += fmt::format("{}\t{}\n", k, n);
    put(f, "tallies", tallies);
    return f;
}

Attempt decode(const std::map<std::string, std::string>& f) {
    Attempt a;
    const auto get = [&](const char* k) {
        const auto it = f.find(k);
        return it == f.end() ? std::string() : it->second;
    };
    a.passed = std::atoi(get("passed").c_str());
    if (f.count("rc_failure")) a.rc_failure = get("rc_failure");
    if (f.count("tag")) {
        a.st.failed = true;
        a.st.tag = get("tag");
        a.st.reason = get("reason");
        a.st.steps = std::atoi(get("steps").c_str());
        a.st.exhausted = get("exhausted") == "1";
        a.shrink_seconds = std::atof(get("shrink_seconds").c_str());
        if (f.count("case")) a.st.best = case_from_text(get("case"));
        if (f.count("first")) a.st.first = case_from_text(get("first"));
    }
    a.error = get("error");
    return a;
}

struct Worker {
    int index = 0;
    uint64_t seed = 0;
    int cases = 0;
    pid_t pid = -1;
    int fd = -1;
    std::string buffer;    // what came through the pipe and is not parsed yet
    int passed = 0;        // "p" lines so far
    bool failed = false;   // it sent "f"
    bool stopped = false;  // killed: a worker before it failed
    std::optional<std::map<std::string, std::string>> result;
};

// The worker's side: runs its share and writes to `fd`; never returns.
[[noreturn]] void run_worker(const std::string& name, const Property& property, const RunConfig& cfg,
                             const Worker& w, int fd) {
    int code = 0;
    try {
        process_tallies().clear();
        Coverage cov;
        Hooks hooks;
        hooks.on_pass = [fd](int) { write_all(fd, "p\n"); };
        hooks.on_first_failure = [fd] { write_all(fd, "f\n"); };
        const Attempt a = attempt(name, property, cfg, w.seed, w.cases, &cov, hooks);
        const std::string r = encode(a, cov, name);
        write_all(fd, fmt::format("r {}\n", r.size()) + r);
    } catch (const std::exception& e) {
        Attempt a;
        a.error = fmt::format("worker {} threw: {}", w.index, e.what());
        const std::string r = encode(a, Coverage{}, name);
        write_all(fd, fmt::format("r {}\n", r.size()) + r);
        code = 1;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    ::_exit(code);  // no atexit handlers, no gtest teardown: the parent reports
}

// Parses what a worker sent so far; true when it sent its first failure just now.
bool take_messages(Worker& w) {
    bool first_failure = false;
    while (!w.result) {
        if (w.buffer.starts_with("p\n")) {
            ++w.passed;
            w.buffer.erase(0, 2);
        } else if (w.buffer.starts_with("f\n")) {
            first_failure = !w.failed;
            w.failed = true;
            w.buffer.erase(0, 2);
        } else if (w.buffer.starts_with("r ")) {
            const size_t eol = w.buffer.find('\n');
            if (eol == std::string::npos) break;
            const size_t n = std::stoul(w.buffer.substr(2, eol - 2));
            if (w.buffer.size() < eol + 1 + n) break;
            w.result = fields_of(std::string_view(w.buffer).substr(eol + 1, n));
            w.buffer.clear();
        } else {
            break;
        }
    }
    return first_failure;
}

std::string how_it_ended(int status) {
    if (WIFSIGNALED(status))
        return fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    if (WIFEXITED(status)) return fmt::format("exit code {}", WEXITSTATUS(status));
    return "ended";
}

}  // namespace

Outcome check_in_workers(const std::string& name, const Property& property, const RunConfig& cfg,
                         Coverage* coverage, bool progress_lines) {
    const int n = std::min(cfg.jobs, cfg.cases);
    std::vector<Worker> workers(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) {
        Worker& w = workers[static_cast<size_t>(k)];
        w.index = k;
        w.seed = worker_seed(cfg.seed, k);
        w.cases = cfg.cases / n + (k < cfg.cases % n ? 1 : 0);
    }
    // Nothing buffered may be written twice (once by the parent, once by a worker that inherited it).
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    for (Worker& w : workers) {
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
        w.pid = ::fork();
        if (w.pid < 0) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
        if (w.pid == 0) {
            ::close(fds[0]);
            for (const Worker& other : workers)
                if (other.fd >= 0) ::close(other.fd);
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a parent killed by a time budget takes its workers along
            if (::getppid() != parent) ::_exit(1);
            run_worker(name, property, cfg, w, fds[1]);
        }
        ::close(fds[1]);
        w.fd = fds[0];
    }

    int passed = 0;  // over every worker
    while (true) {
        std::vector<pollfd> fds;
        std::vector<Worker*> polled;
        for (Worker& w : workers)
            if (w.fd >= 0) {
                fds.push_back({w.fd, POLLIN, 0});
                polled.push_back(&w);
            }
        if (fds.empty()) break;
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
        }
        for (size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].revents == 0) continue;
            Worker& w = *polled[i];
            char buf[65536];
            const ssize_t got = ::read(w.fd, buf, sizeof buf);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {  // the worker closed its end: it ended
                ::close(w.fd);
                w.fd = -1;
                continue;
            }
            w.buffer.append(buf, static_cast<size_t>(got));
            const int before = w.passed;
            if (take_messages(w)) {
                // The first failure by worker order wins: every later worker's result cannot be reported.
                for (Worker& later : workers)
                    if (later.index > w.index && later.fd >= 0 && !later.stopped) {
                        ::kill(later.pid, SIGKILL);
                        later.stopped = true;
                    }
            }
            for (int p = before; p < w.passed; ++p) {
                ++passed;
                if (cfg.progress) cfg.progress(passed, cfg.cases);
                if (progress_lines) std::fputs(progress_line(name, passed, cfg.cases).c_str(), stderr);
            }
        }
    }
    std::vector<int> status(workers.size(), 0);
    for (size_t k = 0; k < workers.size(); ++k)
        while (::waitpid(workers[k].pid, &status[k], 0) < 0 && errno == EINTR) {
        }

    // The lowest-numbered worker that failed (or ended without a result) is reported.
    Outcome out;
    std::map<std::string, long long> tallies;
    for (size_t k = 0; k < workers.size(); ++k) {
        const Worker& w = workers[k];
        if (w.stopped) continue;
        Attempt a;
        if (w.result) {
            a = decode(*w.result);
            const auto field = [&](const char* key) {
                const auto it = w.result->find(key);
                return it == w.result->end() ? std::string() : it->second;
            };
            if (coverage) coverage->merge(Coverage::from_text(field("coverage")));
            const std::string t = field("tallies");
            for (size_t at = 0; at < t.size();) {
                const size_t eol = std::min(t.find('\n', at), t.size());
                const std::string line = t.substr(at, eol - at);
                if (const size_t tab = line.rfind('\t'); tab != std::string::npos)
                    tallies[line.substr(0, tab)] += std::stoll(line.substr(tab + 1));
                at = eol + 1;
            }
        } else {
            a.error = fmt::format("worker {} of {} (seed {}, {} cases) ended without a result: {}", w.index,
                                  n, w.seed, w.cases, how_it_ended(status[k]));
        }
        if (a.rc_failure || a.st.failed || !a.error.empty()) {
            out = conclude(name, cfg, a, w.seed, w.cases, true);
            out.worker = w.index;
            break;
        }
    }
    out.passed = passed;
    out.tallies = std::move(tallies);
    if (out.ok) {
        out.seed = cfg.seed;
        out.cases = cfg.cases;
    }
    return out;
}

}  // namespace evg::props::detail
