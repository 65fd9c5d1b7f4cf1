// Node slots (opt-in, "node-slots"): a graph node's instruction that writes UB bytes another node of the
// launch wrote. An EVG gives each node UB of its own for the whole launch (its slot: what its callbacks
// allocate), so bytes written by two nodes mean one of them wrote past its slot: a functor's `Muls(dst, src,
// s, 2 * len)` runs over into its neighbour's tile. The whole-UB bounds check cannot see it, and the numbers
// go wrong only when the clobbered value is read after the overrun.
//
// Which node an instruction is for: the node its EVG framework opened a NodeScope for (evgcheck's EVG), or,
// in a program whose instructions carry call chains (call_chain.hpp), the Catlass visitor its chain passes
// through (upstream's EVG opens no scope; the chain tells a copy helper's instruction, or a user's functor's,
// by the visitor that called it). An instruction of no node (the framework's own) takes the bytes it writes
// out of every node's slot. Each pair of nodes is reported once, with its first overlap.
//
// The check judges the EVG discipline, not the hardware: a kernel that shares UB between nodes on purpose
// (reusing a dead node's bytes) is reported, which is why it is switched on by name.
#include <fmt/format.h>

#include <map>
#include <set>

#include "evg/hw/call_chain.hpp"
#include "evg/hw/checker.hpp"
#include "evg/hw/memory.hpp"

namespace evg::hw {

namespace {

// An instruction's node as the check keys it: a scope's node index, or a call chain to be named at the end.
struct Owner {
    int32_t node = -1;
    uint32_t chain = 0;
    bool known() const { return node >= 0 || chain != 0; }
    // clang-tidy 14 reads the defaulted comparison's synthesised `0` as a null pointer constant.
    auto operator<=>(const Owner&) const = default;  // NOLINT(modernize-use-nullptr)
};

struct Span {
    uint64_t end = 0;
    Owner owner;
    uint64_t instr = 0;
};

// The first time instruction `later` (of owner b) wrote bytes that `earlier` (of owner a) had written.
struct Overlap {
    Owner a, b;
    uint64_t earlier = 0, later = 0;
    int core = -1;
    const Memory* mem = nullptr;
    uint64_t begin = 0, end = 0;
};

class NodeSlotsChecker final : public Checker {
  public:
    explicit NodeSlotsChecker(CheckerHost& host) : host_(host) {}
    unsigned events() const override { return kExecute | kKernelEnd; }

    void on_execute(const ExecuteEvent& e) override {
        Owner owner;
        owner.chain = host_.chain_of(e.in.id);
        if (!owner.chain) owner.node = e.in.node;
        for (const Access& a : e.in.accesses) {
            if (!a.write || !a.mem || a.begin >= a.end || a.mem->kind() != MemKind::UB) continue;
            write(e, a, owner);
        }
    }

    void live_instrs(std::vector<uint64_t>& out) const override {
        for (const Overlap& o : overlaps_) {
            out.push_back(o.earlier);
            out.push_back(o.later);
        }
    }

    void on_kernel_end(const KernelEndEvent&) override {
        // Owners by node: a chain's visitor (its identity, the visitor's class) or the scope's node label.
        // Two chains of one visitor are one node; an owner the chains name no node of is the framework's.
        std::vector<uint32_t> chain_ids;
        for (const Overlap& o : overlaps_)
            for (const Owner& w : {o.a, o.b})
                if (w.chain) chain_ids.push_back(w.chain);
        resolve_call_chains(chain_ids);
        std::map<Owner, ChainNode> named;
        auto node_of = [&](const Owner& o) -> const ChainNode& {
            auto it = named.find(o);
            if (it != named.end()) return it->second;
            ChainNode n;
            if (o.chain) {
                if (const ChainNodeNamer namer = chain_node_namer())
                    n = namer(call_chain_frames(o.chain), "");
            } else if (o.node >= 0) {
                const std::string suffix = host_.node_suffix(o.node);  // ", node <label>"
                n.label = suffix.substr(suffix.find("node ") + 5);
                n.identity = "scope:" + n.label;
            }
            return named.emplace(o, std::move(n)).first->second;
        };
        std::set<std::pair<std::string, std::string>> told;
        for (const Overlap& o : overlaps_) {
            const ChainNode& a = node_of(o.a);
            const ChainNode& b = node_of(o.b);
            if (a.identity.empty() || b.identity.empty() || a.identity == b.identity) continue;
            if (!told.insert({a.identity, b.identity}).second) continue;
            report(o, a, b);
        }
    }

  private:
    void write(const ExecuteEvent& e, const Access& a, const Owner& owner) {
        auto& spans = shadows_[a.mem->uid()];
        // Split the spans that straddle the write's ends, then look at (and drop) the ones inside.
        split(spans, a.begin);
        split(spans, a.end);
        for (auto it = spans.lower_bound(a.begin); it != spans.end() && it->first < a.end;) {
            const Span& s = it->second;
            if (owner.known() && s.owner.known() && s.owner != owner) note(e, a, s, it->first, owner);
            it = spans.erase(it);
        }
        if (owner.known()) spans.emplace(a.begin, Span{a.end, owner, e.in.id});
    }

    static void split(std::map<uint64_t, Span>& spans, uint64_t at) {
        auto it = spans.upper_bound(at);
        if (it == spans.begin()) return;
        --it;
        if (it->first < at && at < it->second.end) {
            Span tail = it->second;
            it->second.end = at;
            spans.emplace(at, tail);
        }
    }

    void note(const ExecuteEvent& e, const Access& a, const Span& s, uint64_t begin, const Owner& owner) {
        // One overlap per (earlier owner, later owner) pair: the first, which the report shows.
        if (!pairs_.insert({s.owner, owner}).second) return;
        overlaps_.push_back({s.owner, owner, s.instr, e.in.id, e.core, a.mem, std::max(begin, a.begin),
                             std::min(s.end, a.end)});
    }

    void report(const Overlap& o, const ChainNode& a, const ChainNode& b) {
        const TraceEntry* first = host_.traced(o.earlier);
        const TraceEntry* second = host_.traced(o.later);
        std::vector<Location> locs;
        for (const auto& [t, write] : {std::pair{first, true}, std::pair{second, true}}) {
            if (!t) continue;
            Location l = location_of(host_, *t);
            l.memory = o.mem->name();
            l.begin = o.begin;
            l.end = o.end;
            l.access = write ? "write" : "read";
            locs.push_back(std::move(l));
        }
        host_.violate(
            {ViolationKind::node_slot_overrun, Severity::error,
             fmt::format("{} bytes [{}, {}) hold a value of node {} (#{}) and are written by node {} "
                         "(#{}): each EVG node owns its UB slot for the whole launch, so one of them "
                         "writes past its own (a length or offset too large for its tile)",
                         o.mem->name(), o.begin, o.end, a.label, o.earlier, b.label, o.later),
             std::move(locs), 1});
    }

    CheckerHost& host_;
    std::map<uint32_t, std::map<uint64_t, Span>> shadows_;  // by UB memory uid: begin -> span
    std::set<std::pair<Owner, Owner>> pairs_;
    std::vector<Overlap> overlaps_;
};

}  // namespace

std::unique_ptr<Checker> make_node_slots_checker(CheckerHost& host) {
    return std::make_unique<NodeSlotsChecker>(host);
}

}  // namespace evg::hw
