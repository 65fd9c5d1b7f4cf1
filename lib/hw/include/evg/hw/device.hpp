// The simulated device as host code sees it: global memory allocations, the configuration, and launches.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "evg/hw/config.hpp"
#include "evg/hw/machine.hpp"
#include "evg/hw/memory.hpp"
#include "evg/hw/report.hpp"

namespace evg::hw {

class Device {
  public:
    explicit Device(Config cfg = {});
    ~Device();

    Config& config() { return cfg_; }
    const Config& config() const { return cfg_; }

    // GM allocation. Bytes start never-written. Throws HostError when bytes == 0 or host memory runs out.
    // `name` is how findings name the buffer (the ACL shim passes the variable aclrtMalloc's call stores the
    // pointer in); without one it is "GM#N", the allocation's number in this device. `origin` says where it
    // was allocated ("aclrtMalloc at my_evg.cpp:88"). A name a live allocation already has gets "#2", "#3".
    void* malloc(uint64_t bytes, std::string name = {}, std::string origin = {});
    // Returns false if `p` is not the base of a live allocation.
    bool free(void* p);
    void set_name(void* p, std::string name);

    struct GmRef {
        Memory* mem;
        uint64_t offset;
    };
    // The allocation holding byte `p`, if any.
    std::optional<GmRef> find(const void* p) const;
    // Where an address outside every allocation lies, from the nearest live allocations: "64 bytes past the
    // end of deviceX (26000 bytes, aclrtMalloc at my_evg.cpp:88)"; "outside every GM allocation (there is
    // none)" when there is none.
    std::string place_of_stray(const void* p) const;
    // The live GM buffers whose name appears in the report's findings, described (Report::buffers).
    void name_buffers(Report& r) const;

    // Host copies (aclrtMemcpy). Throw HostError naming the rule when a range is not inside one allocation.
    void copy_to_device(void* dst, const void* src, uint64_t bytes);
    void copy_to_host(void* dst, const void* src, uint64_t bytes);

    // Runs a kernel on `block_dim` blocks and returns its report (also kept as last_report()).
    const Report& launch(int block_dim, KernelType type, const std::function<void()>& kernel);
    // The same on a given chip, whatever config().arch says (a Catlass kernel runs on its ArchTag).
    const Report& launch(int block_dim, KernelType type, const std::function<void()>& kernel, ArchId arch);
    const Report& last_report() const { return last_; }
    // Instruction trace of the last launch (when config().keep_trace; empty otherwise).
    const Trace& last_trace() const { return last_trace_; }
    // Hands the last launch's trace over without copying it (last_trace() is empty afterwards).
    Trace take_last_trace() { return std::move(last_trace_); }
    // The most instruction records the last launch held at once (Machine::records_peak).
    uint64_t last_records_peak() const { return last_records_peak_; }
    // Every launch of this process on any device, and the instructions they issued: what the benchmarks
    // divide their counts (allocations per instruction, bench/README.md) by.
    struct ProcessLaunches {
        uint64_t launches = 0, instructions = 0;
    };
    static ProcessLaunches process_launches();

  private:
    Config cfg_;
    std::map<uintptr_t, std::unique_ptr<Memory>> gm_;  // by base address
    uint64_t alloc_count_ = 0;
    Report last_;
    Trace last_trace_;
    uint64_t last_records_peak_ = 0;
};

// The calling thread's device, used by the ACL shim and AscendC calls from host code (one per thread, so that
// independent runs can go on in parallel threads).
Device& device();
// Replaces the calling thread's device with a fresh one (all allocations are freed).
Device& reset_device(Config cfg = {});

}  // namespace evg::hw
