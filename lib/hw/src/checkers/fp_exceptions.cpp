// NaN and infinity ("fp", on by default): where a non-finite value is born, and where it goes.
//
// The instructions that compute (vector arithmetic and casts, fixpipe's conversion) test each result as they
// store it (fp_scan.hpp, fused into their element loops) and tell the machine their NaN and infinite lanes
// (ResultEvent); the copies tell it what they moved (MoveEvent). A lane is *born* when none of the operands
// it read from memory was NaN or infinite: the instruction made the value (an overflow of its type, 0/0, a
// division by zero, the log of a negative, an infinite scalar operand). Every non-finite value in memory
// carries a tag: the born event it descends from (or none: it came from memory the launch did not compute,
// an input's NaN). A result lane takes its operand's tag; a copy moves the tags of the bytes it copies; any
// other write drops the tags of the bytes it overwrites. At the kernel's end the tags left in GM, checked
// against the bytes, say how many NaN and infinities each buffer received and from which born event.
//
// One finding per born event (its op, source line and call chain, and class): the first lane's operands, the
// value before its type's limit, how many lanes and instructions, and the GM buffers its values reached.
// Severity by Config::fp_policy: graded (the default) makes a born event whose values reached GM an error and
// any other a warning. Results computed from never-written operand lanes (a tile's padding, which no store
// keeps) and values that descend from no born event are counts (Report::fp), not findings.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory_resource>
#include <string>
#include <unordered_map>
#include <vector>

#include "evg/hw/checker.hpp"
#include "evg/hw/memory.hpp"

namespace evg::hw {

namespace {

constexpr size_t kMaxBorn = 64;  // distinct born events kept as findings; later ones are counted

struct Tag {
    uint32_t origin = 0;  // 1 + index into born_; 0: descends from no born event of this launch
    FpClass cls = FpClass::nan;
    DType type = DType::f32;
};
using TagMap = std::pmr::map<uint64_t, Tag>;  // by the element's first byte

struct Born {
    Location where;
    std::string op;
    DType type = DType::f32, src_type = DType::f32;
    bool binary = false, has_scalar = false;
    double scalar = 0.0;
    FpLane first;
    uint64_t lanes = 0, instrs = 0, last_instr = 0;
    struct Reached {
        std::string buffer;
        uint64_t nan = 0, inf = 0;
    };
    std::vector<Reached> reached;
};

std::string value_text(double v) {
    if (v != v) return "NaN";
    if (v == std::numeric_limits<double>::infinity()) return "+inf";
    if (v == -std::numeric_limits<double>::infinity()) return "-inf";
    return fmt::format("{:.6g}", v);
}

class FpChecker final : public Checker {
  public:
    explicit FpChecker(CheckerHost& host) : host_(host) {}
    unsigned events() const override { return kExecute | kResult | kKernelEnd; }

    // A write the instruction does not describe drops the tags of the bytes it overwrites.
    void on_execute(const ExecuteEvent& e) override {
        if (tags_.empty() || e.in.tests_results) return;
        drop_writes(e.in);
    }

    void on_result(const ResultEvent& e) override {
        counts_.subnormal += e.subnormal;
        if (e.lanes.empty()) {
            if (!tags_.empty()) drop_writes(e.in, e.dst);
            return;
        }
        // Origins first: a lane may overwrite its own operand (in place).
        std::vector<Tag>& out = out_;
        out.assign(e.lanes.size(), Tag{});
        for (size_t i = 0; i < e.lanes.size(); ++i) {
            const FpLane& l = e.lanes[i];
            out[i].cls = l.cls;
            out[i].type = e.dst_type;
            if (l.born && l.unwritten) {
                ++counts_.padding;
            } else if (l.born) {
                out[i].origin = born_at(e, l);
            } else {
                for (int k = 0; k < 2 && out[i].origin == 0; ++k)
                    if (e.src[k] && l.src[k] != kNoOperand) out[i].origin = origin_at(e.src[k], l.src[k]);
            }
        }
        drop_writes(e.in, e.dst);
        TagMap& dst = tags_of(e.dst);
        for (size_t i = 0; i < e.lanes.size(); ++i) dst[e.lanes[i].dst] = out[i];
    }

