#include "acl/acl.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "acl/catlass_checkout.hpp"
#include "acl/kernel_compiler.hpp"
#include "acl/program_env.hpp"
#include "evg/hw/checker.hpp"
#include "evg/hw/device.hpp"
#include "evg/hw/error.hpp"
#include "evg/hw/fault_watch.hpp"
#include "evg/hw/sync_mutation.hpp"
#include "evg/hw/trace_file.hpp"
#include "operands.hpp"

struct EvgAclStream {
    std::vector<evg::hw::Report> reports;  // since the last synchronisation
};

namespace {
thread_local std::string g_last_error;

// The variables' names come from their one table (acl/program_env.def).
using evg::acl::ProgramEnv;
constexpr auto env_name = evg::acl::program_env_name;

aclError fail(aclError code, std::string msg) {
    g_last_error = std::move(msg);
    return code;
}

// What the process has seen, for EVG_STRICT, EVG_TRACE_OUT and EVG_LIST_MUTATIONS.
struct ProcessState {
    bool strict = false;
    bool exit_hook = false;
    uint64_t launches = 0;
    uint64_t launches_with_findings = 0;
    uint64_t host_findings = 0;  // host reports with findings (uninit_to_host)
    evg::hw::Site launch_site;   // the user's line of the launch running now, if it is the user's
    std::string trace_out;       // EVG_TRACE_OUT: every launch's trace, for evgcheck run-program
    std::string list_mutations;  // EVG_LIST_MUTATIONS: every launch's sync mutation points, as text
    std::vector<std::string> report_jsons;  // every synchronised launch's report, for EVG_REPORT
    bool named_catlass = false;             // the Catlass line went ahead of the first report with findings
};
ProcessState& process() {
    static ProcessState p;
    return p;
}

void strict_exit() {
    const ProcessState& p = process();
    if (!p.strict || p.launches_with_findings + p.host_findings == 0) return;
    std::fflush(stdout);
    std::fprintf(
        stderr,
        "evgcheck: %s: %llu of %llu kernel launches and %llu host call(s) reported findings; exit status "
        "1\n",
        env_name(ProgramEnv::strict), static_cast<unsigned long long>(p.launches_with_findings),
        static_cast<unsigned long long>(p.launches), static_cast<unsigned long long>(p.host_findings));
    std::fflush(stderr);
    std::_Exit(1);
}

// Applies EVG_SCHEDULER, EVG_SEED, EVG_CHECK, EVG_FP, EVG_MUTATE and EVG_STRICT to the process-wide device
// and the process. An empty string: everything understood; otherwise the message naming the variable and what
// it accepts.
std::string apply_environment() {
    auto& cfg = evg::hw::device().config();
    if (const char* s = std::getenv(env_name(ProgramEnv::scheduler)); s && *s) {
        const std::string v(s);
        if (v == "in_order") {
            cfg.scheduler = evg::hw::SchedulerKind::in_order;
        } else if (v == "adversarial") {
            cfg.scheduler = evg::hw::SchedulerKind::adversarial;
        } else {
            return fmt::format("{}='{}': expected in_order or adversarial", env_name(ProgramEnv::scheduler),
                               v);
        }
    }
    if (const char* s = std::getenv(env_name(ProgramEnv::seed)); s && *s) {
        char* end = nullptr;
        errno = 0;
        const unsigned long long seed = std::strtoull(s, &end, 10);
        if (errno != 0 || *end != '\0' || *s == '-')
            return fmt::format("{}='{}': expected a decimal integer from 0 to 18446744073709551615",
                               env_name(ProgramEnv::seed), s);
        cfg.seed = seed;
    }
    if (const char* s = std::getenv(env_name(ProgramEnv::check)); s && *s) {
        try {
            evg::hw::enable_checks(cfg.checks, s);
        } catch (const evg::Error& e) {
            return fmt::format("{}='{}': {}", env_name(ProgramEnv::check), s, e.what());
        }
    }
    static_assert(std::string_view(evg::acl::program_env_name(ProgramEnv::fp)) == evg::hw::kFpEnvName);
    if (const char* s = std::getenv(env_name(ProgramEnv::fp)); s && *s) {
        try {
            evg::hw::set_process_fp(s);
        } catch (const evg::Error& e) {
            return fmt::format("{}='{}': {}", env_name(ProgramEnv::fp), s, e.what());
        }
    }
    if (const char* s = std::getenv(env_name(ProgramEnv::mutate)); s && *s) {
        try {
            cfg.mutations = evg::hw::parse_sync_mutations(s);
        } catch (const evg::Error& e) {
            return fmt::format("{}='{}': {}", env_name(ProgramEnv::mutate), s, e.what());
        }
    }
    // The files of EVG_TRACE_OUT and EVG_LIST_MUTATIONS need the launch's trace (with its accesses, which the
    // cycle model times).
    for (const auto& [name, field] :
         {std::pair{env_name(ProgramEnv::trace_out), &ProcessState::trace_out},
          std::pair{env_name(ProgramEnv::list_mutations), &ProcessState::list_mutations}}) {
        const char* s = std::getenv(name);
        if (!s || !*s) continue;
        process().*field = s;
        cfg.keep_trace = true;
        if (field == &ProcessState::trace_out) cfg.trace_accesses = true;
    }
    if (const char* s = std::getenv(env_name(ProgramEnv::strict)); s && *s) {
        const std::string v(s);
        if (v != "0" && v != "1")
            return fmt::format("{}='{}': expected 0 or 1", env_name(ProgramEnv::strict), v);
        process().strict = v == "1";
        if (process().strict && !process().exit_hook) {
            process().exit_hook = std::atexit(strict_exit) == 0;
        }
    }
    return {};
}
}  // namespace

