// The data-cache checker alone, driven by a scripted event stream: a pipe's read of GM bytes a scalar write
// left dirty fires (at issue for the writing core, at execution for another core); after a clean covering
// them it is quiet.
#include <gtest/gtest.h>

#include "scripted_host.hpp"

namespace evg::hw::testing {
namespace {

struct DcacheScript {
    ScriptedHost host{{CoreType::AIV, CoreType::AIV}};
    std::unique_ptr<Checker> dcache = host.make("dcache");
    Memory gm{MemKind::GM, "GM#1 (X)", 4096};

    void set_value(int core, uint64_t begin, uint64_t end) {
        Instr& in = host.instr(core, Pipe::S, "SetValue");
        in.accesses.push_back({&gm, begin, end, true, false});
        dcache->on_issue({in, core});
        dcache->on_execute({in, core, agent_of(core, Pipe::S), {}});
    }
    Instr& dma_read(int core, uint64_t begin, uint64_t end) {
        Instr& in = host.instr(core, Pipe::MTE2, "DataCopy GM->UB");
        in.accesses.push_back({&gm, begin, end, false, false});
        dcache->on_issue({in, core});
        return in;
    }
    void execute(int core, const Instr& in) { dcache->on_execute({in, core, agent_of(core, in.pipe), {}}); }
    void clean(int core, const Memory* mem, uint64_t begin, uint64_t end) {
        Instr& in = host.instr(core, Pipe::S, "DataCacheCleanAndInvalid");
        SyncEvent e{.kind = SyncKind::dcache_clean, .core = core, .in = &in};
        e.mem = mem;
        e.begin = begin;
        e.end = end;
        dcache->on_sync(e);
    }
};

TEST(DcacheCheckerEvents, ADmaReadOfItsOwnCoresDirtyBytesFiresAtIssue) {
    DcacheScript s;
    s.set_value(0, 4, 8);
    s.dma_read(0, 0, 32);
    ASSERT_EQ(s.host.count(ViolationKind::dcache_not_clean), 1u) << s.host.text();
    const Violation& v = s.host.violations[0];
    EXPECT_NE(v.message.find("reads GM bytes [4, 8) of GM#1 (X) that SetValue #1"), std::string::npos)
        << v.message;
    ASSERT_EQ(v.locations.size(), 2u);
    EXPECT_EQ(v.locations[0].access, "write");
    EXPECT_EQ(v.locations[1].instr, 2u);
}

TEST(DcacheCheckerEvents, ACleanOfTheLineMakesTheReadQuiet) {
    DcacheScript s;
    s.set_value(0, 4, 8);
    s.clean(0, &s.gm, 0, 64);
    Instr& r = s.dma_read(0, 0, 32);
    s.execute(0, r);
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(DcacheCheckerEvents, ACleanOfAnotherLineLeavesTheBytesDirty) {
    DcacheScript s;
    s.set_value(0, 4, 8);
    s.clean(0, &s.gm, 64, 128);
    s.dma_read(0, 0, 32);
    EXPECT_EQ(s.host.count(ViolationKind::dcache_not_clean), 1u) << s.host.text();
}

TEST(DcacheCheckerEvents, AnotherCoresReadFiresWhenItExecutesNotAtIssue) {
    DcacheScript s;
    s.set_value(0, 4, 8);
    Instr& r = s.dma_read(1, 0, 32);
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
    s.execute(1, r);
    EXPECT_EQ(s.host.count(ViolationKind::dcache_not_clean), 1u) << s.host.text();
}

TEST(DcacheCheckerEvents, AnotherCoresReadAfterTheWriterCleanedEverythingIsQuiet) {
    DcacheScript s;
    s.set_value(0, 4, 8);
    Instr& r = s.dma_read(1, 0, 32);
    s.clean(0, nullptr, 0, 0);  // ENTIRE_DATA_CACHE
    s.execute(1, r);
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(DcacheCheckerEvents, AScalarReadOfItsOwnDirtyBytesIsCoherent) {
    DcacheScript s;
    s.set_value(0, 4, 8);
    Instr& in = s.host.instr(0, Pipe::S, "GetValue");
    in.accesses.push_back({&s.gm, 4, 8, false, false});
    s.dcache->on_issue({in, 0});
    s.execute(0, in);
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

}  // namespace
}  // namespace evg::hw::testing
