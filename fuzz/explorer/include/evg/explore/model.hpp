// The schedule explorer's own vocabulary: pipes, chips, cores, flags, programs, recorded runs, findings.
// It shares no code with lib/hw: the explorer is the independent ground truth the machine's checkers are
// compared against, so every rule it relies on is stated (and implemented) here again, from the hardware
// facts.
#pragma once
#include <compare>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace evg::explore {

// Pipes of an AI core. ALL only names the target of PipeBarrier<PIPE_ALL>.
enum class Pipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX, ALL };
inline constexpr int kPipes = 7;  // S..FIX
std::string_view pipe_name(Pipe p);

enum class Chip : uint8_t { AtlasA2, Ascend950 };
std::string_view chip_name(Chip c);

enum class CoreType : uint8_t { AIC, AIV };

// An intra-core event: the destination pipe waits for the source pipe.
struct Event {
    Pipe src = Pipe::MTE2;
    Pipe dst = Pipe::V;
    auto operator<=>(const Event&) const =
        default;  // NOLINT(modernize-use-nullptr): clang-tidy 14 false positive on defaulted <=>
};
std::string event_name(Event e);  // "MTE2_V"

// ---- chip rules ----
// Two instructions of pipe `p` stay in issue order without a PipeBarrier: S always, V on Ascend950.
bool pipe_keeps_order(Chip c, Pipe p);
// AtlasA2: CrossCoreWaitFlag stalls the core's scalar unit (every pipe); Ascend950: only the given pipe.
bool cross_wait_blocks_scalar(Chip c);
// Pipes a core type owns on a chip (AIV: S V MTE2 MTE3; AIC: S M MTE1 MTE2 FIX, plus MTE3 on AtlasA2).
bool core_has_pipe(Chip c, CoreType t, Pipe p);
// Whether an event belongs to the event pool of a core type (13 AIV events, 24 AIC events).
bool event_valid(CoreType t, Event e);
inline constexpr int kMaxEventId = 7;
inline constexpr int kCounterMax = 15;

// ---- launch topology ----
struct CoreId {
    CoreType type = CoreType::AIV;
    int block = 0;
    int sub = 0;
    bool operator==(const CoreId&) const = default;
};
// A mix launch has block_dim AICs (core index = block), then 2*block_dim AIVs (index = block_dim + 2*block +
// sub). An AIV-only launch has block_dim AIVs (index = block, sub 0).
struct Topology {
    Chip chip = Chip::AtlasA2;
    bool mix = false;
    int block_dim = 1;
    std::vector<CoreId> cores;
    int aic(int block) const;               // -1 if none
    int aiv(int block, int sub) const;      // -1 if none
    std::string core_name(int core) const;  // "AIC0", "AIV0.1", "AIV1"
};
Topology make_topology(Chip chip, bool mix, int block_dim);

// ---- cross-core flags ----
// A counter: core, namespace (0: modes 0-2 share it; 4: mode 4's own flags), flag id.
struct CounterKey {
    int core = 0;
    int ns = 0;
    int flag = 0;
    auto operator<=>(const CounterKey&) const = default;  // NOLINT(modernize-use-nullptr): as above
};
// What one CrossCoreSetFlag does. Direct sets increment `targets` when they execute. Round sets (modes 0, 1
// and the AIV side of mode 2) count for the round (mode, group, flag) of `members`; the round fires,
// incrementing every target once, when each member has one set not yet used by an earlier round.
struct CrossEffect {
    bool round = false;
    int mode = 0, group = 0, flag = 0;
    std::vector<int> members;
    std::vector<CounterKey> targets;
};
CrossEffect cross_effect(const Topology& t, int core, int mode, int flag);
CounterKey wait_counter(int core, int mode, int flag);
// Empty if legal; otherwise the rule broken.
std::string cross_rule(const Topology& t, int core, int mode, Pipe p, int flag);

// ---- programs (engine b) ----
enum class OpKind : uint8_t {
    copy_in,       // GM -> local memory (UB, or L1 on an AIC), MTE2
    copy_out,      // UB -> GM, MTE3
    vec,           // V: reads src0 (and src1 if used), writes dst
    scalar_read,   // S: reads src0
    scalar_write,  // S: writes dst
    set_flag,      // SetFlag<event>(id), on event.src
    wait_flag,     // WaitFlag<event>(id), on event.dst
    barrier,       // PipeBarrier<pipe> (pipe ALL: every pipe of the core)
    cross_set,     // CrossCoreSetFlag<mode, pipe>(flag)
    cross_wait,    // CrossCoreWaitFlag<mode, pipe>(flag)
};
std::string_view op_kind_name(OpKind k);

struct Range {
    int mem = -1;  // -1: unused
    uint32_t begin = 0, end = 0;
};
struct Op {
    OpKind kind = OpKind::vec;
    Range dst, src0, src1;
    Event event;
    int id = 0;  // event id
    Pipe pipe = Pipe::V;
    int mode = 0, flag = 0;
};
struct MemoryDecl {
    std::string name;
    uint32_t size = 0;
    int owner = -1;  // -1: GM; otherwise the core whose local memory it is
};
struct Program {
    Topology topo;
    std::vector<MemoryDecl> mems;
    std::vector<std::vector<Op>> cores;  // per core index, in program order
    // Instruction ids used in findings: cores' ops numbered consecutively, core 0 first.
    int op_id(int core, int index) const;
    std::pair<int, int> op_at(int id) const;  // (core, index)
    int op_count() const;
};
// Throws Error naming the rule and the op when a program is malformed.
void validate(const Program& p);
std::string describe(const Program& p, int id);  // "AIV0.1#3 copy_in"