    void on_move(const MoveEvent& e) override {
        std::vector<std::pair<uint64_t, Tag>>& moved = moved_;
        moved.clear();
        if (auto it = tags_.find(e.src); it != tags_.end())
            for (auto t = it->second.lower_bound(e.src_off);
                 t != it->second.end() && t->first < e.src_off + e.bytes; ++t)
                moved.emplace_back(t->first - e.src_off + e.dst_off, t->second);
        drop(e.dst, e.dst_off, e.dst_off + e.bytes);
        if (moved.empty()) return;
        TagMap& dst = tags_of(e.dst);
        for (const auto& [off, tag] : moved) dst[off] = tag;
    }

    void on_kernel_end(const KernelEndEvent&) override {
        // What GM holds, by buffer and origin, read back from the bytes (a tag whose element is finite again
        // is not counted: something the checker does not follow overwrote it).
        std::map<std::string, FpCounts::InGm> in_gm;
        std::vector<std::map<std::string, Born::Reached>> reached(born_.size());
        for (const auto& [mem, tags] : tags_) {
            if (mem->kind() != MemKind::GM) continue;
            for (const auto& [off, tag] : tags) {
                const FpBits fb = FpBits::of(tag.type);
                if (!fb.is_float() || off + fb.size > mem->size()) continue;
                const uint32_t bits = fb.load(mem->data() + off);
                if (fb.finite(bits)) continue;
                const bool nan = fb.cls(bits) == FpClass::nan;
                FpCounts::InGm& g = in_gm[mem->name()];
                g.buffer = mem->name();
                (nan ? g.nan : g.inf)++;
                if (tag.origin == 0 || tag.origin > born_.size()) {
                    ++g.from_inputs;
                    continue;
                }
                Born::Reached& r = reached[tag.origin - 1][mem->name()];
                r.buffer = mem->name();
                (nan ? r.nan : r.inf)++;
            }
        }
        for (auto& [name, g] : in_gm) counts_.gm.push_back(g);
        for (size_t i = 0; i < born_.size(); ++i)
            for (auto& [name, r] : reached[i]) born_[i].reached.push_back(r);
        for (const Born& b : born_) report(b);
        counts_.on = true;
        host_.record_fp_counts(counts_);
    }

    // The born events' instructions are named by the findings made at the kernel's end.
    void live_instrs(std::vector<uint64_t>& out) const override {
        for (const Born& b : born_) out.push_back(b.where.instr);
    }

  private:
    // The tags of memory m, made on first use with the checker's pool (a launch tags and drops lanes by the
    // thousand: the pool recycles their nodes).
    TagMap& tags_of(const Memory* m) { return tags_.try_emplace(m, &pool_).first->second; }

    uint32_t origin_at(const Memory* m, uint64_t off) const {
        auto it = tags_.find(m);
        if (it == tags_.end()) return 0;
        auto t = it->second.find(off);
        return t == it->second.end() ? 0 : t->second.origin;
    }

    void drop(const Memory* m, uint64_t begin, uint64_t end) {
        auto it = tags_.find(m);
        if (it == tags_.end()) return;
        TagMap& tags = it->second;
        tags.erase(tags.lower_bound(begin), tags.lower_bound(end));
        if (tags.empty()) tags_.erase(it);
    }
    // The instruction's writes (to memory `only`, when given: a result event's destination).
    void drop_writes(const Instr& in, const Memory* only = nullptr) {
        for (const Access& a : in.accesses)
            if (a.write && (!only || a.mem == only)) drop(a.mem, a.begin, a.end);
    }

    // The born event of lane l of e: one per (call chain or site, op, NaN or infinity).
    uint32_t born_at(const ResultEvent& e, const FpLane& l) {
        ++counts_.born;
        // The lanes of one instruction share their event: the key is made once per instruction and class.
        const int cls = l.cls == FpClass::nan ? 0 : 1;
        if (last_born_[cls].instr == e.in.id && last_born_[cls].index != 0) {
            Born& b = born_[last_born_[cls].index - 1];
            ++b.lanes;
            return last_born_[cls].index;
        }
        const uint32_t index = born_event(e, l);
        last_born_[cls] = {e.in.id, index};
        return index;
    }
    uint32_t born_event(const ResultEvent& e, const FpLane& l) {
        const uint32_t chain = host_.chain_of(e.in.id);
        const std::string key = fmt::format("{}\x1f{}\x1f{}\x1f{}", chain, e.in.site.str(), e.in.op,
                                            l.cls == FpClass::nan ? 'n' : 'i');
        auto [it, fresh] = born_index_.try_emplace(key, 0);
        if (fresh) {
            if (born_.size() >= kMaxBorn) {
                born_index_.erase(it);
                ++counts_.born_lost;
                return 0;
            }
            Born b;
            b.where = location_of(e.core, host_.core_name(e.core), e.in);
            b.op = e.in.op;
            b.type = e.dst_type;
            b.src_type = e.src_type;
            b.binary = e.src[1] != nullptr;
            b.has_scalar = e.has_scalar;
            b.scalar = e.scalar;
            b.first = l;
            born_.push_back(std::move(b));
            it->second = static_cast<uint32_t>(born_.size());
        }
        Born& b = born_[it->second - 1];
        ++b.lanes;
        if (b.last_instr != e.in.id) {
            ++b.instrs;
            b.last_instr = e.in.id;
        }
        return it->second;
    }

