// The contract between `evgcheck check --catlass-root` and evg_upstream_runner (runner_protocol.hpp): what
// one side writes, the other reads back field for field, and a command line that is not one is refused with
// the sentence the runner prints.
#include "runner_protocol.hpp"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

namespace evg::upstream::runner {
namespace {

std::variant<Request, std::string> parse(const std::vector<std::string>& words) {
    std::vector<const char*> argv;
    argv.reserve(words.size());
    for (const std::string& w : words) argv.push_back(w.c_str());
    return parse_arguments(argv);
}

void expect_same(const Request& a, const Request& b) {
    EXPECT_EQ(a.library, b.library);
    EXPECT_EQ(a.index, b.index);
    EXPECT_EQ(a.one_case, b.one_case);
    EXPECT_EQ(a.cases, b.cases);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.case_file, b.case_file);
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(a.known, b.known);
    EXPECT_EQ(a.case_limit, b.case_limit);
}

TEST(RunnerProtocol, EveryRequestReadsBackFromItsArguments) {
    Request property;
    property.library = "/w/lib-1/build/libinstances.so";
    property.index = 3;
    property.cases = 30;
    property.seed = 18446744073709551615ull;
    property.out = "/w/verdict-7.txt";
    property.known = "/k/known_findings.txt";
    property.case_limit = 8.5;
    Request one = property;
    one.one_case = true;
    one.cases = 0;
    one.seed = 0;
    one.case_file = "/w/candidate-7.txt";
    one.known.clear();
    one.case_limit = kDefaultCaseLimit;
    for (const Request& r : {property, one}) {
        const auto back = parse(arguments(r));
        ASSERT_TRUE(std::holds_alternative<Request>(back)) << std::get<std::string>(back);
        expect_same(std::get<Request>(back), r);
    }
    // The default limit is not spelled out: the command line a user reads stays the short one.
    EXPECT_EQ(arguments(one).front(), one.library);
}

TEST(RunnerProtocol, ACommandLineThatIsNotOneIsRefusedNamingWhy) {
    const auto why = [](const std::vector<std::string>& words) {
        const auto r = parse(words);
        return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : std::string("(accepted)");
    };
    EXPECT_EQ(why({"lib.so", "0"}), "too few arguments");
    EXPECT_EQ(why({"lib.so", "0", "sideways", "x", "out"}), "unknown mode 'sideways'");
    EXPECT_EQ(why({"lib.so", "zero", "case", "c.txt", "out"}), "INDEX 'zero' is not a whole number");
    EXPECT_EQ(why({"lib.so", "0", "property", "0", "1", "out"}), "CASES '0' is not a positive whole number");
    EXPECT_EQ(why({"lib.so", "0", "property", "5", "-1", "out"}), "SEED '-1' is not a whole number");
    EXPECT_EQ(why({"lib.so", "0", "case", "c.txt"}), "wrong number of arguments");
    EXPECT_EQ(why({"--case-limit", "0.5", "lib.so", "0", "case", "c.txt", "out"}),
              "--case-limit '0.5' is not a number of at least 1");
}

TEST(RunnerProtocol, EveryVerdictReadsBackFromItsFile) {
    Verdict fail = failed("kernel_exception", "# case data=exact data_seed=0 cores=1 sched=0\nproblem x\n",
                          "the kernel issued more than 1000000 instructions\nWhere each core was: ...",
                          "property UpstreamCheck/instance0 failed\n");
    fail.compiler = "clang 14.0.6 (arguments evaluated left to right: Bisheng's order)";
    Verdict pass = passed(30);
    pass.compiler = fail.compiler;
    Verdict excused = pass;
    excused.excused = {{"[drawn, stores-a-load] race a.hpp: X( <-> b.hpp: Y(  # 4", 12}, {"race c.hpp:3", 1}};
    excused.excused_cases = 12;
    excused.not_compared = {{"D", 12}};
    for (const Verdict& v : {fail, pass, excused, failed("timeout", "", "")}) {
        const Verdict back = read_verdict(verdict_text(v));
        EXPECT_EQ(back.pass, v.pass);
        EXPECT_EQ(back.passed, v.passed);
        EXPECT_EQ(back.tag, v.tag);
        EXPECT_EQ(back.case_text, v.case_text);
        EXPECT_EQ(back.message, v.message);
        EXPECT_EQ(back.report, v.report);
        EXPECT_EQ(back.compiler, v.compiler);
        EXPECT_EQ(back.excused, v.excused);
        EXPECT_EQ(back.excused_cases, v.excused_cases);
        EXPECT_EQ(back.not_compared, v.not_compared);
    }
    // A file that is no verdict reads as a failure with nothing to shrink, never as a pass.
    const Verdict garbage = read_verdict("garbage\n");
    EXPECT_FALSE(garbage.pass);
    EXPECT_EQ(garbage.case_text, "");
}

}  // namespace
}  // namespace evg::upstream::runner
