// Resolving AscendC operands to machine memory, with the memory checker's bounds and alignment rules.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ascendc/tensor.hpp"
#include "evg/hw/core.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/memory.hpp"

namespace AscendC::detail {

struct Place {
    evg::hw::Memory* mem;
    uint64_t off;
};

// An operand's name for messages: the instruction and the operand's role, e.g. "Add dst" ({"Add", "dst"}).
// Only put together when a message needs it (operands are resolved for every instruction).
struct OperandName {
    std::string_view op;
    const char* role = nullptr;
    OperandName(std::string_view op_, const char* role_ = nullptr) : op(op_), role(role_) {}
    OperandName(const std::string& op_, const char* role_ = nullptr) : op(op_), role(role_) {}
    OperandName(const char* op_, const char* role_ = nullptr) : op(op_), role(role_) {}
    std::string str() const {
        std::string s(op);
        if (role) s.append(" ").append(role);
        return s;
    }
};

std::optional<Place> local_operand(evg::hw::Core& c, const LocalRef& t, uint64_t bytes, OperandName what,
                                   Site site);
std::optional<Place> gm_operand(evg::hw::Core& c, const void* p, uint64_t bytes, uint32_t align,
                                OperandName what, Site site);

std::unique_ptr<evg::hw::Instr> new_instr(evg::hw::Pipe pipe, std::string_view op, Site site);

// A bad_param finding against instruction `name` at `site`: "<name>: <msg>".
void bad_param(evg::hw::Core& c, std::string_view name, const std::string& msg, Site site,
               evg::hw::Severity sev = evg::hw::Severity::error);

// The never-written bytes of [offset, offset + bytes) of `m`: how many, the first and one past the last;
// nullopt when every byte is written. One count for the loads a core notes and the host's device-to-host
// check.
struct UnwrittenSpan {
    uint64_t count = 0, first = 0, end = 0;
};
std::optional<UnwrittenSpan> unwritten_span(const evg::hw::Memory& m, uint64_t offset, uint64_t bytes);

// The cause an uninit finding about byte `byte` of `mem` on core `c` names first, from the core's loads of GM
// bytes nobody wrote (Core::note_uninit_load): "deviceX was never written where AIV 0 loaded it: ...; " when
// the byte came straight from such a load, "AIV 0 loaded never-written bytes of deviceX earlier ...: the
// likely source; " when the core made one, empty otherwise.
std::string uninit_cause(const evg::hw::Core& c, const evg::hw::Memory* mem, uint64_t byte);

// Copies bytes and their written-shadow. When the destination is GM, never-written source bytes are reported
// (uninit_to_gm) against instruction `in`; returns false if it reported.
bool copy_bytes(evg::hw::Instr& in, evg::hw::Memory* dst, uint64_t dst_off, evg::hw::Memory* src,
                uint64_t src_off, uint64_t bytes, bool reported_already);

// One element of a float type (half, bfloat16, float) widened to float, and a float narrowed back to nearest
// even.
float load_float(const uint8_t* p, evg::hw::DType t);
void store_float(uint8_t* p, evg::hw::DType t, float v);

// One GM atomic accumulation d = d (op) v in dtype t (SetAtomicAdd/Max/Min): float types combine in float and
// round once; integers combine exactly and saturate. NaN propagates through Max/Min.
void atomic_element(uint8_t* d, const uint8_t* v, evg::hw::DType t, evg::hw::AtomicOp op);

}  // namespace AscendC::detail