namespace {
// The program's Catlass checkout to EVG_ABOUT, when set: after the first launch. An empty string, or the
// message of a failure.
std::string write_about() {
    const char* about = std::getenv(env_name(ProgramEnv::about));
    if (!about || !*about) return {};
    const auto& catlass = evg::acl::program_catlass();
    std::ofstream out(about, std::ios::binary | std::ios::trunc);
    out << "{\"catlass\": " << (catlass ? catlass->json() : std::string("null"))
        << ", \"kernel_compilers\": " << evg::acl::kernel_compilers_json() << "}\n";
    if (!out) return fmt::format("{}='{}': cannot write the file", env_name(ProgramEnv::about), about);
    return {};
}

// A report with findings goes to stderr; the first one a program prints says which Catlass it was found in.
void print_findings(const evg::hw::Report& r) {
    if (const auto& catlass = evg::acl::program_catlass(); catlass && !process().named_catlass) {
        process().named_catlass = true;
        std::fprintf(stderr, "evgcheck: Catlass %s\n", catlass->describe().c_str());
        if (const std::string compilers = evg::acl::describe_kernel_compilers(); !compilers.empty())
            std::fprintf(stderr, "evgcheck: kernel code built by %s\n", compilers.c_str());
    }
    std::fputs(r.text().c_str(), stderr);
}

// Where EVG_REPORT says the reports go; empty when it is not set.
std::string_view report_file() {
    const char* path = std::getenv(env_name(ProgramEnv::report));
    return path ? std::string_view(path) : std::string_view();
}

// Keeps report `r` for EVG_REPORT, when it is set: a process that writes no report file keeps none (a
// property run launches tens of thousands of kernels in one process, each report a few kilobytes of JSON).
void keep_for_report_file(const evg::hw::Report& r) {
    if (!report_file().empty()) process().report_jsons.push_back(r.json());
}

// EVG_REPORT holds every launch of the process synchronised while it was set, in launch order.
void write_report_file() {
    const std::vector<std::string>& reports = process().report_jsons;
    if (const std::string_view path = report_file(); !path.empty()) {
        std::ofstream out{std::string(path)};
        out << "[";
        for (size_t i = 0; i < reports.size(); ++i) out << (i ? ",\n" : "") << reports[i];
        out << "]\n";
    }
}

// A launch a fault in the kernel's code ended (fault_watch.hpp): told as a synchronised launch is, just
// before the process ends by the signal.
void fault_sink(const evg::hw::Report& report) {
    evg::hw::Report r = report;
    if (process().launch_site.line) r.set_launch_site(process().launch_site);
    std::fflush(stdout);
    print_findings(r);
    std::fflush(stderr);
    keep_for_report_file(r);
    write_report_file();
    if (process().launches == 0) (void)write_about();  // the launch that faulted was the first
}

// A launch a stop signal ended (run-program's --timeout): the first launch's EVG_ABOUT, which it did not
// reach.
void stop_sink() {
    if (process().launches == 0) (void)write_about();
}
}  // namespace

