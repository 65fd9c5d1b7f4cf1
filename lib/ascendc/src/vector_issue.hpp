// What the vector instruction files share (vector.cpp, vector_level0.cpp, vector_reduce.cpp): the dtype rule
// checks, the written-shadow propagation of a contiguous instruction, the mask a count form leaves, and the
// level-0 plan (mask, repeats, lane addresses, accesses).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ascendc/vector_level0.hpp"
#include "evg/hw/core.hpp"
#include "evg/hw/numeric/vector_rules.hpp"
#include "operands.hpp"

namespace AscendC::detail {

// Report an element type the instruction does not accept on this chip; false when they did.
bool check_table_dtype(evg::hw::Core& c, evg::hw::VectorOp op, evg::hw::DType t, Site site);
bool check_dtype(evg::hw::Core& c, VecOp op, evg::hw::DType t, Site site);

// Output lane i of n is written iff all of its input lanes were (contiguous operands).
void propagate_written(evg::hw::Memory* dm, uint64_t d,
                       std::initializer_list<std::pair<evg::hw::Memory*, uint64_t>> ins, uint64_t n,
                       uint32_t in_es, uint32_t out_es);

// Tells the checkers what a contiguous instruction's scan found (fp_scan.hpp): lane i's result at d + i x
// dt's size, its operands at a and b + i x st's size. Marks a born lane whose operand bytes were never
// written.
void tell_results(evg::hw::Core& c, const evg::hw::Instr& in, evg::hw::FpScan& scan, const Place& d,
                  evg::hw::DType dt, const Place* a, const Place* b, evg::hw::DType st, double scalar,
                  bool has_scalar);
// convert_element over count elements, each result tested as it is stored (scan: lane indices).
void convert_scanned(evg::hw::DType from, const uint8_t* s, uint32_t ti, evg::hw::DType to, uint8_t* d,
                     uint32_t to_, RoundMode m, uint64_t count, evg::hw::FpScan& scan);

// Every count form ends in normal mode with a full mask.
void count_form_leaves_mask(evg::hw::Core& c);

// The repeats and enabled lanes of one level-0 instruction, fixed when it is issued.
struct L0Plan {
    uint32_t lanes = 64;   // per repeat: 256 bytes of the widest operand
    uint64_t repeats = 0;  // 0: nothing to do
    bool counter = false;  // counter mode: the first `count` lanes over all repeats
    uint64_t count = 0;
    uint64_t low = 0, high = 0;  // normal mode: bit k enables lane k of every repeat
    bool enabled(uint64_t r, uint32_t k) const {
        if (counter) return r * lanes + k < count;
        return k < 64 ? ((low >> k) & 1) != 0 : ((high >> (k - 64)) & 1) != 0;
    }
};

// Applies the call's mask operand to the core's register (isSetMask) and reads the plan from the register.
// Reports bad_param (and returns nullopt) for a repeatTime outside [0, 255], a first-k mask outside
// [1, lanes] or a mask that enables nothing.
std::optional<L0Plan> plan_level0(evg::hw::Core& c, MaskArg mask, uint32_t wide_es, int64_t repeat_time,
                                  std::string_view name, Site site);

// The overlap rules of docs/hardware-model.md §6.2 (those vec_level0 applies) for a count form: `count`
// contiguous lanes of dst (element size dst_es) and of up to two sources (src_es), in repeats of 256 bytes of
// the wider type. A message naming the repeat and the bytes when they are broken.
std::optional<std::string> count_form_overlap(const Place& dst, uint32_t dst_es, const Place* src0,
                                              const Place* src1, uint32_t src_es, uint64_t count);

// Byte offset of lane k of repeat r of an operand (element size es, strides in 32-byte blocks) from its base.
inline uint64_t lane_offset(uint64_t r, uint32_t k, uint32_t es, uint64_t blk, uint64_t rep) {
    const uint64_t byte = uint64_t{k} * es;
    return (r * rep + (byte / 32) * blk) * 32 + byte % 32;
}

// Sorted, merged byte ranges [begin, end) relative to an operand's base.
struct Ranges {
    std::vector<std::pair<uint64_t, uint64_t>> r;
    void add(uint64_t b, uint64_t e);  // cheap when contiguous with the last range
    void normalise();                  // sort and merge
    uint64_t extent() const { return r.empty() ? 0 : r.back().second; }
};

// Resolves an operand whose accesses span `rs` (normalised) from its base: bounds and alignment as
// local_operand checks them; pushes the accesses onto `in` (several ranges for a strided operand).
std::optional<Place> level0_operand(evg::hw::Core& c, const LocalRef& ref, const Ranges& rs, bool write,
                                    evg::hw::Instr* in, OperandName what, Site site);
void push_accesses(evg::hw::Instr& in, const Place& p, const Ranges& rs, bool write);

}  // namespace AscendC::detail