// ---- recorded runs (engine a) ----
enum class Kind : uint8_t { plain, set, wait, barrier, cross_set, cross_wait };
struct Access {
    int mem = 0;
    uint32_t begin = 0, end = 0;
    bool write = false;
    bool atomic = false;
};
struct Instr {
    int id = 0;  // the name findings use
    int core = 0;
    Pipe pipe = Pipe::S;  // the pipe that executed it (S for everything the scalar unit executed)
    Kind kind = Kind::plain;
    Event event;                  // set, wait
    int event_id = 0;             // set, wait
    int mode = 0, flag = 0;       // cross_set, cross_wait
    Pipe barrier_pipe = Pipe::V;  // barrier
    bool blocking = false;        // the scalar unit issued nothing more until it completed
    // plain: the id of an earlier instruction of its pipe that the pipe itself orders it after (0: none). A
    // fact of the instruction, recorded with the run like its accesses: an Mmad accumulating into the L0C
    // region the previous Mmad wrote, with at least 10 fractals, on Ascend950 (docs/hardware-model.md, rule
    // rule R3).
    int after = 0;
    std::vector<Access> accesses;
};
struct Run {
    Topology topo;
    std::vector<Instr> instrs;  // in issue order
};
// The kind and pipe an op of a program becomes on its chip, and its accesses.
Instr instr_of(const Program& p, int core, int index);

// ---- verdicts ----
// Stable keys naming flags and counters in Finding::what: "AIV0.1:MTE2_V(0)", "AIV0.1:cross(ns0)3",
// "round(mode1,group0)3".
std::string flag_key(const Topology& t, int core, Event e, int id);
std::string counter_key(const Topology& t, const CounterKey& k);
std::string round_key(int mode, int group, int flag);

enum class FindingKind : uint8_t { race, set_twice, deadlock, flag_left, counter_left, ambiguous };
std::string_view finding_kind_name(FindingKind k);
struct Finding {
    FindingKind kind = FindingKind::race;
    std::vector<int>
        instrs;        // race: the two (smaller id first); set_twice: the set; deadlock: the stuck wait
    std::string what;  // flag_left / counter_left / ambiguous: the flag or counter, as a stable key
    int mem = -1;      // race: the memory and the first overlapping bytes
    uint32_t begin = 0, end = 0;
    std::string message;
    // Identity for comparisons: kind, instrs, what (not the message or the range).
    bool same(const Finding& o) const { return kind == o.kind && instrs == o.instrs && what == o.what; }
};
// Where one read of a run takes its bytes from: the writes a reader sees on bytes [begin, end) of the memory
// of its access number `access`. Without a race, the writes of a byte are ordered, so this is one write (the
// last before the read in happens-before order), or, after it, atomic writes the read sees all of; empty:
// none in the run (the bytes hold what the memory held at the start).
struct ReadFrom {
    int reader = 0;  // instruction id
    int access = 0;  // index in the reader's accesses
    uint32_t begin = 0, end = 0;
    std::vector<int> writers;                           // instruction ids, sorted
    auto operator<=>(const ReadFrom&) const = default;  // NOLINT(modernize-use-nullptr): as above
};
// Sorts by (reader, access, begin) and merges neighbouring pieces of one read with the same writers: the one
// form both engines give, whatever cells or pieces they found it in.
void canonicalise(std::vector<ReadFrom>& rs);

struct Verdict {
    std::vector<Finding> findings;  // sorted by (kind, instrs, what), no duplicates
    // decide only, and only when `findings` is empty and the verdict complete: where every read of an
    // executed instruction takes its bytes from (canonical form). A race-free run reads the same writes in
    // every schedule, so two runs of one program whose reads differ here compute differently in every
    // schedule: a reordering, which no race shows.
    std::vector<ReadFrom> reads_from;
    bool reads_known = false;                        // reads_from was computed
    std::set<std::vector<uint32_t>> final_memories;  // explore only: every memory cell at each finished state
    uint64_t states = 0;                             // explore only
    // False when a limit stopped the engine before the verdict was certain (explore: the state budget;
    // decide: the attempt cap): the findings are then a best effort, and no comparison may count them as an
    // agreement.
    bool complete = true;
    // decide only: named shapes of the happens-before graph (how a round's member sets relate to another
    // mode's increments on the same counter), which the sync fuzzers count as patterns; no part of the
    // verdict.
    std::vector<std::string> shapes;
    bool has(FindingKind k) const;
    std::vector<const Finding*> of(FindingKind k) const;
    std::string text() const;
};

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Engine (a): decides a recorded run from its happens-before graph. Each attempt that learns a fact (a round
// set held back, a wait that never runs) is followed by another; past `max_attempts` the verdict of one last
// attempt that learns nothing is returned, with `complete` false when it still had something to learn.
inline constexpr int kMaxDecideAttempts = 64;
Verdict decide(const Run& run, int max_attempts = kMaxDecideAttempts);

// Engine (b): executes every interleaving the flags allow.
struct Limits {
    uint64_t max_states = 200000;
};
Verdict explore(const Program& p, Limits limits = {});
// One schedule of the program (choices drawn from `seed`), recorded as a run (ids = op ids). With `observed`,
// also where each read of that schedule took its bytes from, as it executed (canonical form).
Run record(const Program& p, uint64_t seed, std::vector<ReadFrom>* observed = nullptr);

}  // namespace evg::explore
