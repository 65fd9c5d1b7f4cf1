// The cycle model's tables (docs/cycle-model.md lists them with their sources in prose).
//
// AtlasA2 figures come from two public sources: the PTO-ISA cost model (the `pto-isa` repository of CANN,
// include/pto/costmodel: its a2a3 bandwidth table, in GiB/s at a 1.85 GHz clock, converted here to bytes per
// cycle, and its per-instruction vector cycle profiles, startup + slope x repeats) and the AscendC
// documentation as summarised in docs/hardware-model.md §10 (256 B per repeat, cube fractal rates,
// MTE1/Fixpipe rates). Where neither gives a number, the entry says `assumed` and why.
#include "evg/hw/cost_table.hpp"

#include <algorithm>

namespace evg::hw {

namespace {

constexpr std::string_view kPtoBw = "PTO-ISA a2a3 bandwidth table (GiB/s at 1.85 GHz, as bytes/cycle)";
constexpr std::string_view kPtoVec = "PTO-ISA a2a3 vector cycle profile";
constexpr std::string_view kDocRates =
    "AscendC docs, cube/MTE1/Fixpipe theoretical rates (docs/hardware-model.md §10)";
constexpr std::string_view kGmLatency =
    "not published; the AscendC guide says a GM copy reaches its best bandwidth from 16 KB: 32 cycles is "
    "about "
    "10% of a 16 KB GM->UB copy at 58.6 B/cycle";
constexpr std::string_view kNoLatency =
    "not published; on-chip paths are charged bandwidth only, as PTO-ISA does";
constexpr std::string_view kA2NoPath = "no such path on AtlasA2 (never used); the Ascend950 figure";
constexpr std::string_view kAs950Same =
    "not published for Ascend950; the AtlasA2 figure in bytes per cycle (assumption)";

constexpr PathCost bw(double b, std::string_view src, bool assumed, double latency, std::string_view lsrc,
                      bool lassumed = true) {
    return PathCost{{b, src, assumed}, {latency, lsrc, lassumed}};
}

// clang-format off
constexpr VectorCost kA2Vector[] = {
    // op            f16 start/rep     f32 start/rep    int start/rep
    {"Add",          5.93, 2.07,       5.93, 2.07,      4.99, 2.00,  kPtoVec, false},
    {"Sub",          5.93, 2.07,       5.94, 2.06,      4.99, 2.00,  kPtoVec, false},
    {"Mul",          6.87, 2.13,       6.87, 2.13,      6.11, 2.00,  kPtoVec, false},
    {"Div",          13, 8,            13, 4,           13, 4,       kPtoVec, false},
    {"Max",          4, 2,             4, 2,            4.99, 2.00,  kPtoVec, false},
    {"Min",          4, 2,             4, 2,            4.99, 2.00,  kPtoVec, false},
    {"Adds",         6, 1,             6, 1,            5.01, 1.00,  kPtoVec, false},
    {"Muls",         7, 1,             7, 1,            6.05, 1.00,  kPtoVec, false},
    {"Maxs",         4, 1,             4, 1,            5.01, 1.00,  kPtoVec, false},
    {"Mins",         4, 1,             4, 1,            5.01, 1.00,  kPtoVec, false},
    {"LeakyRelu",    7, 1,             7, 1,            7, 1,        kPtoVec, false},
    {"Exp",          12.01, 3.99,      12, 2,           12, 2,       kPtoVec, false},
    {"Ln",           13.99, 4.01,      14, 2,           14, 2,       kPtoVec, false},
    {"Abs",          4, 1,             4, 1,            4, 1,        kPtoVec, false},
    {"Relu",         4, 1,             4, 1,            4, 1,        kPtoVec, false},
    {"Sqrt",         13, 4,            13, 2,           13, 2,       kPtoVec, false},
    {"Rsqrt",        4.79, 1.06,       4.79, 1.06,      4.79, 1.06,  kPtoVec, false},
    {"Duplicate",    1, 1,             1, 1,            1, 1,        kPtoVec, false},
    {"Cast",         14, 2,            14, 2,           14, 2,
     "PTO-ISA a2a3 common vconv estimate (head 14, 2 per repeat)", false},
    {"ReduceSum",    23, 7,            20, 7,           20, 7,       "PTO-ISA a2a3 vcadd profile", false},
    {"ReduceMax",    9, 7,             8, 7,            8, 7,        "PTO-ISA a2a3 vcmax profile", false},
    {"ReduceMin",    9, 7,             8, 7,            8, 7,        "PTO-ISA a2a3 vcmin profile", false},
    {"Divs",         13, 8,            13, 4,           13, 4,
     "no profile; assumed as Div (a division per lane)", true},
    {"Reciprocal",   13, 8,            13, 4,           13, 4,
     "no profile; assumed as Div (a division per lane)", true},
    {"Prelu",        6.87, 2.13,       6.87, 2.13,      6.87, 2.13,
     "no profile; assumed as Mul (a multiply and a select per lane)", true},
    {"Silu",         38, 14,           38, 8,           38, 8,
     "no profile; assumed as the Muls, Exp, Adds and Div it is made of, one startup each", true},
    // The level-0-only instructions (mask and repeat form).
    {"And",          2.06, 2.0,        2.06, 2.0,       2.06, 2.0,   "PTO-ISA a2a3 vand profile", false},
    {"Or",           2.06, 2.0,        2.06, 2.0,       2.06, 2.0,   "PTO-ISA a2a3 vor profile", false},
    {"ShiftLeft",    6.05, 1.0,        6.05, 1.0,       6.05, 1.0,   "PTO-ISA a2a3 vshl profile", false},
    {"Axpy",         18, 2,            18, 2,           18, 2,       "PTO-ISA a2a3 vaxpy profile", false},
    {"MulAddDst",    11.1, 4.0,        11.1, 4.0,       11.1, 4.0,
     "PTO-ISA a2a3 vmla profile, accumulator aliased with the destination", false},
    {"Copy",         13, 1,            0.94, 1.06,      0.94, 1.06,  "PTO-ISA a2a3 vcopy profile", false},
    {"Brcb",         1, 1,             1, 1,            1, 1,        "PTO-ISA a2a3 vbrcb profile", false},
    {"BlockReduceSum", 15, 7,          12, 1,           12, 1,       "PTO-ISA a2a3 vcgadd profile", false},
    {"BlockReduceMax", 6, 7,           5, 1,            5, 1,        "PTO-ISA a2a3 vcgmax profile", false},
    {"BlockReduceMin", 6, 7,           5, 1,            5, 1,        "PTO-ISA a2a3 vcgmin profile", false},
    {"WholeReduceSum", 23, 7,          20, 7,           20, 7,       "PTO-ISA a2a3 vcadd profile", false},
    {"WholeReduceMax", 9, 7,           8, 7,            8, 7,        "PTO-ISA a2a3 vcmax profile", false},
    {"WholeReduceMin", 9, 7,           8, 7,            8, 7,        "PTO-ISA a2a3 vcmin profile", false},
    {"RepeatReduceSum", 23, 7,         20, 7,           20, 7,       "PTO-ISA a2a3 vcadd profile", false},
    {"Compare",      10, 2,            10, 2,           10, 2,
     "PTO-ISA a2a3 vcmpv GE/LE/NE profile; LT and GT profile at 3 + 1 per repeat, charged the same here (the "
     "table is per instruction, not per mode)", true},
    {"CompareScalar", 12, 1,           12, 1,           12, 1,
     "PTO-ISA a2a3 vcmpvs profile of every mode but EQ (3 + 1 per repeat), charged the same here", true},
    {"Select",       5, 2,             5, 2,            5, 2,        "PTO-ISA a2a3 vsel profile, mask in a tensor", false},
};
// clang-format on

constexpr CostTable kA2{
    ArchId::AtlasA2,
    {1.85, "PTO-ISA a2a3 main frequency (docs/hardware-model.md §4.2: about 1.8 GHz)", false},
    {
        bw(58.56, kPtoBw, false, 32, kGmLatency),   // GM->UB
        bw(78.35, kPtoBw, false, 32, kGmLatency),   // GM->L1
        bw(109.38, kPtoBw, false, 32, kGmLatency),  // UB->GM
        bw(18.57, kPtoBw, false, 32, kGmLatency),   // L1->GM
        bw(594.33, kPtoBw, false, 0, kNoLatency),   // UB->UB
        bw(40.63, kPtoBw, false, 32, kGmLatency),   // L0C->GM
        bw(74.29, kPtoBw, false, 0, kNoLatency),    // L0C->L1
        bw(128, kA2NoPath, true, 0, kNoLatency),    // L0C->UB
        bw(256, kDocRates, false, 0, kNoLatency),   // L1->L0A
        bw(128, kDocRates, false, 0, kNoLatency),   // L1->L0B
        bw(128, kA2NoPath, true, 0, kNoLatency),    // L1->UB
        bw(128, kA2NoPath, true, 0, kNoLatency),    // UB->L1
        bw(32, kDocRates, false, 0, kNoLatency),    // L1->BT
        bw(32, kDocRates, false, 0, kNoLatency),    // L1->FB
    },
    kA2Vector,
    {256, "AscendC docs: a repeat processes 256 bytes (docs/hardware-model.md §6.1)", false},
    {4096, "AscendC docs: 16x16x16 MACs per cycle for half/bfloat16", false},
    {1024, "AscendC docs: 16x16x4 MACs per cycle for float on 2201", false},
    {8192, "AscendC docs: 16x16x32 MACs per cycle for int8", false},
    {8, "not published; assumed a few cycles to start the cube", true},
    {1, "PTO-ISA a2a3: set_flag is a 1-cycle instruction", false},
    {1, "PTO-ISA a2a3: wait_flag is a 1-cycle instruction (plus the stall)", false},
    {16, "PTO-ISA a2a3: PIPE_V barrier drains the vector pipeline in 16 cycles", false},
    {1, "PTO-ISA charges nothing for a barrier with no vector work; 1 cycle here, like a flag (assumption)",
     true},
    {1, "PTO-ISA a2a3: ffts_cross_core_sync is a 1-cycle instruction", false},
    {32, "not published; assumed 32 cycles for the flag to reach the other core", true},
    {1,
     "not published; one instruction handed to a pipe queue per cycle (loop and address arithmetic of "
     "the scalar unit are not modelled)",
     true},
    {1, "not published; a scalar access that hits the data cache, 1 cycle", true},
};

// Ascend950: the public figures of docs/hardware-model.md §4.2 and §10 where there are any (clock, MTE1,
// L1<->UB, L0C->UB, cube float rate); everything else is the AtlasA2 figure, marked as an assumption.
constexpr std::string_view kAs950Doc =
    "AscendC docs, NPU architecture 3510 pages (docs/hardware-model.md §10)";

constexpr VectorCost as950(const VectorCost& a2) {
    VectorCost v = a2;
    v.source = "not published for Ascend950; the AtlasA2 profile (assumption)";
    v.assumed = true;
    return v;
}
constexpr auto make_950_vector() {
    std::array<VectorCost, std::size(kA2Vector)> out{};
    for (size_t i = 0; i < std::size(kA2Vector); ++i) out[i] = as950(kA2Vector[i]);
    return out;
}
constexpr auto k950Vector = make_950_vector();

constexpr CostTable k950{
    ArchId::Ascend950,
    {1.65, "docs/hardware-model.md §4.2: Ascend950 at about 1.65 GHz", false},
    {
        bw(58.56, kAs950Same, true, 32, kGmLatency),   // GM->UB
        bw(78.35, kAs950Same, true, 32, kGmLatency),   // GM->L1
        bw(109.38, kAs950Same, true, 32, kGmLatency),  // UB->GM
        bw(18.57, kAs950Same, true, 32, kGmLatency),   // L1->GM
        bw(594.33, kAs950Same, true, 0, kNoLatency),   // UB->UB
        bw(40.63, kAs950Same, true, 32, kGmLatency),   // L0C->GM
        bw(74.29, kAs950Same, true, 0, kNoLatency),    // L0C->L1
        bw(128, kAs950Doc, false, 0, kNoLatency),      // L0C->UB
        bw(256, kAs950Doc, false, 0, kNoLatency),      // L1->L0A
        bw(256, kAs950Doc, false, 0, kNoLatency),      // L1->L0B
        bw(128, kAs950Doc, false, 0, kNoLatency),      // L1->UB
        bw(128, kAs950Doc, false, 0, kNoLatency),      // UB->L1
        bw(32, kAs950Same, true, 0, kNoLatency),       // L1->BT
        bw(32, kAs950Same, true, 0, kNoLatency),       // L1->FB
    },
    k950Vector,
    {256, "Ascend950 spec: 256 bytes per beat (docs/hardware-model.md §6.1)", false},
    {4096, "AscendC docs: 16x16x16 MACs per cycle for half/bfloat16", false},
    {256, "AscendC docs: 16x16x1 MACs per cycle for float on 3510", false},
    {8192, "AscendC docs: 16x16x32 MACs per cycle for int8", false},
    {8, "not published; assumed a few cycles to start the cube", true},
    {1, "not published for Ascend950; the AtlasA2 figure (assumption)", true},
    {1, "not published for Ascend950; the AtlasA2 figure (assumption)", true},
    {16,
     "not published for Ascend950 (PIPE_V keeps order in hardware, Catlass still issues the barrier); the "
     "AtlasA2 figure (assumption)",
     true},
    {1, "as AtlasA2 (assumption)", true},
    {1, "not published for Ascend950; the AtlasA2 figure (assumption)", true},
    {32, "not published; assumed 32 cycles for the flag to reach the other core", true},
    {1, "not published; one instruction per cycle, as AtlasA2 (assumption)", true},
    {1, "not published; as AtlasA2 (assumption)", true},
};

}  // namespace

std::string_view data_path_name(DataPath p) {
    switch (p) {
        case DataPath::gm_to_ub:
            return "GM->UB";
        case DataPath::gm_to_l1:
            return "GM->L1";
        case DataPath::ub_to_gm:
            return "UB->GM";
        case DataPath::l1_to_gm:
            return "L1->GM";
        case DataPath::ub_to_ub:
            return "UB->UB";
        case DataPath::l0c_to_gm:
            return "L0C->GM";
        case DataPath::l0c_to_l1:
            return "L0C->L1";
        case DataPath::l0c_to_ub:
            return "L0C->UB";
        case DataPath::l1_to_l0a:
            return "L1->L0A";
        case DataPath::l1_to_l0b:
            return "L1->L0B";
        case DataPath::l1_to_ub:
            return "L1->UB";
        case DataPath::ub_to_l1:
            return "UB->L1";
        case DataPath::l1_to_bt:
            return "L1->BT";
        case DataPath::l1_to_fb:
            return "L1->FB";
    }
    return "?";
}

bool data_path_between(MemKind src, MemKind dst, DataPath& out) {
    struct Row {
        MemKind src, dst;
        DataPath path;
    };
    static constexpr Row kRows[] = {
        {MemKind::GM, MemKind::UB, DataPath::gm_to_ub},   {MemKind::GM, MemKind::L1, DataPath::gm_to_l1},
        {MemKind::UB, MemKind::GM, DataPath::ub_to_gm},   {MemKind::L1, MemKind::GM, DataPath::l1_to_gm},
        {MemKind::UB, MemKind::UB, DataPath::ub_to_ub},   {MemKind::L0C, MemKind::GM, DataPath::l0c_to_gm},
        {MemKind::L0C, MemKind::L1, DataPath::l0c_to_l1}, {MemKind::L0C, MemKind::UB, DataPath::l0c_to_ub},
        {MemKind::L1, MemKind::L0A, DataPath::l1_to_l0a}, {MemKind::L1, MemKind::L0B, DataPath::l1_to_l0b},
        {MemKind::L1, MemKind::UB, DataPath::l1_to_ub},   {MemKind::UB, MemKind::L1, DataPath::ub_to_l1},
        {MemKind::L1, MemKind::BT, DataPath::l1_to_bt},   {MemKind::L1, MemKind::FB, DataPath::l1_to_fb},
    };
    for (const Row& r : kRows)
        if (r.src == src && r.dst == dst) {
            out = r.path;
            return true;
        }
    return false;
}

const VectorCost* CostTable::vector_cost(std::string_view op) const {
    const std::string_view name = op.substr(0, op.find('<'));
    const auto it =
        std::find_if(vector.begin(), vector.end(), [&](const VectorCost& v) { return v.op == name; });
    return it == vector.end() ? nullptr : &*it;
}

const CostTable& cost_table(ArchId arch) {
    return arch == ArchId::AtlasA2 ? kA2 : k950;
}

}  // namespace evg::hw