    void report(const Born& b) {
        const FpLane& l = b.first;
        const bool nan = l.cls == FpClass::nan;
        std::string operands = b.binary ? fmt::format("({}, {})", value_text(l.in[0]), value_text(l.in[1]))
                                        : value_text(l.in[0]);
        if (b.has_scalar)
            operands = fmt::format("({}, scalar {})", value_text(l.in[0]), value_text(b.scalar));
        if (b.op.rfind("Duplicate", 0) == 0) operands = fmt::format("scalar {}", value_text(b.scalar));
        std::string why;
        const bool from_scalar = b.has_scalar && !std::isfinite(b.scalar);
        if (from_scalar)
            why = fmt::format("the kernel's scalar operand is {}", value_text(b.scalar));
        else if (l.by_zero)
            why = "a division by zero";
        else if (!nan && std::isfinite(l.wide))
            why = fmt::format("{} is outside {}'s finite range (largest magnitude {})", value_text(l.wide),
                              dtype_name(b.type), value_text(fp_max_finite(b.type)));
        else if (!nan)
            why = "an overflow of float";
        else
            why = "an invalid operation";
        std::string msg = fmt::format("{} of {} in {} gives {}: {}{}", b.op, operands, dtype_name(b.type),
                                      fp_class_name(l.cls), why,
                                      from_scalar ? ", no operand from memory" : ", from finite operands");
        msg += fmt::format(" ({} lane(s) of {} instruction(s) made {} here)", b.lanes, b.instrs,
                           nan ? "NaN" : "infinities");
        uint64_t in_gm = 0;
        std::vector<std::string> parts;
        for (const Born::Reached& r : b.reached) {
            in_gm += r.nan + r.inf;
            std::vector<std::string> what;
            if (r.nan) what.push_back(fmt::format("{} NaN", r.nan));
            if (r.inf) what.push_back(fmt::format("{} infinite", r.inf));
            parts.push_back(fmt::format("{} holds {}", r.buffer, fmt::join(what, " and ")));
        }
        if (in_gm)
            msg += fmt::format("; reached GM: {} element(s) descend from it ({})", in_gm,
                               fmt::join(parts, "; "));
        else
            msg += "; none of its values reached GM (they stayed in local memory or were overwritten)";
        Severity sev = Severity::error;
        switch (host_.config().fp_policy) {
            case FpPolicy::graded:
                sev = in_gm ? Severity::error : Severity::warning;
                break;
            case FpPolicy::warn:
                sev = Severity::warning;
                break;
            case FpPolicy::error:
                sev = Severity::error;
                break;
        }
        host_.violate({nan ? ViolationKind::fp_nan_born : ViolationKind::fp_inf_born,
                       sev,
                       std::move(msg),
                       {b.where},
                       1});
    }

    CheckerHost& host_;
    std::pmr::unsynchronized_pool_resource pool_;  // before tags_: their nodes live in it
    std::unordered_map<const Memory*, TagMap> tags_;
    std::vector<Tag> out_;                         // on_result's scratch
    std::vector<std::pair<uint64_t, Tag>> moved_;  // on_move's scratch
    struct LastBorn {
        uint64_t instr = 0;
        uint32_t index = 0;
    };
    std::array<LastBorn, 2> last_born_{};  // per class (NaN, infinity): the last instruction's born event
    std::vector<Born> born_;
    std::unordered_map<std::string, uint32_t> born_index_;
    FpCounts counts_;
};

}  // namespace

std::unique_ptr<Checker> make_fp_checker(CheckerHost& host) {
    return std::make_unique<FpChecker>(host);
}

}  // namespace evg::hw
