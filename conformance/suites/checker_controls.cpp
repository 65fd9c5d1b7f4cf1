// Checker controls, a part of the hazard suite: for every kind of finding the machine reports
// (violation_kinds.def) and, for races, every direction and place, on each chip, a small AscendC kernel
// whose fault must give exactly that finding and whose fixed form must run clean (conformance/controls/,
// and the upstream faults of ascendc/samples/sync_hazards.hpp). So every run of the main job proves each
// checker alive: a checker that stops firing, or fires on the fix, turns its row red. A kind without a row
// for some chip (or a reason why no kernel can give it there) fails the build.
// Ids: Hazard/<Arch>/<kernel>[_fixed]/kernel/sample.
#include <fmt/format.h>

#include <optional>

#include "../controls/kernels.hpp"
#include "../src/catalogue.hpp"

namespace evg::conformance::detail {
namespace {

using controls::Runner;
using hw::ViolationKind;
using RS = RaceShape;

enum Chip : uint8_t { kA2 = 1, k950 = 2, kBoth = 3 };
constexpr Chip kChips[] = {kA2, k950};

constexpr graph::ArchId arch_of(Chip c) {
    return c == kA2 ? graph::ArchId::AtlasA2 : graph::ArchId::Ascend950;
}

struct Control {
    const char* kernel;  // the id's kernel part
    Runner run;
    std::optional<ViolationKind> kind;  // the finding the fault proves (none: an upstream fault that only
                                        // gives `also`) ...
    RaceShape shape;                    // ... with a race's direction and place
    uint8_t chips;                      // on these chips
    const char* also;  // what else the fault gives, '+'-joined (a deadlock's flag imbalance), or ""
    uint8_t clean_on;  // chips where the fault is none (the hardware orders it): the fault runs clean
};

template <const char* Name>
constexpr Runner sample() {
    return +[](const hw::Config& cfg, bool fault) {
        return AscendC::samples::run_sync_hazard(cfg, Name, fault);
    };
}
constexpr char kFixM[] = "fix_m_wait_dropped";
constexpr char kScalarPipe[] = "scalar_pipe_flag";
constexpr char kReverse16[] = "reverse_depth_16";
constexpr char kTileCopy[] = "tile_copy_view_shape";
constexpr char kComputeLength[] = "compute_length_unaligned";
constexpr char kEventId[] = "event_id_above_7";
constexpr char kMode4Flag[] = "mode4_aiv_flag_above_15";

namespace c = controls;
constexpr ViolationKind kRace = ViolationKind::race;

// Our own kernels first (one per finding, direction and place), then upstream's faults (sync_hazards.hpp).
constexpr Control kControls[] = {
    {"race_raw_v_v", c::race_raw_v_v, kRace, RS::raw_same_pipe, kA2, "", k950},
    {"race_war_v_v", c::race_war_v_v, kRace, RS::war_same_pipe, kA2, "", k950},
    // (An accumulating Mmad also rewrites the C it reads: the WAW of the pair is folded into its RAW.)
    {"race_raw_m_m", c::race_raw_m_m, kRace, RS::raw_same_pipe, kBoth, "", 0},
    // From 10 fractals on, Ascend950's M pipe orders the accumulation itself (rule R3,
    // mmad_accumulate_ordered)
    // ...
    {"race_raw_m_m_16_fractals", c::race_raw_m_m_16_fractals, kRace, RS::raw_same_pipe, kA2, "", k950},
    // ... and only the accumulation: an Mmad that starts the region again still needs the barrier.
    {"race_waw_m_m_overwrite", c::race_waw_m_m_overwrite, kRace, RS::waw_same_pipe, kBoth, "", 0},
    {"race_waw_mte3_mte3", c::race_waw_mte3_mte3, kRace, RS::waw_same_pipe, kBoth, "", 0},
    {"race_raw_mte2_v", c::race_raw_mte2_v, kRace, RS::raw_cross_pipe, kBoth, "", 0},
    {"race_war_v_mte2", c::race_war_v_mte2, kRace, RS::war_cross_pipe, kBoth, "", 0},
    {"race_waw_v_mte2", c::race_waw_v_mte2, kRace, RS::waw_cross_pipe, kBoth, "", 0},
    {"race_raw_cross_core", c::race_raw_cross_core, kRace, RS::raw_cross_core, kBoth, "", 0},
    {"race_war_cross_core", c::race_war_cross_core, kRace, RS::war_cross_core, kBoth, "", 0},
    {"race_waw_cross_core", c::race_waw_cross_core, kRace, RS::waw_cross_core, kBoth, "", 0},
    {"deadlock_wait_without_set", c::deadlock_wait_without_set, ViolationKind::deadlock, RS::none, kBoth,
     "flag-balance", 0},
    {"flag_set_twice", c::flag_set_twice, ViolationKind::flag_set_twice, RS::none, kBoth, "", 0},
    {"uninit_event_id", c::uninit_event_id, ViolationKind::uninit_value, RS::none, kBoth, "", 0},
    {"flag_left_set", c::flag_left_set, ViolationKind::flag_left_set, RS::none, kBoth, "flag-balance", 0},
    {"counter_left_nonzero", c::counter_left_nonzero, ViolationKind::counter_left_nonzero, RS::none, kBoth,
     "", 0},
    {"cross_core_two_pipe_sets", c::cross_core_two_pipe_sets, ViolationKind::cross_core_ambiguous, RS::none,
     kBoth, "", 0},
    {"atomic_left_on", c::atomic_left_on, ViolationKind::atomic_left_on, RS::none, kBoth, "", 0},
    {"cross_core_flag_id_above_15", c::cross_core_flag_id_above_15, ViolationKind::illegal_cross_core,
     RS::none, kBoth, "", 0},
    {"sync_all_unmodelled", c::sync_all_unmodelled, ViolationKind::unmodelled_call, RS::none, kBoth, "", 0},
    {"ub_out_of_bounds", c::ub_out_of_bounds, ViolationKind::out_of_bounds, RS::none, kBoth, "", 0},
    {"gm_out_of_bounds", c::gm_out_of_bounds, ViolationKind::out_of_bounds, RS::none, kBoth, "", 0},
    {"ub_misaligned", c::ub_misaligned, ViolationKind::misaligned, RS::none, kBoth, "", 0},
    {"ub_carve_overflow", c::ub_carve_overflow, ViolationKind::ub_overflow, RS::none, kBoth, "", 0},
    {"uninit_store", c::uninit_store, ViolationKind::uninit_to_gm, RS::none, kBoth, "", 0},
    {"uninit_scalar_read", c::uninit_scalar_read, ViolationKind::uninit_read, RS::none, kBoth, "", 0},
    {"cast_mode_illegal", c::cast_mode_illegal, ViolationKind::illegal_cast, RS::none, kBoth, "", 0},
    {"exp_of_int32", c::exp_of_int32, ViolationKind::illegal_dtype, RS::none, kBoth, "", 0},
    {"copy_pad_block_len", c::copy_pad_block_len, ViolationKind::bad_param, RS::none, kBoth, "", 0},
    {"vector_overlap", c::vector_overlap, ViolationKind::operand_overlap, RS::none, kBoth, "", 0},
    {"null_gm_buffer", c::null_gm_buffer, ViolationKind::null_pointer, RS::none, kBoth, "", 0},
    {"kernel_throws", c::kernel_throws, ViolationKind::kernel_exception, RS::none, kBoth, "", 0},
    {"dcache_not_cleaned", c::dcache_not_cleaned, ViolationKind::dcache_not_clean, RS::none, kBoth, "", 0},
    {"redundant_wait", c::redundant_wait, ViolationKind::redundant_wait, RS::none, kBoth, "", 0},
    {"portable_v_order", c::portable_v_order, ViolationKind::v_order_unportable, RS::none, k950, "", 0},
    {"node_slot_overrun", c::node_slot_overrun, ViolationKind::node_slot_overrun, RS::none, kBoth,
     "wrong-value", 0},
    {"exp_overflows_half", c::exp_overflows_half, ViolationKind::fp_inf_born, RS::none, kBoth, "", 0},
    {"zero_over_zero", c::zero_over_zero, ViolationKind::fp_nan_born, RS::none, kBoth, "", 0},
    // Upstream's faults.
    // Without the FIX_M wait the second Mmad is ordered after nothing of the first tile: it accumulates onto
    // the first Mmad's C unordered (RAW on M), overwrites C while the Fixpipe reads it (WAR), and sets M_FIX
    // while the first set may still be pending; the FIX_M set is left over.
    {kFixM, sample<kFixM>(), kRace, RS::war_cross_pipe, kBoth,
     "race:RAW/same-pipe+flag_set_twice+flag_left_set+flag-balance", 0},
    {kScalarPipe, sample<kScalarPipe>(), kRace, RS::raw_cross_pipe, kBoth, "", 0},
    {kReverse16, sample<kReverse16>(), ViolationKind::counter_overflow, RS::none, kBoth, "", 0},
    // Reads rows of the wrong place, all inside X's allocation: only the comparison with the reference sees
    // it.
    {kTileCopy, sample<kTileCopy>(), std::nullopt, RS::none, kA2, "wrong-value", 0},
    {kComputeLength, sample<kComputeLength>(), ViolationKind::copy_truncated, RS::none, kBoth, "wrong-value",
     0},
    {kEventId, sample<kEventId>(), ViolationKind::illegal_event, RS::none, kBoth, "", 0},
    {kMode4Flag, sample<kMode4Flag>(), ViolationKind::illegal_cross_core, RS::none, k950, "", 0},
};

// A finding no kernel can give on a chip, and why.
struct NotApplicable {
    ViolationKind kind;
    RaceShape shape;
    uint8_t chips;
    const char* reason;
};

constexpr NotApplicable kNotApplicable[] = {
    {ViolationKind::uninit_to_host, RS::none, kBoth,
     "a host-side finding: the ACL shim reports it at aclrtMemcpy, after the launches, not a kernel; its "
     "fault and "
     "its fixed form are lib/ascendc/tests/acl_shim_test.cpp's (UnwrittenOutputCopiedToTheHost)"},
    {ViolationKind::v_order_unportable, RS::none, kA2,
     "on AtlasA2 the pair is a race, which the race checker reports (race_raw_v_v); the opt-in checker looks "
     "only where PIPE_V keeps order"},
    {kRace, RS::war_same_pipe, k950,
     "on Ascend950 PIPE_V keeps order, and no other pipe reads bytes that a later instruction of it writes "
     "without having written them itself (an accumulating Mmad's read and write of L0C are one instruction; "
     "that pair is a WAW)"},
};

constexpr bool has_control(ViolationKind k, RaceShape s, Chip chip) {
    for (const Control& r : kControls)
        if (r.kind == std::optional(k) && r.shape == s && (r.chips & chip) != 0) return true;
    for (const NotApplicable& n : kNotApplicable)
        if (n.kind == k && n.shape == s && (n.chips & chip) != 0) return true;
    return false;
}

// Every kind of the one table (a race once per direction and place) has a control on each chip.
constexpr bool every_kind_has_a_control() {
    for (const ViolationKind k : hw::kViolationKinds)
        for (const Chip chip : kChips) {
            if (k != kRace) {
                if (!has_control(k, RS::none, chip)) return false;
                continue;
            }
            for (const RaceShape s : kRaceShapes)
                if (!has_control(k, s, chip)) return false;
        }
    return true;
}
static_assert(every_kind_has_a_control(),
              "a kind of violation_kinds.def (or a race direction and place) has no checker control on some "
              "chip: add a kernel to kControls, or the reason no kernel can give it to kNotApplicable");

const char* not_applicable_reason(ViolationKind k, RaceShape s, Chip chip) {
    for (const NotApplicable& n : kNotApplicable)
        if (n.kind == k && n.shape == s && (n.chips & chip) != 0) return n.reason;
    return "";
}

std::string meaning(ViolationKind k, RaceShape s) {
    std::string m(hw::violation_kind_meaning(k));
    if (s != RaceShape::none) m += fmt::format(" ({})", race_shape_name(s));
    return m;
}

}  // namespace

void add_checker_controls(std::vector<CaseSpec>& out) {
    for (const Control& r : kControls)
        for (const Chip chip : kChips) {
            const bool proves = r.kind && (r.chips & chip) != 0, clean = (r.clean_on & chip) != 0;
            const bool gives = (r.chips & chip) != 0;  // the fault gives `kind` (if any) and `also`
            if (!gives && !clean) continue;
            const graph::ArchId arch = arch_of(chip);
            for (const bool fault : {true, false}) {
                CaseSpec s;
                s.id = fmt::format("Hazard/{}/{}{}/kernel/sample", arch_str(arch), r.kernel,
                                   fault ? "" : "_fixed");
                s.suite = "hazard";
                s.node_kind = "Kernel";
                s.dtype = "float";
                s.arch = arch_str(arch);
                s.path = "gm";
                if (proves) s.proves = control_finding(*r.kind, r.shape);
                s.fixed_form = !fault;
                std::string expected = "clean";
                if (fault && gives)
                    expected = !proves           ? std::string(r.also)
                               : *r.also != '\0' ? fmt::format("{}+{}", s.proves, r.also)
                                                 : s.proves;
                const CaseSpec meta = s;
                s.run = [meta, run = r.run, arch, fault, expected]() {
                    hw::Config cfg;
                    cfg.arch = arch;
                    const controls::HazardRun h = run(cfg, fault);
                    Measurement m = measure_report(meta, h.report, h.trace, h.mismatch);
                    const std::vector<std::string> what = fired_with_race_shapes(m.verdict, h.report);
                    return judge_exactly(std::move(m), what, expected);
                };
                out.push_back(std::move(s));
            }
        }
}

void add_checker_requirements(std::vector<ControlRequirement>& out) {
    for (const ViolationKind k : hw::kViolationKinds) {
        std::vector<RaceShape> shapes{RaceShape::none};
        if (k == kRace) shapes.assign(std::begin(kRaceShapes), std::end(kRaceShapes));
        for (const RaceShape s : shapes)
            for (const Chip chip : kChips)
                out.push_back({control_finding(k, s), arch_str(arch_of(chip)), meaning(k, s),
                               not_applicable_reason(k, s, chip)});
    }
}

}  // namespace evg::conformance::detail
