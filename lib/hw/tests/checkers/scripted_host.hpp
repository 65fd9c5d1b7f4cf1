// A checker's world without a machine: a host that records the violations a checker reports, describes the
// instructions the script issued, and names the cores; and a script that numbers instructions the way the
// engine does (ids in issue order, epochs per (core, pipe)). The checkers' tests drive one checker with a
// stream of events made here.
#pragma once
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "evg/hw/checker.hpp"
#include "evg/hw/memory.hpp"

namespace evg::hw::testing {

class ScriptedHost final : public CheckerHost {
  public:
    explicit ScriptedHost(std::vector<CoreType> cores, ArchId arch = ArchId::AtlasA2)
        : types_(std::move(cores)) {
        cfg_.arch = arch;
        for (size_t i = 0; i < types_.size(); ++i)
            names_.push_back(fmt::format("{} {}", types_[i] == CoreType::AIC ? "AIC" : "AIV", i));
    }
    const Config& config() const override { return cfg_; }
    const ArchSpec& arch() const override { return arch_spec(cfg_.arch); }
    const TraceEntry* traced(uint64_t id) const override {
        auto it = entries_.find(id);
        return it == entries_.end() ? nullptr : &it->second;
    }
    // A checker of the registry on this host. Every violation it reports must be of a kind that names it as
    // the finder in violation_kinds.def: a checker that reports another kind fails its test.
    std::unique_ptr<Checker> make(std::string_view name) {
        checker_ = name;
        return make_checker(name, *this);
    }
    void violate(Violation v) override {
        EXPECT_EQ(violation_kind_finder(v.kind), checker_)
            << "checker '" << checker_ << "' reported " << violation_kind_name(v.kind)
            << ", a kind violation_kinds.def gives to '" << violation_kind_finder(v.kind) << "'";
        violations.push_back(std::move(v));
    }
    const std::string& core_name(int core) const override { return names_.at(static_cast<size_t>(core)); }
    CoreType core_type(int core) const override { return types_.at(static_cast<size_t>(core)); }
    std::string node_suffix(int32_t) const override { return {}; }
    uint32_t chain_of(uint64_t) const override { return 0; }
    void record_fp_counts(FpCounts c) override { fp = std::move(c); }
    FpCounts fp;

    // A new instruction of `core` on pipe `p`, numbered and described like the engine's.
    Instr& instr(int core, Pipe p, std::string op, InstrKind kind = InstrKind::plain) {
        auto& in = *instrs_.emplace_back(std::make_unique<Instr>());
        in.id = ++next_id_;
        in.pipe = p;
        in.kind = kind;
        in.op = std::move(op);
        // One site per instruction, or, with same_site_for_op, one per op name (a loop body run again).
        uint32_t line = static_cast<uint32_t>(in.id);
        if (same_site_for_op) line = op_lines_.try_emplace(in.op, static_cast<uint32_t>(in.id)).first->second;
        in.site = Site{"script.cpp", line};
        in.epoch = ++epochs_[{core, pipe_slot(p)}];
        TraceEntry t;
        t.id = static_cast<uint32_t>(in.id);
        t.core = static_cast<uint16_t>(core);
        t.pipe = p;
        t.kind = kind;
        t.epoch = in.epoch;
        t.op_site = intern_op_site(in.op, in.site);
        entries_[in.id] = t;
        return in;
    }
    // The clock of an agent that knows `e` and nothing else.
    static VectorClock knowing(std::initializer_list<Epoch> es) {
        VectorClock c;
        for (const auto& e : es) c.raise(e.agent, e.epoch);
        return c;
    }
    static Epoch epoch_of(int core, const Instr& in) { return {agent_of(core, in.pipe), in.epoch}; }

    size_t count(ViolationKind k) const {
        size_t n = 0;
        for (const auto& v : violations) n += v.kind == k;
        return n;
    }
    std::string text() const {
        std::string s;
        for (const auto& v : violations) s += fmt::format("{}: {}\n", violation_kind_name(v.kind), v.message);
        return s;
    }

    std::vector<Violation> violations;
    bool same_site_for_op = false;

  private:
    std::string_view checker_;
    std::map<std::string, uint32_t> op_lines_;
    Config cfg_;
    std::vector<CoreType> types_;
    std::vector<std::string> names_;
    std::map<uint64_t, TraceEntry> entries_;
    std::deque<std::unique_ptr<Instr>> instrs_;
    std::map<std::pair<int, int>, uint32_t> epochs_;
    uint64_t next_id_ = 0;
};

}  // namespace evg::hw::testing
