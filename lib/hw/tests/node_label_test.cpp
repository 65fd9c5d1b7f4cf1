// Graph node labels (evg::ascendc::NodeScope): every instruction issued inside a scope carries the scope's
// node in the trace, nested scopes restore the outer node, and a violation's locations name the node that
// issued each instruction, in the race sentence, in Report::text() and in Report::json().
#include <gtest/gtest.h>

#include <string>

#include "ascendc/evg_node_scope.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;
using evg::ascendc::NodeScope;

bool mentions(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

struct Labelled {
    Report report;
    Trace trace;
};

// One AIV: a load in node "load X", a compute in node "add" with a nested "inner" scope around one
// instruction, one instruction outside any node, and (when `race`) the MTE2->V flag left out, so the V read
// races with the MTE2 write.
Labelled run_kernel(bool race) {
    Device dev(Config{});
    void* x = dev.malloc(256, "X");
    dev.copy_to_device(x, std::vector<float>(64, 1.0f).data(), 256);
    auto xp = static_cast<GM_ADDR>(x);
    Labelled r;
    r.report = dev.launch(1, KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * 256);
        LocalTensor<float> a = buf.Get<float>(), b = a[64];
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        {
            NodeScope load("%0 AuxLoad float X (g.evg:2:1)");
            DataCopy(a, gx, 64);  // #1
        }
        if (!race) {
            SetFlag<HardEvent::MTE2_V>(0);   // #2
            WaitFlag<HardEvent::MTE2_V>(0);  // #3
        }
        {
            NodeScope add("%1 Compute Add float (g.evg:3:1)");
            Adds(b, a, 1.0f, 64);  // V read a
            {
                NodeScope inner("%2 inner");
                PipeBarrier<PIPE_V>();
            }
            Adds(b, b, 1.0f, 64);  // back in %1
        }
        PipeBarrier<PIPE_V>();  // no node
    });
    r.trace = dev.take_last_trace();
    return r;
}

std::string node_of(const Labelled& r, const TraceEntry& t) {
    return t.node < 0 ? std::string("-") : r.report.node_labels.at(static_cast<size_t>(t.node));
}

TEST(NodeLabel, TraceEntriesCarryTheScopeAndNestedScopesRestore) {
    const Labelled r = run_kernel(false);
    ASSERT_TRUE(r.report.clean()) << r.report.text();
    ASSERT_EQ(r.trace.size(), 7u);
    // Interned once each, in order of first use.
    ASSERT_EQ(r.report.node_labels.size(), 3u);
    EXPECT_EQ(node_of(r, r.trace[0]), "%0 AuxLoad float X (g.evg:2:1)");  // DataCopy
    EXPECT_EQ(node_of(r, r.trace[1]), "-");                               // SetFlag outside any node
    EXPECT_EQ(node_of(r, r.trace[2]), "-");                               // WaitFlag
    EXPECT_EQ(node_of(r, r.trace[3]), "%1 Compute Add float (g.evg:3:1)");
    EXPECT_EQ(node_of(r, r.trace[4]), "%2 inner");                          // nested
    EXPECT_EQ(node_of(r, r.trace[5]), "%1 Compute Add float (g.evg:3:1)");  // restored to the outer
    EXPECT_EQ(node_of(r, r.trace[6]), "-");                                 // restored to none
    EXPECT_EQ(r.trace[3].node, r.trace[5].node);
}

TEST(NodeLabel, RaceLocationsSentenceTextAndJsonNameTheNodes) {
    const Labelled r = run_kernel(true);
    const Violation* v = r.report.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.report.text();
    ASSERT_EQ(v->locations.size(), 2u);
    EXPECT_EQ(v->locations[0].node, "%0 AuxLoad float X (g.evg:2:1)");
    EXPECT_EQ(v->locations[1].node, "%1 Compute Add float (g.evg:3:1)");
    EXPECT_TRUE(mentions(v->message,
                         "between MTE2 write #1 (DataCopy GM->UB, node %0 AuxLoad float X (g.evg:2:1)) and V "
                         "read #2 (Adds, node %1 Compute Add float (g.evg:3:1))"))
        << v->message;
    const std::string text = r.report.text();
    EXPECT_TRUE(mentions(text, "issued at node_label_test.cpp:"));
    EXPECT_TRUE(mentions(text, " by node %0 AuxLoad float X (g.evg:2:1)\n")) << text;
    EXPECT_TRUE(mentions(text, " by node %1 Compute Add float (g.evg:3:1)\n")) << text;
    const std::string json = r.report.json();
    EXPECT_TRUE(mentions(json, "\"node\": \"%0 AuxLoad float X (g.evg:2:1)\"")) << json;
    EXPECT_TRUE(mentions(json, "\"node\": \"%1 Compute Add float (g.evg:3:1)\"")) << json;
}

// A location without an instruction (an issue-time check) names the node the core runs at that moment.
TEST(NodeLabel, IssueTimeCheckNamesTheCurrentNode) {
    Device dev(Config{});
    const Report& r = dev.launch(1, KernelType::aiv_only, [&] {
        NodeScope n("%4 RowBroadcast half bias");
        SetFlag<HardEvent::MTE2_V>(9);  // id out of range: illegal_event, at issue
    });
    const Violation* v = r.first(ViolationKind::illegal_event);
    ASSERT_NE(v, nullptr) << r.text();
    ASSERT_EQ(v->locations.size(), 1u);
    EXPECT_EQ(v->locations[0].instr, 0u);
    EXPECT_EQ(v->locations[0].node, "%4 RowBroadcast half bias");
}

// Outside a kernel a scope does nothing (and does not throw).
TEST(NodeLabel, ScopeOutsideAKernelIsHarmless) {
    EXPECT_NO_THROW({ NodeScope n("host"); });
}

}  // namespace
}  // namespace evg::hw::testing
