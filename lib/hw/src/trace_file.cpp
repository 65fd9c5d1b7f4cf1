#include "evg/hw/trace_file.hpp"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <istream>
#include <map>
#include <ostream>
#include <type_traits>

#include "evg/hw/error.hpp"

namespace evg::hw {

namespace {

static_assert(std::is_trivially_copyable_v<TraceEntry> && std::is_trivially_copyable_v<TraceAccess>,
              "trace records are copied to the file byte for byte");

constexpr char kMagic[8] = {'E', 'V', 'G', 'T', 'R', 'A', 'C', 'E'};
constexpr uint32_t kVersion = 2;             // 2: TraceEntry::after, cross_flag moved
constexpr uint32_t kLaunchTag = 0x4c4e4348;  // "LNCH"

template <class T>
void put(std::ostream& out, const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    out.write(bytes, sizeof(T));
}

void put_string(std::ostream& out, std::string_view s) {
    put(out, static_cast<uint32_t>(s.size()));
    out.write(s.data(), static_cast<std::streamsize>(s.size()));
}

// Reads from one file, naming it and the offset in every error.
class Reader {
  public:
    Reader(std::istream& in, const std::string& path) : in_(in), path_(path) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw HostError(fmt::format("trace file '{}': {}", path_, what));
    }

    template <class T>
    T get(const char* what) {
        static_assert(std::is_trivially_copyable_v<T>);
        char bytes[sizeof(T)];
        if (!in_.read(bytes, sizeof(T))) fail(fmt::format("cut short while reading {}", what));
        T v;
        std::memcpy(&v, bytes, sizeof(T));
        return v;
    }

    std::string get_string(const char* what) {
        const auto n = get<uint32_t>(what);
        if (n > (1u << 20)) fail(fmt::format("{} of {} bytes: not a trace file of this build", what, n));
        std::string s(n, '\0');
        if (n && !in_.read(s.data(), n)) fail(fmt::format("cut short while reading {}", what));
        return s;
    }

    bool at_end() { return in_.peek() == std::char_traits<char>::eof(); }

  private:
    std::istream& in_;
    const std::string& path_;
};

}  // namespace

void write_trace_file_header(std::ostream& out) {
    out.write(kMagic, sizeof(kMagic));
    put(out, kVersion);
    put(out, static_cast<uint32_t>(sizeof(TraceEntry)));
    put(out, static_cast<uint32_t>(sizeof(TraceAccess)));
}

void write_launch_record(std::ostream& out, const timing::Launch& launch, const Trace& trace,
                         std::span<const std::string> node_labels) {
    put(out, kLaunchTag);
    put(out, static_cast<uint8_t>(launch.arch));
    put(out, static_cast<uint8_t>(launch.type));
    put(out, static_cast<int32_t>(launch.block_dim));
    put(out, static_cast<uint32_t>(node_labels.size()));
    for (const std::string& l : node_labels) put_string(out, l);
    // The (op, site) pairs the trace uses, numbered in order of first use; entries carry those numbers.
    std::map<uint32_t, uint32_t> local;
    std::vector<uint32_t> order;
    for (const TraceEntry& e : trace)
        if (local.emplace(e.op_site, static_cast<uint32_t>(order.size())).second) order.push_back(e.op_site);
    put(out, static_cast<uint32_t>(order.size()));
    for (uint32_t id : order) {
        put_string(out, interned_op(id));
        const Site s = interned_site(id);
        put_string(out, s.file ? s.file : "");
        put(out, s.line);
    }
    put(out, static_cast<uint64_t>(trace.size()));
    for (size_t i = 0; i < trace.size(); ++i) {
        TraceEntry e = trace[i];
        e.op_site = local.at(e.op_site);
        put(out, e);
        const std::span<const TraceAccess> acc = trace.accesses(i);
        put(out, static_cast<uint32_t>(acc.size()));
        for (const TraceAccess& a : acc) put(out, a);
    }
}

std::vector<LaunchRecord> read_trace_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw HostError(fmt::format("trace file '{}': cannot open it", path));
    Reader rd(in, path);
    char magic[sizeof(kMagic)];
    if (!in.read(magic, sizeof(magic)) || std::memcmp(magic, kMagic, sizeof(kMagic)) != 0)
        rd.fail("not an evgcheck trace file (no EVGTRACE header)");
    const auto version = rd.get<uint32_t>("the version");
    const auto entry_size = rd.get<uint32_t>("the record size");
    const auto access_size = rd.get<uint32_t>("the access size");
    if (version != kVersion || entry_size != sizeof(TraceEntry) || access_size != sizeof(TraceAccess))
        rd.fail(
            fmt::format("written by another build of evgcheck (version {}, records of {} and {} bytes; this "
                        "build reads version {}, {} and {})",
                        version, entry_size, access_size, kVersion, sizeof(TraceEntry), sizeof(TraceAccess)));
    std::vector<LaunchRecord> out;
    while (!rd.at_end()) {
        if (rd.get<uint32_t>("a launch") != kLaunchTag)
            rd.fail(fmt::format("launch {} is damaged", out.size() + 1));
        LaunchRecord r;
        const auto arch = rd.get<uint8_t>("the arch");
        const auto type = rd.get<uint8_t>("the kernel type");
        if (arch > static_cast<uint8_t>(ArchId::Ascend950) ||
            type > static_cast<uint8_t>(KernelType::aic_only))
            rd.fail(fmt::format("launch {} names an unknown chip or kernel type", out.size() + 1));
        r.launch.arch = static_cast<ArchId>(arch);
        r.launch.type = static_cast<KernelType>(type);
        r.launch.block_dim = rd.get<int32_t>("the block count");
        const auto labels = rd.get<uint32_t>("the node labels");
        if (labels > (1u << 20)) rd.fail(fmt::format("launch {}: {} node labels", out.size() + 1, labels));
        r.node_labels.reserve(labels);
        for (uint32_t i = 0; i < labels; ++i) r.node_labels.push_back(rd.get_string("a node label"));
        const auto ops = rd.get<uint32_t>("the op table");
        if (ops > (1u << 24))
            rd.fail(fmt::format("launch {}: an op table of {} entries", out.size() + 1, ops));
        std::vector<uint32_t> interned;
        interned.reserve(ops);
        for (uint32_t i = 0; i < ops; ++i) {
            const std::string op = rd.get_string("an op name");
            const std::string file = rd.get_string("a source file");
            const auto line = rd.get<uint32_t>("a source line");
            interned.push_back(intern_op_site(op, Site{file.c_str(), line}));
        }
        const auto entries = rd.get<uint64_t>("the instruction count");
        std::vector<TraceAccess> acc;
        for (uint64_t i = 0; i < entries; ++i) {
            auto e = rd.get<TraceEntry>("an instruction");
            if (e.op_site >= interned.size()) rd.fail(fmt::format("instruction {} names no op", i + 1));
            e.op_site = interned[e.op_site];
            const auto n = rd.get<uint32_t>("an access count");
            if (n > (1u << 16)) rd.fail(fmt::format("instruction {}: {} accesses", i + 1, n));
            acc.clear();
            acc.reserve(n);
            for (uint32_t k = 0; k < n; ++k) acc.push_back(rd.get<TraceAccess>("an access"));
            r.trace.push_back(e, acc);
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace evg::hw
