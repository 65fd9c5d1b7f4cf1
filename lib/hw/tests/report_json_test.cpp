// Report::json() and Report::from_json: the one writer and the one reader of a report's JSON (what
// run-program judges and `--report` files carry). Every field json() writes comes back equal; a key the
// reader does not find is an error naming it and its place, never a silent zero; and a new field of the
// report is noticed here (the field counts) until the writer and the reader take it or it is named as left
// out.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "evg/hw/report.hpp"
#include "evg/hw/rules.hpp"

namespace evg::hw {
namespace {

// The number of fields of an aggregate: the most values it can be brace-initialised from.
struct AnyField {
    template <class T>
    operator T() const;  // NOLINT(google-explicit-constructor): declared only, for the count below
};
template <class T, class... Fields>
constexpr std::size_t field_count() {
    if constexpr (requires { T{Fields{}..., AnyField{}}; })
        return field_count<T, Fields..., AnyField>();
    else
        return sizeof...(Fields);
}

Location location(int k) {
    Location l;
    l.instr = 40 + k;
    l.core = 3;
    l.core_name = "AIV 3 (block 1, sub 1)";
    l.pipe = "V";
    l.op = "Add";
    l.memory = "UB[AIV 3]";
    l.begin = 256;
    l.end = 512 + k;
    l.access = k ? "read" : "write";
    l.site = "block_epilogue.hpp:120";
    l.source = "AscendC::Add(dst, a, b, n);";
    l.node = "%1 Add half (graph.evg:6:1)";
    l.owner = "catlass";
    l.user_site = "my_evg.cpp:88";
    l.user_source = "gemm(args);";
    l.chain = {{"visitor_compute.hpp:77", "catlass", "VisitorCompute::visit"},
               {"my_evg.cpp:88", "user", "main"}};
    return l;
}

// A report with every field json() writes set away from its default.
Report full_report() {
    Report r;
    r.arch = "Ascend950";
    r.block_dim = 4;
    r.mutations_unapplied = {"drop SetFlag<V_MTE3> at block_epilogue.hpp:140"};
    Violation race;
    race.kind = ViolationKind::race;
    race.message = "UB bytes 256..512 written by Add while DataCopy reads them";
    race.locations = {location(0), location(1)};
    race.occurrences = 3;
    // A rule the kind does not rest on (the reader keeps only those in Violation::rules).
    for (const RuleInfo& rule : all_rules()) {
        const auto of_kind = rules_of(race.kind);
        if (std::find(of_kind.begin(), of_kind.end(), rule.id) == of_kind.end()) {
            race.rules = rule_bit(rule.id);
            break;
        }
    }
    EXPECT_NE(race.rules, 0u) << "every rule of rules.def is one race rests on: pick another kind here";
    Violation nan;
    nan.kind = ViolationKind::fp_nan_born;
    nan.severity = Severity::warning;
    nan.message = "Div made NaN of finite operands";
    nan.locations = {location(2)};
    r.violations = {race, nan};
    r.stats.instructions = 1234;
    r.stats.per_pipe = {{"V", 600}, {"MTE2", 300}};
    r.stats.ub_peak = 65536;
    r.stats.events_set = 17;
    r.stats.events_waited = 16;
    r.stats.scheduler = SchedulerKind::adversarial;
    r.stats.seed = 99;
    r.stats.steps = 1200;
    r.stats.coverage = {5, 6, 7, 8};
    r.fp.on = true;
    r.fp.subnormal = 1;
    r.fp.born = 2;
    r.fp.padding = 3;
    r.fp.born_lost = 4;
    r.fp.gm = {{"deviceD", 5, 6, 7}};
    r.buffers = {{"deviceD", 4096, "aclrtMalloc at my_evg.cpp:80"}};
    r.launch_site = "my_evg.cpp:88";
    r.launch_source = "gemm(args);";
    return r;
}

TEST(ReportJson, EveryFieldJsonWritesReadsBackEqual) {
    const Report r = full_report();
    const Report back = Report::from_json(r.json());
    EXPECT_EQ(back, r) << "written:\n" << r.json() << "\nread back and written again:\n" << back.json();
    EXPECT_EQ(back.json(), r.json());
}

TEST(ReportJson, AHostReportAndAReportWithoutOptionalPartsReadBackEqual) {
    Report host;
    host.arch = "host";
    host.violations = full_report().violations;
    EXPECT_EQ(Report::from_json(host.json()), host);
    Report bare;
    bare.arch = "Ascend950";
    bare.block_dim = 1;
    EXPECT_EQ(Report::from_json(bare.json()), bare);
}

// A key renamed on one side is an error naming the key and where it was looked for.
TEST(ReportJson, AKeyTheReaderDoesNotFindIsAnErrorNamingItsPlace) {
    std::string text = full_report().json();
    const std::string key = "\"user_site\"";
    text.replace(text.find(key), key.size(), "\"where_user\"");
    try {
        (void)Report::from_json(text);
        FAIL() << "a report without user_site was read";
    } catch (const ReportJsonError& e) {
        EXPECT_STREQ(e.what(), "report JSON: the report.violations[0].locations[0] has no 'user_site'");
    }
    EXPECT_THROW((void)Report::from_json("[1, 2]"), ReportJsonError);
    EXPECT_THROW((void)Report::from_json("{\"arch\": 3}"), ReportJsonError);
}

// A field added to a report struct fails here until json() writes it and from_json reads it (then count it),
// or it is named as a field json() leaves out (Report::from_json's comment).
TEST(ReportJson, TheFieldsOfAReportAreTheOnesCountedHere) {
    EXPECT_EQ(field_count<Report>(), 11u) << "a field of Report changed";
    EXPECT_EQ(field_count<Violation>(), 6u) << "a field of Violation changed";
    EXPECT_EQ(field_count<Location>(), 17u) << "a field of Location changed";
    EXPECT_EQ(field_count<Location::Frame>(), 3u) << "a field of Location::Frame changed";
    EXPECT_EQ(field_count<LaunchStats>(), 11u) << "a field of LaunchStats changed";
    EXPECT_EQ(field_count<ScheduleCoverage>(), 4u) << "a field of ScheduleCoverage changed";
    EXPECT_EQ(field_count<FpCounts>(), 6u) << "a field of FpCounts changed";
    EXPECT_EQ(field_count<FpCounts::InGm>(), 4u) << "a field of FpCounts::InGm changed";
    EXPECT_EQ(field_count<Report::GmBuffer>(), 3u) << "a field of Report::GmBuffer changed";
}

TEST(ReportJson, WhatAGmBufferHoldsIsOneSentence) {
    EXPECT_EQ((FpCounts::InGm{"D", 3, 1, 0}.text()),
              "D holds 3 NaN and 1 infinite (all made by the launch: the findings say where)");
    EXPECT_EQ((FpCounts::InGm{"D", 2, 0, 2}.text()), "D holds 2 NaN (all passed on from the inputs)");
    EXPECT_EQ((FpCounts::InGm{"D", 0, 4, 1}.text()),
              "D holds 4 infinite (1 of them passed on from the inputs)");
    EXPECT_EQ((FpCounts::InGm{"D", 0, 0, 0}.text()), "");
}

}  // namespace
}  // namespace evg::hw