const char* aclGetRecentErrMsg() {
    return g_last_error.c_str();
}

// A bad environment value fails the call; it is also printed once, because a program's own error macro
// usually prints only the code.
static aclError bad_environment(const std::string& where, const std::string& why) {
    static std::string printed;
    if (printed != why) {
        std::fprintf(stderr, "evgcheck: %s\n", why.c_str());
        printed = why;
    }
    return fail(ACL_ERROR_INVALID_PARAM, where + ": " + why);
}

aclError aclInit(const char*) {
    if (std::string bad = apply_environment(); !bad.empty()) return bad_environment("aclInit", bad);
    return ACL_SUCCESS;
}
aclError aclFinalize() {
    return ACL_SUCCESS;
}
aclError aclrtSetDevice(int32_t deviceId) {
    if (deviceId < 0)
        return fail(ACL_ERROR_INVALID_PARAM, fmt::format("aclrtSetDevice: device id {} < 0", deviceId));
    return ACL_SUCCESS;
}
aclError aclrtResetDevice(int32_t) {
    return ACL_SUCCESS;
}

namespace {
// The variable an aclrtMalloc call stores its pointer in, from the call's first argument as its line writes
// it: `(void **)&deviceX`, `reinterpret_cast<void **>(&deviceX)` and `&deviceX` give deviceX. Empty when the
// argument takes no address (a pointer passed on) or the line cannot be read.
std::string malloc_variable(const evg::hw::Site& site) {
    const std::string arg = evg::hw::call_argument_text(site, "aclrtMalloc", 0);
    const size_t amp = arg.rfind('&');
    if (amp == std::string::npos) return {};
    std::string v = arg.substr(amp + 1);
    while (!v.empty() && (v.back() == ')' || v.back() == ' ')) v.pop_back();
    while (!v.empty() && (v.front() == '(' || v.front() == ' ')) v.erase(0, 1);
    if (v.empty() || !(std::isalpha(static_cast<unsigned char>(v[0])) || v[0] == '_')) return {};
    for (char c : v)
        if (!std::isalnum(static_cast<unsigned char>(c)) &&
            std::string_view("_.[]->:").find(c) == std::string_view::npos)
            return {};
    return v;
}
}  // namespace

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy, evg::hw::Site site) {
    if (!devPtr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is null");
    try {
        std::string name = malloc_variable(site);
        if (name.empty()) name = fmt::format("the GM buffer of {}", site.str());
        *devPtr =
            evg::hw::device().malloc(size, std::move(name), fmt::format("aclrtMalloc at {}", site.str()));
    } catch (const evg::Error& e) {
        *devPtr = nullptr;
        return fail(ACL_ERROR_BAD_ALLOC, e.what());
    }
    return ACL_SUCCESS;
}

aclError aclrtFree(void* devPtr) {
    if (!evg::hw::device().free(devPtr))
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: pointer is not the base of a live GM allocation");
    return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    if (!hostPtr) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is null");
    *hostPtr = std::malloc(size ? size : 1);
    return *hostPtr ? ACL_SUCCESS : fail(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: out of host memory");
}
aclError aclrtFreeHost(void* hostPtr) {
    std::free(hostPtr);
    return ACL_SUCCESS;
}

namespace {
// The finding of a device-to-host copy of bytes nobody wrote: a kernel that left part of its output unstored
// is otherwise seen only by the program's own compare, if it has one.
void check_copied_out(const void* src, size_t count, const evg::hw::Site& site) {
    auto& dev = evg::hw::device();
    if (!dev.config().checks.uninit) return;  // without it, kernel stores do not keep GM's written-shadow
    const auto r = dev.find(src);
    if (!r || !r->mem->contains(r->offset, count)) return;  // the copy fails, naming the buffer
    const evg::hw::Memory& m = *r->mem;
    const std::optional<AscendC::detail::UnwrittenSpan> span =
        AscendC::detail::unwritten_span(m, r->offset, count);
    if (!span) return;
    const uint64_t first = span->first, last = span->end - 1, unwritten = span->count;
    evg::hw::Report rep;
    rep.arch = "host";
    rep.block_dim = 0;
    evg::hw::Location l = evg::hw::location_at(0, -1, "", std::nullopt, "aclrtMemcpy device-to-host", site);
    l.memory = m.name();
    l.begin = static_cast<uint64_t>(first);
    l.end = last + 1;
    l.access = "read";
    rep.violations.push_back(
        {evg::hw::ViolationKind::uninit_to_host,
         evg::hw::Severity::error,
         fmt::format(
             "aclrtMemcpy copies {} byte(s) of {} to the host that hold no written value (no host copy wrote "
             "them, and no kernel stored a written value there): of its bytes [{}, {}), those in [{}, {}), "
             "the "
             "first at byte {}. A kernel left part of its output unstored, or stored never-written data "
             "(reported "
             "at its store), or the host reads more than the kernels write",
             unwritten, m.name(), r->offset, r->offset + count, first, last + 1, first),
         {l},
         1});
    rep.buffers.push_back({m.name(), m.size(), m.origin()});
    rep.set_launch_site(site);  // the copy's own line heads it
    ++process().host_findings;
    print_findings(rep);
    keep_for_report_file(rep);
    write_report_file();
}
}  // namespace

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                     evg::hw::Site site) {
    if (count > destMax)
        return fail(ACL_ERROR_INVALID_PARAM,
                    fmt::format("aclrtMemcpy: count {} exceeds destMax {}", count, destMax));
    if (count == 0) return ACL_SUCCESS;
    if (!dst || !src) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: null pointer");
    try {
        auto& dev = evg::hw::device();
        switch (kind) {
            case ACL_MEMCPY_HOST_TO_HOST:
                std::memmove(dst, src, count);
                break;
            case ACL_MEMCPY_HOST_TO_DEVICE:
                dev.copy_to_device(dst, src, count);
                break;
            case ACL_MEMCPY_DEVICE_TO_HOST:
                check_copied_out(src, count, site);
                dev.copy_to_host(dst, src, count);
                break;
            case ACL_MEMCPY_DEVICE_TO_DEVICE: {
                std::vector<uint8_t> tmp(count);
                dev.copy_to_host(tmp.data(), src, count);
                dev.copy_to_device(dst, tmp.data(), count);
                break;
            }
            default:
                return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: unknown copy kind");
        }
    } catch (const evg::Error& e) {
        return fail(ACL_ERROR_INVALID_PARAM, e.what());
    }
    return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    if (count > maxCount) return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count exceeds maxCount");
    std::vector<uint8_t> tmp(count, static_cast<uint8_t>(value));
    try {
        evg::hw::device().copy_to_device(devPtr, tmp.data(), count);
    } catch (const evg::Error& e) {
        return fail(ACL_ERROR_INVALID_PARAM, e.what());
    }
    return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream* stream) {
    if (!stream) return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
    *stream = new EvgAclStream;
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    delete stream;
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    if (!stream) return fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream: stream is null");
    bool clean = true;
    for (const evg::hw::Report& r : stream->reports) {
        if (!r.clean()) {
            clean = false;
            print_findings(r);
        }
        keep_for_report_file(r);
    }
    if (!stream->reports.empty()) write_report_file();
    stream->reports.clear();
    if (!clean) return fail(ACL_ERROR_RT_KERNEL_CHECK, "a kernel launch on this stream reported violations");
    return ACL_SUCCESS;
}

namespace {
// After a launch: its trace to EVG_TRACE_OUT and its mutation points to EVG_LIST_MUTATIONS, when set (the
// first launch of the process starts each file, later ones append), and after the first launch the program's
// Catlass checkout to EVG_ABOUT. An empty string, or the message of a failure.
std::string write_launch_files(evg::hw::ArchId arch, int block_dim, evg::hw::KernelType type) {
    ProcessState& p = process();
    const bool first = p.launches == 1;
    const auto mode = first ? std::ios::binary | std::ios::trunc : std::ios::binary | std::ios::app;
    if (first)
        if (std::string bad = write_about(); !bad.empty()) return bad;
    const evg::hw::Trace& trace = evg::hw::device().last_trace();
    if (!p.trace_out.empty()) {
        std::ofstream out(p.trace_out, mode);
        if (first) evg::hw::write_trace_file_header(out);
        evg::hw::write_launch_record(out, {arch, block_dim, type}, trace,
                                     evg::hw::device().last_report().node_labels);
        if (!out)
            return fmt::format("{}='{}': cannot write the file", env_name(ProgramEnv::trace_out),
                               p.trace_out);
    }
    if (!p.list_mutations.empty()) {
        std::ofstream out(p.list_mutations, mode);
        out << "# launch " << p.launches << ": " << evg::hw::arch_name(arch) << ", " << block_dim
            << " block(s)\n";
        for (const evg::hw::SyncMutation& m : evg::hw::mutation_points(trace, arch, type, block_dim))
            out << evg::hw::to_string(m) << "\n";
        if (!out)
            return fmt::format("{}='{}': cannot write the file", env_name(ProgramEnv::list_mutations),
                               p.list_mutations);
    }
    return {};
}
}  // namespace

namespace evg::acl {
aclError launch(aclrtStream stream, uint32_t block_dim, evg::hw::KernelType type,
                const std::function<void()>& kernel, evg::hw::Site site) {
    return launch(stream, block_dim, type, kernel, evg::hw::device().config().arch, site);
}

aclError launch(aclrtStream stream, uint32_t block_dim, evg::hw::KernelType type,
                const std::function<void()>& kernel, evg::hw::ArchId arch, evg::hw::Site site) {
    if (!stream) return fail(ACL_ERROR_INVALID_PARAM, "kernel launch: stream is null");
    if (std::string bad = apply_environment(); !bad.empty()) return bad_environment("kernel launch", bad);
    evg::hw::set_fault_sink(fault_sink);
    evg::hw::set_stop_sink(stop_sink);
    // A launch from the user's code (not from evgcheck's or Catlass's own) heads the findings with its line.
    const evg::hw::SiteOwner owner = evg::hw::site_owner(site);
    const bool users = owner == evg::hw::SiteOwner::user || owner == evg::hw::SiteOwner::unknown;
    process().launch_site = users ? site : evg::hw::Site{};
    // Call chains (call_chain.hpp), in a program built with evgcheck_use_catlass (which names its Catlass
    // checkout), for what reads them: set_launch_site (below: a user's launch, whose findings name the user's
    // line behind Catlass's) and the checker node-slots. Any other launch (evgcheck's harnesses, the upstream
    // corpus and `check --catlass-root`) skips the stack walk of every instruction: two thirds of a corpus
    // run's time (callgrind, BM_UpstreamCorpusRunOnly).
    evg::hw::Config& cfg = evg::hw::device().config();
    cfg.call_chains = evg::acl::program_catlass_root().has_value() && (users || cfg.checks.node_slots);
    try {
        stream->reports.push_back(evg::hw::device().launch(static_cast<int>(block_dim), type, kernel, arch));
        if (users) stream->reports.back().set_launch_site(site);
        ++process().launches;
        if (!stream->reports.back().clean()) ++process().launches_with_findings;
    } catch (const evg::Error& e) {
        return fail(ACL_ERROR_INVALID_PARAM, e.what());
    }
    if (std::string bad = write_launch_files(arch, static_cast<int>(block_dim), type); !bad.empty())
        return fail(ACL_ERROR_INVALID_PARAM, "kernel launch: " + bad);
    return ACL_SUCCESS;
}
}  // namespace evg::acl
