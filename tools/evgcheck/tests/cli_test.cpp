// The evgcheck binary as a user runs it: exit codes and the messages on bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Result {
    int code = -1;
    std::string out;
    std::string err;
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

fs::path scratch() {
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("evgcheck_cli_test_" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

// Runs `evgcheck <args>` through the shell; args are passed as written (quote them in the string).
// `env`: assignments put before the command, e.g. "FAKE_PROPS_FAIL=X".
// Runs a command line through the shell as a user would paste it.
Result shell(const std::string& line) {
    const fs::path err = scratch() / "stderr.txt";
    const std::string cmd = line + " 2>" + err.string();
    Result r;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (p == nullptr) return r;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = slurp(err);
    return r;
}

Result evgcheck(const std::string& args, const std::string& env = "") {
    return shell(env + " " + std::string(EVGCHECK_BINARY) + " " + args);
}

std::string example(const std::string& name) {
    return std::string(EVGCHECK_EXAMPLES_DIR) + "/" + name;
}

// Writes a graph file in the scratch folder and returns its path.
std::string write_file(const std::string& name, const std::string& text) {
    const fs::path p = scratch() / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

}  // namespace

TEST(EvgcheckCli, NoArgumentsPrintsUsageAndExits2) {
    const Result r = evgcheck("");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("Usage: evgcheck COMMAND"), std::string::npos) << r.err;
}

TEST(EvgcheckCli, EverySubcommandHasHelp) {
    for (const char* cmd : {"run", "emit", "check"}) {
        const Result r = evgcheck(std::string(cmd) + " --help");
        EXPECT_EQ(r.code, 0) << cmd;
        EXPECT_NE(r.out.find(std::string("Usage: evgcheck ") + cmd), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("Options:"), std::string::npos) << r.out;
        EXPECT_EQ(r.err, "");
    }
    const Result top = evgcheck("--help");
    EXPECT_EQ(top.code, 0);
    EXPECT_NE(top.out.find("run GRAPH"), std::string::npos);
}

TEST(EvgcheckCli, UnknownCommandSuggestsTheNearestOne) {
    const Result r = evgcheck("rn x.evg");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err,
              "evgcheck: unknown command 'rn'; did you mean 'run'? (commands: run, check, emit, conformance, "
              "fuzz, sync-table, report, run-program; see evgcheck --help)\n");
}

TEST(EvgcheckCli, BadOptionsNameTheOption) {
    struct Case {
        std::string args;
        std::string message;
    };
    const std::string add = example("add_relu.evg");
    const Case cases[] = {
        {"run " + add + " --mm 4",
         "evgcheck run: unknown option '--mm'; did you mean '--m'? (see evgcheck run --help)"},
        {"run " + add + " --m abc", "evgcheck run: option --m: expected an integer, found 'abc'"},
        {"run " + add + " --m 0", "evgcheck run: option --m: 0 is out of range [1, 65536]"},
        {"run " + add + " --m 99999999999999999999",
         "evgcheck run: option --m: 99999999999999999999 is out of range [1, 65536]"},
        {"run " + add + " --m", "evgcheck run: option --m needs a value (M)"},
        {"run " + add + " --m 4 --m 5", "evgcheck run: option --m is given twice"},
        {"run " + add + " --compute-length 33",
         "evgcheck run: option --compute-length: 33 is not a multiple of 32 (or write max)"},
        {"run " + add + " --path l1", "evgcheck run: option --path: expected gm or ub, found 'l1'"},
        {"run " + add + " --arch AtlasA3",
         "evgcheck run: option --arch: unknown arch 'AtlasA3'; did you mean 'AtlasA2'? (AtlasA2 or "
         "Ascend950)"},
        {"run " + add + " --data random",
         "evgcheck run: option --data: expected exact, uniform or special, found 'random'"},
        {"run " + add + " --timeout -1",
         "evgcheck run: option --timeout: expected a number of seconds in (0, 86400], found '-1'"},
        {"run", "evgcheck run: expected a GRAPH file (see evgcheck run --help)"},
        {"run a.evg b.evg",
         "evgcheck run: unexpected argument 'b.evg' (it takes one file; options start with --)"},
        {"emit " + add + " --help=yes", "evgcheck emit: option --help takes no value"},
        {"check --cases many", "evgcheck check: option --cases: expected an integer, found 'many'"},
        {"check extra", "evgcheck check: unexpected argument 'extra' (this command takes no file)"},
    };
    for (const Case& c : cases) {
        const Result r = evgcheck(c.args);
        EXPECT_EQ(r.code, 2) << c.args;
        EXPECT_EQ(r.err, c.message + "\n") << c.args;
        EXPECT_EQ(r.out, "") << c.args;
    }
}

TEST(EvgcheckCli, UnreadableFilesExit2) {
    Result r = evgcheck("emit /nonexistent/graph.evg");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "/nonexistent/graph.evg: cannot open the file (does it exist?)\n");
    r = evgcheck("emit " + scratch().string());
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, scratch().string() + ": is a directory, not a graph file\n");
}

TEST(EvgcheckCli, MalformedTextGetsFileLineColumn) {
    const std::string f = write_file("typo.evg",
                                     "output D : float[4, 8]\n"
                                     "%0 = AccLoad float\n"
                                     "%1 = Compute Addd float (%0, %0)\n"
                                     "%2 = AuxStore float D (%1)\n");
    for (const char* cmd : {"emit ", "run "}) {
        const Result r = evgcheck(cmd + f);
        EXPECT_EQ(r.code, 2) << cmd;
        EXPECT_EQ(r.err, f + ":3:14: unknown functor 'Addd'; did you mean 'Adds'?\n") << cmd;
        EXPECT_EQ(r.out, "");
    }
    const std::string bin = write_file("binary.evg", std::string("\x01\xff\x00garbage\n", 11));
    const Result r = evgcheck("emit " + bin);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, bin + ":1:1: unexpected character byte 0x01 (a control character)\n") << r.err;
}

// A NUL or a byte >= 0x80 in the file is shown by its value: the message is whole and prints no raw byte.
TEST(EvgcheckCli, NulAndNonAsciiBytesArePrintedEscaped) {
    const std::string nul =
        write_file("nul.evg", std::string("output D : float[4, 8]\n%0 = AccLoad float \0 x\n", 46));
    Result r = evgcheck("emit " + nul);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, nul + ":2:20: unexpected character byte 0x00 (NUL)\n") << r.err;
    const std::string ff =
        write_file("ff.evg", "output D : float[4, 8]\n%0 = AccLoad float\n%1 = AuxStore float D \xff\n");
    r = evgcheck("emit " + ff);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, ff + ":3:23: unexpected character byte 0xFF (not ASCII; the format is ASCII text)\n")
        << r.err;
    for (const char c : r.err) EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << "raw byte in " << r.err;
}

// A reduce's functor is suggested among the reduce functors, and a scalar written without brackets gets the
// bracketed spelling.
TEST(EvgcheckCli, FunctorAndScalarMistakesGetTheRightHint) {
    const std::string sum = write_file("sum.evg",
                                       "output D : float[4, 1]\n"
                                       "%0 = AccLoad float\n"
                                       "%1 = RowReduce Sum float D (%0)\n");
    Result r = evgcheck("emit " + sum);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err,
              sum +
                  ":3:16: unknown functor 'Sum' for RowReduce; did you mean 'Add'? (a reduce sums with "
                  "Add) (a reduce takes Add, Max, Min)\n")
        << r.err;
    EXPECT_EQ(r.err.find("Sub"), std::string::npos) << r.err;
    const std::string mx = write_file("mx.evg",
                                      "output D : float[4, 1]\n"
                                      "%0 = AccLoad float\n"
                                      "%1 = RowReduce Mx float D (%0)\n");
    r = evgcheck("emit " + mx);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown functor 'Mx' for RowReduce; did you mean 'Max'?"), std::string::npos)
        << r.err;
    const std::string leaky = write_file("leaky.evg",
                                         "output D : float[4, 8]\n"
                                         "%0 = AccLoad float\n"
                                         "%1 = Compute LeakyRelu float 0.1 (%0)\n"
                                         "%2 = AuxStore float D (%1)\n");
    r = evgcheck("emit " + leaky);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, leaky +
                         ":3:30: a scalar goes in brackets after the element type: write 'LeakyRelu float "
                         "[0.1]'\n")
        << r.err;
}

// A message about a value of the problem line points at that value's key, not at the line's start.
TEST(EvgcheckCli, ProblemLineErrorsPointAtTheirKey) {
    const std::string line = "problem arch=AtlasA2 m=4 n=8 k=16 a=half b=half c=float cl=65536";
    const std::string f = write_file("cl_key.evg", line +
                                                       "\noutput D : float[4, 8]\n"
                                                       "%0 = AccLoad float\n"
                                                       "%1 = AuxStore float D (%0)\n");
    const Result r = evgcheck("emit " + f);
    EXPECT_EQ(r.code, 2);
    const std::string col = std::to_string(line.find(" cl=") + 2);
    EXPECT_EQ(r.err.rfind(f + ":1:" + col + ": error [ub-overflow] computeLength 65536 needs ", 0), 0u)
        << r.err;
}

// Option values are matched without regard to case, for every option with named values.
TEST(EvgcheckCli, OptionValuesIgnoreCase) {
    const std::string f = write_file("case.evg",
                                     "output D : float[4, 8]\n"
                                     "%0 = AccLoad float\n"
                                     "%1 = AuxStore float D (%0)\n");
    for (const std::string& opts : {std::string("--compute-length MAX"), std::string("--arch ATLASA2"),
                                    std::string("--arch ascend950 --path UB"), std::string("--path Gm")}) {
        std::string args = "emit ";
        args += f;
        args += " ";
        args += opts;
        const Result r = evgcheck(args);
        EXPECT_EQ(r.code, 0) << opts << ": " << r.err;
    }
    const Result r = evgcheck("run " + f + " --data SPECIAL");
    EXPECT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("special values"), std::string::npos) << r.out;
}

// --version, and - for standard input (messages name it <stdin>).
TEST(EvgcheckCli, VersionAndStandardInput) {
    Result r = evgcheck("--version");
    EXPECT_EQ(r.code, 0);
    EXPECT_TRUE(std::regex_match(r.out, std::regex("evgcheck [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << r.out;
    const std::string file = example("add_relu.evg");
    const Result direct = evgcheck("emit " + file);
    ASSERT_EQ(direct.code, 0) << direct.err;
    r = shell("cat " + file + " | " + std::string(EVGCHECK_BINARY) + " emit -");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, direct.out);
    r = shell("printf '%%0 = AccLod float\\n' | " + std::string(EVGCHECK_BINARY) + " emit -");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("<stdin>:1:6: unknown node kind 'AccLod'", 0), 0u) << r.err;
}

// NaN and infinity in an output are counted per output in the text and the JSON, and named on the result
// line, even when the comparison passes (the oracle expects them).
TEST(EvgcheckRun, NanAndInfinityInOutputsAreCountedAndSaid) {
    const std::string f = write_file("nan.evg",
                                     "problem arch=AtlasA2 m=4 n=8 k=16 a=half b=half c=float cl=64\n"
                                     "output D : float[4, 8]\n"
                                     "output E : float[4, 8]\n"
                                     "%0 = AccLoad float\n"
                                     "%1 = Compute Adds float [inf] (%0)\n"
                                     "%2 = AuxStore float E (%1)\n"
                                     "%3 = Compute Muls float [nan] (%2)\n"
                                     "%4 = AuxStore float D (%3)\n");
    const fs::path json = scratch() / "nan.json";
    const Result r = evgcheck("run " + f + " --json " + json.string());
    EXPECT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("; 32 NaN, 0 infinite\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("; 0 NaN, 32 infinite\n"), std::string::npos) << r.out;
    EXPECT_TRUE(r.out.ends_with("result: PASS (D 32 NaN, 0 infinite; E 0 NaN, 32 infinite)\n")) << r.out;
    const std::string j = slurp(json);
    EXPECT_NE(j.find("\"nan\": 32"), std::string::npos) << j;
    EXPECT_NE(j.find("\"inf\": 32"), std::string::npos) << j;
    // Finite outputs: the counts are zero and the result line says PASS alone.
    const Result finite = evgcheck("run " + example("add_relu.evg"));
    EXPECT_NE(finite.out.find("; 0 NaN, 0 infinite\n"), std::string::npos) << finite.out;
    EXPECT_TRUE(finite.out.ends_with("result: PASS\n")) << finite.out;
}

// Under --data special, A and B are integers: the reason for a loose comparison does not claim real-valued
// GEMM data.
TEST(EvgcheckRun, SpecialDataReasonDoesNotCallIntegerGemmDataReal) {
    const Result r = evgcheck("run " + example("add_relu.evg") + " --data special");
    EXPECT_NE(r.out.find("data: integers in [-"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("real-valued"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the data is not exact-friendly"), std::string::npos) << r.out;
}

// The adversarial scheduler's statistics are in the text output, as they are in the JSON.
TEST(EvgcheckRun, AdversarialScheduleStatisticsArePrinted) {
    const std::string f = write_file("adv.evg",
                                     "output D : float[4, 8]\n"
                                     "%0 = AccLoad float\n"
                                     "%1 = AuxStore float D (%0)\n");
    const Result r = evgcheck("run " + f + " --scheduler-seed 3");
    EXPECT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("schedule: adversarial, seed 3, "), std::string::npos) << r.out;
    const Result in_order = evgcheck("run " + f);
    EXPECT_EQ(in_order.out.find("schedule: adversarial"), std::string::npos) << in_order.out;
}

// An output file's folder must exist: it is never created.
TEST(EvgcheckCli, AMissingFolderForAnOutputFileIsRefusedNotCreated) {
    const fs::path missing = scratch() / "no_such_folder";
    fs::remove_all(missing);
    for (const char* option : {"--json", "--timeline"}) {
        const std::string path = (missing / (std::string(option) == "--json" ? "r.json" : "t.html")).string();
        const Result r = evgcheck("run " + example("add_relu.evg") + " " + option + " " + path);
        EXPECT_EQ(r.code, 2) << option;
        EXPECT_EQ(r.out, "");
        EXPECT_NE(r.err.find("cannot write '" + path + "': the folder '" + missing.string() +
                             "' does not exist (create it first)"),
                  std::string::npos)
            << r.err;
        EXPECT_FALSE(fs::exists(missing)) << option << " created " << missing;
    }
}

TEST(EvgcheckCli, BrokenRulesAreDiagnosticsWithTheirPosition) {
    const std::string types = write_file("types.evg",
                                         "output D : half[4, 8]\n"
                                         "%0 = AccLoad float\n"
                                         "%1 = AuxStore half D (%0)\n");
    Result r = evgcheck("emit " + types);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err,
              types +
                  ":3:1: error [store-dtype] %1 AuxStore half: input %0 is float; insert a Cast to half "
                  "before the store\n");
    // bf16 arithmetic: an error on AtlasA2 (the problem line), fine with --arch Ascend950.
    const std::string bf16 = write_file("bf16.evg",
                                        "problem arch=AtlasA2 m=4 n=8 k=16 a=half b=half c=float cl=64\n"
                                        "output D : bfloat16[4, 8]\n"
                                        "%0 = AccLoad float\n"
                                        "%1 = Cast bfloat16 <- float CAST_RINT (%0)\n"
                                        "%2 = Compute Relu bfloat16 (%1)\n"
                                        "%3 = AuxStore bfloat16 D (%2)\n");
    r = evgcheck("emit " + bf16);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, bf16 +
                         ":5:1: error [bf16-arithmetic] %2 Compute Relu bfloat16: AtlasA2 has no bfloat16 "
                         "arithmetic; cast to float first\n");
    r = evgcheck("emit " + bf16 + " --arch Ascend950");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("// Ascend950: m=4 n=8 k=16"), std::string::npos) << r.out;
    // computeLength too large for the UB: the validator's sentence, at the problem line.
    r = evgcheck("emit " + bf16 + " --arch Ascend950 --compute-length 65536");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind(bf16 + ":1:1: error [ub-overflow] computeLength 65536 needs ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("(the largest computeLength that fits is 15872)\n"), std::string::npos) << r.err;
}

// A declared output no node writes is refused before anything runs, with its rule and line: no run, JSON or
// exit code can report PASS for an output that was never written.
TEST(EvgcheckRun, AnOutputNoNodeWritesIsRefusedNotPassed) {
    const std::string f = write_file("unwritten.evg",
                                     "problem arch=AtlasA2 m=4 n=8 k=16 a=half b=half c=float cl=64\n"
                                     "output D : float[4, 8]\n"
                                     "output E : float[4, 8]\n"
                                     "%0 = AccLoad float\n"
                                     "%1 = AuxStore float D (%0)\n");
    const fs::path json = scratch() / "unwritten.json";
    fs::remove(json);
    const Result r = evgcheck("run " + f + " --json " + json.string());
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(
        r.err.find(f + ":3:1: error [output-without-writer] output 'E' is declared but no AuxStore or reduce "
                       "node writes it"),
        std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("PASS"), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(json)) << "a refused graph wrote a JSON report";
}

TEST(EvgcheckCli, EmitPrintsTheExamplesAsCpp) {
    Result r = evgcheck("emit " + example("add_relu.evg"));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("// AtlasA2: m=100 n=300 k=64, A half, B half, C float, computeLength 1024", 0), 0u)
        << r.out;
    EXPECT_NE(r.out.find("using EVG = Catlass::Epilogue::Fusion::TreeVisitor<"), std::string::npos);
    EXPECT_NE(r.out.find("typename EVG::Arguments args{"), std::string::npos);
    r = evgcheck("emit " + example("shared_dag.evg"));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("using EVG = Catlass::Epilogue::Fusion::TopologicalVisitor<"), std::string::npos);
    // A bare graph prints without the problem comment; with an option it becomes a problem.
    r = evgcheck("emit " + example("leaky_relu.evg"));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("auto layoutD = tla::MakeLayout<float, Catlass::layout::RowMajor>(128, 256);", 0),
              0u)
        << r.out;
    r = evgcheck("emit " + example("leaky_relu.evg") + " --m 40 --n 72");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("// AtlasA2: m=40 n=72 k=256"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("MakeLayout<float, Catlass::layout::RowMajor>(40, 72);"), std::string::npos)
        << r.out;
}

TEST(EvgcheckCli, BareGraphWithoutTensorsNeedsShapes) {
    const std::string f = write_file("notensors.evg", "%0 = AccLoad float\n%1 = Compute Relu float (%0)\n");
    const Result r = evgcheck("run " + f);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err,
              f + ": the graph has no tensors to take M and N from; give --m and --n (or a problem line)\n");
}

// The file's shapes get the ranges of the options.
TEST(EvgcheckCli, FileShapesOutOfTheOptionsRangeAreRefused) {
    const std::string f = write_file("m_too_large.evg",
                                     "# a comment line first\n"
                                     "problem arch=AtlasA2 m=70000 n=8 k=16 a=half b=half c=float cl=64\n"
                                     "output D : float[70000, 8]\n"
                                     "%0 = AccLoad float\n%1 = AuxStore float D (%0)\n");
    Result r = evgcheck("run " + f);
    EXPECT_EQ(r.code, 2);
    // At the m= key of the problem line (line 2).
    const std::string line = "problem arch=AtlasA2 m=70000 n=8 k=16 a=half b=half c=float cl=64";
    EXPECT_EQ(r.err, f + ":2:" + std::to_string(line.find(" m=") + 2) +
                         ": m=70000 is out of range [1, 65536] (the range of --m)\n");
    // The option overrides the file's value, and is itself in range: the run goes on.
    r = evgcheck("run " + f + " --m 4");
    EXPECT_EQ(r.code, 0) << r.err;
}

// A problem too large for the memory limit is refused before anything is allocated, naming the estimate and
// the option that raises the limit; the limit can be raised (or lowered) per run.
TEST(EvgcheckCli, TooLargeProblemsAreRefusedUpFront) {
    const std::string f =
        write_file("huge.evg",
                   "problem arch=AtlasA2 m=65536 n=65536 k=64 a=half b=half c=float cl=1024\n"
                   "input  X : half[65536, 65536]\noutput D : half[65536, 65536]\n"
                   "%0 = AccLoad float\n%1 = AuxLoad half X\n%2 = Cast float <- half (%1)\n"
                   "%3 = Compute Add float (%0, %2)\n%4 = Cast half <- float CAST_RINT (%3)\n"
                   "%5 = AuxStore half D (%4)\n");
    const auto start = std::chrono::steady_clock::now();
    Result r = evgcheck("run " + f);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("evgcheck: " + f + ": the run would need about ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(" GiB of memory"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the limit is 8 GiB: raise it with --max-memory MIB\n"), std::string::npos) << r.err;

    r = evgcheck("run " + example("add_relu.evg") + " --max-memory 1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("the limit is 1 MiB: raise it with --max-memory MIB"), std::string::npos) << r.err;
    r = evgcheck("run " + example("add_relu.evg") + " --max-work 1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("element operations"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("raise it with --max-work MILLIONS"), std::string::npos) << r.err;
    r = evgcheck("run " + example("add_relu.evg") + " --max-memory 64 --max-work 100");
    EXPECT_EQ(r.code, 0) << r.err;
}

// A long graph on a large shape: the model's per-instruction memory counts (a 700-node chain at 1024 x 512
// issues about 23 M instructions and peaked at 12.5 GB before it was counted, above the 8 GiB default).
// A 700-node chain at 1024 x 512 (3.5e7 instructions): without the trace its memory is the data and a few
// oracle matrices, so a 256-MiB limit lets it through (and --max-work stops it before it runs, saying so);
// with the trace (--list-mutations) the estimate counts 48 B per instruction and refuses it up front.
TEST(EvgcheckCli, ALongChainCostsMemoryOnlyWhenItsTraceIsKept) {
    std::ostringstream text;
    text << "problem arch=AtlasA2 m=1024 n=512 k=64 a=half b=half c=float cl=32 path=gm\n"
         << "output D : float[1024, 512]\n%0 = AccLoad float\n";
    for (int i = 1; i < 700; ++i) text << '%' << i << " = Compute Adds float [1] (%" << i - 1 << ")\n";
    text << "%700 = AuxStore float D (%699)\n";
    const std::string f = write_file("chain700.evg", text.str());
    const auto start = std::chrono::steady_clock::now();
    const Result traced = evgcheck("run " + f + " --list-mutations --max-memory 256");
    EXPECT_EQ(traced.code, 2);
    EXPECT_NE(
        traced.err.find("and the trace of about 3.45e+07 instructions at 48 B each); the limit is 256 MiB: "
                        "raise it with --max-memory MIB"),
        std::string::npos)
        << traced.err;
    const Result untraced = evgcheck("run " + f + " --max-memory 256 --max-work 1");
    EXPECT_EQ(untraced.code, 2);
    EXPECT_EQ(untraced.err.find("--max-memory"), std::string::npos) << untraced.err;  // memory is no object
    EXPECT_NE(untraced.err.find("element operations"), std::string::npos) << untraced.err;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));  // neither ran
}

// `evgcheck fuzz` without a libFuzzer binary says how to build one; bad options exit 2.
TEST(EvgcheckFuzz, MissingBinaryAndBadOptions) {
    Result r = evgcheck("fuzz graph_text --time 1 --fuzz-bin " + scratch().string());
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("no libFuzzer binary fuzz_graph_text (looked in "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("build them with: cmake --preset fuzz && cmake --build build/fuzz"),
              std::string::npos)
        << r.err;
    r = evgcheck("fuzz graph_text");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "evgcheck fuzz: option --time is required (seconds of fuzzing)\n");
    r = evgcheck("fuzz graph_text --time 1 --jobs 0");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "evgcheck fuzz: option --jobs: 0 is out of range [1, 256]\n");
}

// A fuzz binary that cannot run here, or a bad line in its .options, exits 2 at once naming the cause: the
// session's worker threads used to let the start failure escape (std::terminate), and the progress line ran
// for the whole --time with no worker left.
TEST(EvgcheckFuzz, ABinaryThatCannotStartOrABadOptionsLineIsABadInput) {
    const fs::path bin = scratch() / "notelf";
    fs::create_directories(bin);
    write_file("notelf/fuzz_graph_text", "not an executable of this machine\n");
    fs::permissions(bin / "fuzz_graph_text", fs::perms::owner_all);
    const auto start = std::chrono::steady_clock::now();
    Result r = evgcheck("fuzz graph_text --time 30 --fuzz-bin " + bin.string() + " --out " +
                        (scratch() / "notelf_out").string());
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("cannot start '" + (bin / "fuzz_graph_text").string() +
                         "': Exec format error: is it a "
                         "libFuzzer binary built on this machine"),
              std::string::npos)
        << r.err;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));  // not the whole --time
    write_file("notelf/fuzz_graph_text.options", "[libfuzzer]\ntimeout = 10\nmax len = 4\n");
    r = evgcheck("fuzz graph_text --time 30 --fuzz-bin " + bin.string());
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "evgcheck fuzz: " + (bin / "fuzz_graph_text.options").string() +
                         ": line 3: expected `key = value` in [libfuzzer], got 'max len = 4'\n");
}

// `check` drives a property binary; fake_props.sh stands in for it (gtest listing, rapidcheck output).
std::string fake_props() {
    return std::string(EVGCHECK_TESTS_DIR) + "/fake_props.sh";
}

TEST(EvgcheckCheck, PassesRcParamsAndCountsCases) {
    const Result r = evgcheck("check --binary " + fake_props() + " --cases 40 --seed 7 --jobs 2");
    EXPECT_EQ(r.code, 0) << r.err;
    // The planted-fault test is not a property of the user's library: left out.
    const std::string head =
        "evgcheck check: 2 properties, 40 cases each, seed 7, 2 jobs, time budget 3600 s\n"
        "ok   Props.OracleEquality (40 cases)\n"  // the runner's per-case lines
        // rapidcheck's "OK, passed 25 tests", and the line says so
        "ok   Props.FlagsBalance (25 cases; counted from rapidcheck's summary: the property printed no "
        "progress "
        "lines)\n"
        "evgcheck check: 2 properties passed, 65 cases in ";
    EXPECT_EQ(r.out.substr(0, head.size()), head) << r.out;
    EXPECT_TRUE(r.out.ends_with(" s (seed 7)\n")) << r.out;
    // Not a terminal: one progress line per property (the bar counts cases), then the full bar.
    EXPECT_EQ(r.err,
              "[........................] 0/80 cases, 0/2 properties: Props.OracleEquality\n"
              "[############............] 40/80 cases, 1/2 properties: Props.FlagsBalance\n"
              "[########################] 65 cases, 2/2 properties\n");
}

TEST(EvgcheckCheck, TheBarMovesPerCaseOnATerminal) {
    // Under `script`, stderr is a terminal: the bar is redrawn after every passing case of the runner.
    const Result r = shell("script -qfec \"" + std::string(EVGCHECK_BINARY) + " check --binary " +
                           fake_props() + " --cases 4 --seed 7 --filter 'Props.OracleEquality'\" /dev/null");
    EXPECT_EQ(r.code, 0) << r.out;
    for (int k = 1; k <= 4; ++k)
        EXPECT_NE(r.out.find("] " + std::to_string(k) + "/4 cases, 0/1 properties: Props.OracleEquality"),
                  std::string::npos)
            << r.out;
}

// The bar on the real property binary (not fake_props.sh, which retypes the line): the runner's progress
// lines (evg/props/progress_line.hpp) move it case by case, and the count is theirs, not the fallback's.
TEST(EvgcheckCheck, TheRealPropertyBinaryMovesTheBarPerCase) {
    const Result r =
        shell("script -qfec \"" + std::string(EVGCHECK_BINARY) +
              " check --cases 3 --seed 5 --jobs 1 --filter 'Props.CommutingInputsKeepsTheResult'\" "
              "/dev/null");
    EXPECT_EQ(r.code, 0) << r.out;
    for (int k = 1; k <= 3; ++k)
        EXPECT_NE(r.out.find("] " + std::to_string(k) +
                             "/3 cases, 0/1 properties: Props.CommutingInputsKeepsTheResult"),
                  std::string::npos)
            << "case " << k << " did not move the bar:\n"
            << r.out;
    EXPECT_NE(r.out.find("ok   Props.CommutingInputsKeepsTheResult (3 cases)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("counted from rapidcheck's summary"), std::string::npos) << r.out;
}

TEST(EvgcheckCheck, APlantedTestRunsWhenTheFilterNamesIt) {
    const Result r = evgcheck("check --binary " + fake_props() + " --list --filter '*Planted*'");
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "Props.PlantedHazardIsFound\n");
}

TEST(EvgcheckCheck, AFailingPropertyExits1WithItsShrunkCase) {
    const Result r = evgcheck("check --binary " + fake_props() + " --seed 7 --cases 30 --jobs 3",
                              "FAKE_PROPS_FAIL=FlagsBalance");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("ok   Props.OracleEquality (30 cases)\nFAILED Props.FlagsBalance (seed 7)\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(
        r.out.find("RC_PARAMS=max_success=30 seed=7\nEVG_PROPS_JOBS=3\nFalsifiable after 7 tests and 12 "
                   "shrinks\n%0 = AccLoad float\n%1 = AuxStore float D (%0)\n"),
        std::string::npos)
        << r.out;
    const std::string replay =
        "replay: RC_PARAMS='max_success=30 seed=7' EVG_PROPS_CASE_COUNT=30 "
        "EVG_PROPS_SEED=7 EVG_PROPS_JOBS=3 " +
        fake_props() + " --gtest_filter='Props.FlagsBalance'\n";
    ASSERT_NE(r.out.find(replay), std::string::npos) << r.out;
    // The line replays as printed: run through a shell, the property fails again with the same parameters.
    const std::string line = replay.substr(8, replay.size() - 9);
    const Result again = shell("FAKE_PROPS_FAIL=FlagsBalance " + line);
    EXPECT_EQ(again.code, 1) << again.out;
    EXPECT_NE(again.out.find("RC_PARAMS=max_success=30 seed=7\nEVG_PROPS_JOBS=3\nFalsifiable after"),
              std::string::npos)
        << again.out;
}

TEST(EvgcheckCheck, TheTimeBudgetStopsASlowProperty) {
    const auto t0 = std::chrono::steady_clock::now();
    const Result r =
        evgcheck("check --binary " + fake_props() + " --seed 3 --time-budget 1", "FAKE_PROPS_SLEEP=30");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
    EXPECT_EQ(r.code, 3);
    EXPECT_NE(r.err.find("evgcheck check: the time budget of 1 s ran out during Props.FlagsBalance (1 of 2 "
                         "properties passed; raise --time-budget or lower --cases)\n"),
              std::string::npos)
        << r.err;
}

// The text between two marker lines of a property failure report.
std::string section(const std::string& text, const std::string& from, const std::string& to) {
    const size_t a = text.find(from);
    if (a == std::string::npos) return {};
    const size_t b = text.find(to, a + from.size());
    return text.substr(a + from.size(), b == std::string::npos ? std::string::npos : b - a - from.size());
}

// `check --planted`: with upstream's missing RowBroadcast barrier switched on, the oracle property fails on
// the real property binary, the case is shrunk, and both printed replay lines (the property's and evgcheck's)
// run as printed from another folder and fail with the same minimal graph.
TEST(EvgcheckCheck, PlantedHazardFailsShrinksAndItsReplayLinesReplay) {
    const Result r = evgcheck(
        "check --planted row_broadcast_no_barrier --cases 400 --seed 1001 --jobs 1 "
        "--filter 'Props.ModelMatchesOracleAndCheckersAreClean'");
    ASSERT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("FAILED Props.ModelMatchesOracleAndCheckersAreClean"), std::string::npos) << r.out;
    const std::string graph = section(r.out, "--- graph ---\n", "--- C++ ---");
    ASSERT_FALSE(graph.empty()) << r.out;
    EXPECT_NE(graph.find("RowBroadcast"), std::string::npos) << graph;
    EXPECT_NE(r.out.find("race"), std::string::npos) << r.out;
    const std::string property_line = section(r.out, "--- replay ---\n", "\n");
    const std::string check_line = section(r.out, "\nreplay: ", "\n");
    ASSERT_FALSE(property_line.empty()) << r.out;
    ASSERT_FALSE(check_line.empty()) << r.out;
    for (const std::string& line : {property_line, check_line}) {
        EXPECT_NE(line.find("EVG_PROPS_PLANTED=row_broadcast_no_barrier"), std::string::npos) << line;
        const Result again = shell("cd / && " + line);
        EXPECT_NE(again.code, 0) << line << "\n" << again.out;
        EXPECT_EQ(section(again.out, "--- graph ---\n", "--- C++ ---"), graph) << line << "\n" << again.out;
    }
}

TEST(EvgcheckCheck, ListsAndRejectsAMissingBinary) {
    Result r = evgcheck("check --binary " + fake_props() + " --list");
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "Props.OracleEquality\nProps.FlagsBalance\n");
    r = evgcheck("check --binary /nonexistent/props");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(
        r.err,
        "evgcheck check: the property binary '/nonexistent/props' is not there or not executable (build it, "
        "or give --binary PATH)\n");
}

TEST(EvgcheckRun, ExamplesRunCleanAndBitExact) {
    for (const char* name : {"add_relu.evg", "bias_ub.evg", "shared_dag.evg", "leaky_relu.evg"}) {
        const Result r = evgcheck("run " + example(name));
        EXPECT_EQ(r.code, 0) << name << "\n" << r.out << r.err;
        EXPECT_NE(r.out.find("model: clean, "), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("match (bit-exact), max 0 ULP"), std::string::npos) << r.out;
        EXPECT_TRUE(r.out.ends_with("result: PASS\n")) << r.out;
    }
}

TEST(EvgcheckRun, OptionsOverrideTheProblemLineAndJsonIsWritten) {
    const std::string json = (scratch() / "report.json").string();
    const Result r =
        evgcheck("run " + example("add_relu.evg") +
                 " --arch Ascend950 --m 33 --n 65 --k 17 --compute-length 256 --seed 9 --json " + json);
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_EQ(r.out.rfind("problem arch=Ascend950 m=33 n=65 k=17 a=half b=half c=float cl=256 path=gm "
                          "tile=256x256x128\n",
                          0),
              0u)
        << r.out;
    EXPECT_NE(r.out.find("D: equal (no transcendental functor and no order-dependent sum feeds it); 0 NaN, 0 "
                         "infinite\n  all 2145 elements match (bit-exact), max 0 ULP\n"),
              std::string::npos)
        << r.out;
    const std::string j = slurp(json);
    EXPECT_NE(j.find("\"ok\": true"), std::string::npos) << j;
    EXPECT_NE(j.find("\"seed\": 9"), std::string::npos) << j;
    EXPECT_NE(j.find("\"mismatches\": 0"), std::string::npos) << j;
}

TEST(EvgcheckRun, TheUbPathOnAtlasA2IsRejectedAtTheProblemLine) {
    const std::string f = write_file("path.evg",
                                     "problem arch=AtlasA2 m=4 n=8 k=16 a=half b=half c=float cl=64 path=ub\n"
                                     "output D : float[4, 8]\n"
                                     "%0 = AccLoad float ub\n"
                                     "%1 = AuxStore float D (%0)\n");
    const Result r = evgcheck("run " + f);
    EXPECT_EQ(r.code, 2);
    // At the path= key of the problem line.
    const std::string line = "problem arch=AtlasA2 m=4 n=8 k=16 a=half b=half c=float cl=64 path=ub";
    EXPECT_EQ(r.err.rfind(f + ":1:" + std::to_string(line.find("path=") + 1) + ": error [", 0), 0u) << r.err;
}

// --timeline: the cycle model's summary is printed with the run and under "cycles" in --json, the timeline
// file is written (JSON or a page), and the result is the run's without it (timing reads the finished trace).
TEST(EvgcheckRun, TimelineWritesTheFileAndPrintsTheSummary) {
    const std::string tl = (scratch() / "add_relu_timeline.json").string();
    const std::string json = (scratch() / "add_relu_timed.json").string();
    const Result plain = evgcheck("run " + example("add_relu.evg"));
    const Result r = evgcheck("run " + example("add_relu.evg") + " --timeline " + tl + " --json " + json);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("cycle model (AtlasA2, 1.85 GHz; docs/cycle-model.md): "), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("MTE2/V/MTE3 overlap on the AIVs: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  critical path: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  roofline: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("timeline: " + tl + "\n"), std::string::npos) << r.out;
    // Everything the plain run printed, the timed run prints too, in the same order.
    size_t at = 0;
    std::istringstream lines(plain.out);
    for (std::string line; std::getline(lines, line);) {
        at = r.out.find(line, at);
        ASSERT_NE(at, std::string::npos) << "the timed run lost the line: " << line;
    }
    const std::string trace = slurp(tl);
    EXPECT_EQ(trace.rfind("{\"displayTimeUnit\"", 0), 0u);
    EXPECT_NE(trace.find("\"traceEvents\""), std::string::npos);
    EXPECT_NE(slurp(json).find("\"cycles\": {"), std::string::npos);
    const std::string page = (scratch() / "add_relu_timeline.html").string();
    const Result h = evgcheck("run " + example("add_relu.evg") + " --timeline " + page);
    ASSERT_EQ(h.code, 0) << h.out << h.err;
    EXPECT_NE(slurp(page).find("<canvas"), std::string::npos);
}

// A launch of more than 12 cores: the summary lists the busiest AIC and AIV only, and says so.
TEST(EvgcheckRun, TimelineSummaryOfALargeLaunchShowsTheBusiestCores) {
    const std::string tl = (scratch() / "many_cores.json").string();
    const Result r = evgcheck("run " + example("add_relu.evg") + " --cores 8 --timeline " + tl);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(
        r.out.find("  (24 cores ran; above, the busiest AIC and AIV; the timeline file has every core)\n"),
        std::string::npos)
        << r.out;
    std::set<std::string> cores;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("  AIC") || line.starts_with("  AIV"))
            cores.insert(line.substr(2, line.find(' ', 2) - 2));
    EXPECT_EQ(cores.size(), 2u) << r.out;
    EXPECT_NE(slurp(tl).find("\"AIV7.1\""), std::string::npos);  // the file names every core
}

TEST(EvgcheckRun, TimelineNeedsAJsonOrHtmlFile) {
    const Result r =
        evgcheck("run " + example("add_relu.evg") + " --timeline " + (scratch() / "t.txt").string());
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(
        r.err.find("evgcheck run: option --timeline: the file must end in .json (Chrome trace / Perfetto) or "
                   ".html (a page)"),
        std::string::npos)
        << r.err;
}

// An output path that cannot be written is refused before any work, naming the option.
TEST(EvgcheckCli, OutputPathsAreCheckedBeforeAnyWork) {
    const std::string file = write_file("not_a_folder.txt", "x");
    const Result json = evgcheck("run " + example("add_relu.evg") + " --json " + file + "/r.json");
    EXPECT_EQ(json.code, 2) << json.out << json.err;
    EXPECT_EQ(json.out, "");  // nothing ran
    EXPECT_NE(json.err.find("evgcheck run: option --json: cannot write '" + file + "/r.json'"),
              std::string::npos)
        << json.err;
    const Result dir = evgcheck("run " + example("add_relu.evg") + " --json " + scratch().string());
    EXPECT_EQ(dir.code, 2);
    EXPECT_NE(dir.err.find("it is a folder"), std::string::npos) << dir.err;
    const Result conf = evgcheck("conformance --filter 'Node/*' --out " + file + "/report");
    EXPECT_EQ(conf.code, 2) << conf.out << conf.err;
    EXPECT_NE(conf.err.find("evgcheck conformance: option --out: cannot write to '" + file + "/report'"),
              std::string::npos)
        << conf.err;
    const Result table = evgcheck("sync-table --small --graphs 1 --out " + file + "/t");
    EXPECT_EQ(table.code, 2) << table.out << table.err;
    EXPECT_NE(table.err.find("evgcheck sync-table: option --out: "), std::string::npos) << table.err;
}

// Two shards of a table, merged, are the table of one run: same rows, totals and runs; bad shards and merges
// are usage errors naming the option.
TEST(EvgcheckSyncTable, ShardsMergeToTheWholeTable) {
    const std::string dir = scratch().string() + "/shards";
    const std::string opts = " --small --graphs 2 --examples 1 --no-kernels --arch AtlasA2 --adversarial 1 ";
    const Result whole = evgcheck("sync-table" + opts + "--out " + dir + "/whole");
    ASSERT_EQ(whole.code, 0) << whole.out << whole.err;
    const Result one = evgcheck("sync-table" + opts + "--shard 1/2 --out " + dir + "/one");
    const Result two = evgcheck("sync-table" + opts + "--shard 2/2 --out " + dir + "/two");
    ASSERT_EQ(one.code, 0) << one.err;
    ASSERT_EQ(two.code, 0) << two.err;
    EXPECT_NE(one.out, whole.out);  // each shard did part of the work
    const Result merged = evgcheck("sync-table --merge " + dir + "/one/sync_table.json " + dir +
                                   "/two/sync_table.json --out " + dir + "/merged");
    ASSERT_EQ(merged.code, 0) << merged.out << merged.err;
    auto table_part = [](const std::string& out) {  // the rows and totals, without the times and paths
        return out.substr(0, out.find("\nreport: "));
    };
    EXPECT_EQ(table_part(merged.out), table_part(whole.out));
    const Result bad = evgcheck("sync-table --shard 3/2");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--shard: 3/2 is not a shard"), std::string::npos) << bad.err;
    const Result lone = evgcheck("sync-table --merge " + dir + "/one/sync_table.json");
    EXPECT_EQ(lone.code, 2);
    EXPECT_NE(lone.err.find("--merge needs two or more"), std::string::npos) << lone.err;
    const Result stray = evgcheck("sync-table " + dir + "/one/sync_table.json");
    EXPECT_EQ(stray.code, 2);
    EXPECT_NE(stray.err.find("only --merge takes files"), std::string::npos) << stray.err;
}

// --catlass-root: the node suite on upstream's nodes, side by side with evgcheck's: the default family from
// the cells compiled into this evgcheck against the configured checkout, another family compiled at run time
// and tabled per family; the replay line of an upstream case names the checkout and replays; another checkout
// is compiled at run time (one that does not compile fails its cases), a folder that is none is refused
// naming the rule. A build without a checkout says so.
TEST(EvgcheckConformance, CatlassRootRunsUpstreamsNodesSideBySide) {
    const std::string root = EVGCHECK_TEST_CATLASS_ROOT;
    const std::string dir = scratch().string() + "/conformance-upstream";
    if (root.empty()) {
        const Result r = evgcheck("conformance --catlass-root /nowhere --out " + dir);
        EXPECT_EQ(r.code, 2);
        EXPECT_NE(r.err.find("this evgcheck was built without a Catlass checkout"), std::string::npos)
            << r.err;
        return;
    }
    const std::string canonical = fs::weakly_canonical(root).string();
    const Result r =
        evgcheck("conformance --catlass-root " + root +
                 " --families uf --filter '*Broadcast/Ascend950/float/*' --out " + dir + "/side");
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("upstream Catlass: " + canonical + " ("), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("upstream cases: 4 passed, 0 failed"), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(
RowBroadcast +float +pass 6 +pass 4 \(§4 4\)
)"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(
ColBroadcast +float +pass 6 +not in this Catlass
)"))) << r.out;
    EXPECT_NE(slurp(dir + "/side/report.md").find("## Upstream Catlass side by side"), std::string::npos);
    EXPECT_NE(slurp(dir + "/side/report.json").find("\"side_by_side\""), std::string::npos);

    // One upstream case's replay line, from the report, runs as printed.
    const std::string json = slurp(dir + "/side/report.json");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        json, m, std::regex(R"re("replay": "([^"]*Upstream/RowBroadcast[^"]*full[^"]*)")re")))
        << json.substr(0, 2000);
    const std::string replay = std::regex_replace(m[1].str(), std::regex(R"(\/)"), "/");
    EXPECT_NE(replay.find("--catlass-root " + canonical), std::string::npos) << replay;
    const Result again = shell(replay);
    EXPECT_EQ(again.code, 0) << replay << "\n" << again.out << again.err;
    EXPECT_NE(again.out.find("upstream cases: 1 passed, 0 failed"), std::string::npos) << again.out;

    // Another configuration family is compiled at run time (the check engine, its cache in --work-dir) and
    // reported per node kind x dtype x family; its cases' replay lines replay the same way.
    const Result families =
        evgcheck("conformance --catlass-root " + root +
                 " --families uf,l0c2 --filter '*RowBroadcast/Ascend950/float/*' --work-dir " + dir +
                 "/work --out " + dir + "/families");
    ASSERT_EQ(families.code, 0) << families.out << families.err;
    EXPECT_NE(families.out.find("upstream cases: 8 passed, 0 failed"), std::string::npos) << families.out;
    EXPECT_TRUE(std::regex_search(families.out, std::regex(R"(upstream by configuration family:
node kind +dtype +uf +l0c2
RowBroadcast +float +pass 4 +pass 4
)"))) << families.out;
    EXPECT_NE(families.out.find("cells compiled at run time"), std::string::npos) << families.out;
    EXPECT_NE(slurp(dir + "/families/report.md").find("### Upstream by configuration family"),
              std::string::npos);

    // Another checkout is compiled at run time: one that does not compile fails its cases with the
    // compiler's words, and the report says no kernel code was built; a folder that is none is refused.
    const fs::path other = scratch() / "other-catlass";
    fs::create_directories(other / "include" / "catlass");
    const Result wrong = evgcheck("conformance --catlass-root " + other.string() +
                                  " --filter 'Upstream/AccLoad/Ascend950/float/gm/uf/full/*' --work-dir " +
                                  dir + "/work --out " + dir + "/wrong");
    EXPECT_EQ(wrong.code, 1) << wrong.out << wrong.err;
    EXPECT_NE(wrong.out.find("upstream cases: 0 passed, 1 failed"), std::string::npos) << wrong.out;
    EXPECT_NE(slurp(dir + "/wrong/report.json").find("does not compile the cells"), std::string::npos);
    EXPECT_NE(wrong.out.find("none for the run-time cells (they did not compile)"), std::string::npos)
        << wrong.out;
    const Result none =
        evgcheck("conformance --catlass-root " + scratch().string() + " --out " + dir + "/none");
    EXPECT_EQ(none.code, 2);
    EXPECT_NE(none.err.find("is not a Catlass checkout (it has no include/catlass)"), std::string::npos)
        << none.err;
}

// --jobs 2 writes the report of --jobs 1: the same files, the same terminal output and progress lines, in
// catalogue order, but for the times and the --out folder. The subset mixes every node kind with upstream
// hazard cases, whose switches must stay with their own thread. Bad --jobs values are usage errors naming
// the option.
TEST(EvgcheckConformance, JobsTwoWritesTheReportOfJobsOne) {
    const std::string dir = scratch().string() + "/conformance-jobs";
    const std::string filter = " --filter '*tailM7N33/CL160*' ";
    const Result one = evgcheck("conformance" + filter + "--jobs 1 --out " + dir + "/one");
    const Result two = evgcheck("conformance" + filter + "--jobs 2 --out " + dir + "/two");
    ASSERT_EQ(one.code, 0) << one.out << one.err;
    EXPECT_EQ(two.code, one.code);
    ASSERT_NE(one.out.find("hazard cases: 4 passed"), std::string::npos) << one.out;
    // The times and the folder differ from run to run; everything else must not.
    const auto same_run = [&](std::string text, const std::string& sub) {
        text = std::regex_replace(text, std::regex(dir + "/" + sub), "OUT");
        text = std::regex_replace(text, std::regex(R"("seconds": [0-9.e+-]+)"), "\"seconds\": T");
        text = std::regex_replace(text, std::regex(R"(time="[0-9.]+")"), "time=\"T\"");
        return std::regex_replace(text, std::regex(R"( in [0-9.]+ s\b)"), " in T s");
    };
    const auto progress = [](const std::string& err) {  // the stderr notes carry the seconds so far
        // A sanitizer build's runtime notes ("==<pid>==WARNING: ...", one per process: with --jobs 2 they
        // come one after another) name the process, not evgcheck output: every such line goes.
        const std::regex note(R"(^==[0-9]+==)");
        std::istringstream lines(err);
        std::string kept;
        for (std::string line; std::getline(lines, line);)
            if (!std::regex_search(line, note)) kept.append(line).append("\n");
        return std::regex_replace(kept, std::regex(R"(failed, [0-9]+ s)"), "failed, T s");
    };
    EXPECT_EQ(same_run(two.out, "two"), same_run(one.out, "one"));
    EXPECT_EQ(progress(two.err), progress(one.err));
    for (const char* file : {"report.json", "report.md", "junit.xml", "report.html"}) {
        const std::string a = slurp(dir + "/one/" + file), b = slurp(dir + "/two/" + file);
        ASSERT_FALSE(a.empty()) << file;
        EXPECT_EQ(same_run(b, "two"), same_run(a, "one")) << file;
    }
    // The report's command line is the one that replays it; --jobs does not change what it says.
    EXPECT_NE(slurp(dir + "/two/report.md").find("--filter '*tailM7N33/CL160*' --out "), std::string::npos);

    Result r = evgcheck("conformance --jobs 0 --list");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "evgcheck conformance: option --jobs: 0 is out of range [1, 256]\n");
    r = evgcheck("conformance --jobs abc --list");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "evgcheck conformance: option --jobs: expected an integer, found 'abc'\n");
    r = evgcheck("check --binary " + fake_props() + " --jobs 0");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "evgcheck check: option --jobs: 0 is out of range [1, 256]\n");
}

// --hazard switches upstream's missing barrier after RowBroadcast on: the race checker reports it on AtlasA2
// (V does not keep order there) and not on Ascend950; without the switch the same run is clean.
TEST(EvgcheckRun, HazardSwitchesUpstreamBehaviourOn) {
    const std::string a2 = write_file("bias_a2.evg",
                                      "problem arch=AtlasA2 m=64 n=200 k=32 a=half b=half c=float cl=2048\n"
                                      "input  bias : float[1, 200]\n"
                                      "output D    : float[64, 200]\n"
                                      "%0 = AccLoad float\n"
                                      "%1 = RowBroadcast float bias\n"
                                      "%2 = Compute Add float (%0, %1)\n"
                                      "%3 = AuxStore float D (%2)\n");
    const Result off = evgcheck("run " + a2);
    EXPECT_EQ(off.code, 0) << off.out << off.err;
    const Result on = evgcheck("run " + a2 + " --hazard row_broadcast_no_barrier");
    EXPECT_EQ(on.code, 1) << on.out << on.err;
    EXPECT_NE(on.out.find("upstream hazards on: row_broadcast_no_barrier\n"), std::string::npos) << on.out;
    EXPECT_NE(on.out.find("[race]"), std::string::npos) << on.out;
    EXPECT_TRUE(on.out.ends_with("result: FAIL\n")) << on.out;
    const Result v950 = evgcheck("run " + example("bias_ub.evg") + " --hazard row_broadcast_no_barrier");
    EXPECT_EQ(v950.code, 0) << v950.out << v950.err;
    const Result bad = evgcheck("run " + a2 + " --hazard row_broadcast");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("option --hazard: no upstream hazard is called 'row_broadcast' (known: "
                           "row_broadcast_no_barrier, store_reads_load_unordered"),
              std::string::npos)
        << bad.err;
}

// "<file>:<line>" of the first line of the EVG library's fusion header `file` that holds `text`.
std::string line_of(const std::string& file, const std::string& text) {
    std::ifstream in(fs::path(EVGCHECK_FUSION_DIR) / file);
    int n = 1;
    for (std::string l; std::getline(in, l); ++n)
        if (l.find(text) != std::string::npos) return file + ":" + std::to_string(n);
    ADD_FAILURE() << text << " is not in " << file;
    return file;
}

// A finding names the graph nodes beside the library line: "%1 RowBroadcast float bias (<file>:5:1)".
TEST(EvgcheckRun, RowBroadcastHazardRaceNamesBothNodesWithTheirLines) {
    const std::string g = write_file("bias_nodes.evg",
                                     "problem arch=AtlasA2 m=64 n=200 k=32 a=half b=half c=float cl=2048\n"
                                     "input  bias : float[1, 200]\n"
                                     "output D    : float[64, 200]\n"
                                     "%0 = AccLoad float\n"
                                     "%1 = RowBroadcast float bias\n"
                                     "%2 = Compute Add float (%0, %1)\n"
                                     "%3 = AuxStore float D (%2)\n");
    const Result r = evgcheck("run " + g + " --hazard row_broadcast_no_barrier");
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    const std::string bcast = "node %1 RowBroadcast float bias (" + g + ":5:1)";
    const std::string add = "node %2 Compute Add float (" + g + ":6:1)";
    EXPECT_NE(r.out.find("(DataCopy UB->UB, " + bcast + ") and V read #"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(Add, " + add + "): no PipeBarrier<PIPE_V>"), std::string::npos) << r.out;
    const std::string copy = line_of("visitor_row_broadcast.hpp", "AscendC::DataCopy(ubOut[r * alignedCols]");
    const std::string sum = line_of("operations.hpp", "CATLASS_EVG_NARY_FUNCTOR(Add)");
    EXPECT_NE(r.out.find("issued at " + copy + " by " + bcast + "\n"), std::string::npos) << copy << "\n"
                                                                                          << r.out;
    EXPECT_NE(r.out.find("issued at " + sum + " by " + add + "\n"), std::string::npos) << sum << "\n"
                                                                                       << r.out;
}

// Two AuxStores of one output (a multiple-writers warning, not an error): the WAW race names both stores.
TEST(EvgcheckRun, TwoStoresOfOneTensorRaceNamingBothStoreNodes) {
    const std::string g = write_file("two_stores.evg",
                                     "problem arch=AtlasA2 m=64 n=200 k=32 a=half b=half c=float cl=2048\n"
                                     "output D : float[64, 200]\n"
                                     "%0 = AccLoad float\n"
                                     "%1 = AuxStore float D (%0)\n"
                                     "%2 = Compute AddRelu float (%1, %0)\n"
                                     "%3 = AuxStore float D (%2)\n");
    const Result r = evgcheck("run " + g + " --json " + (scratch() / "two_stores.json").string());
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("warning [multiple-writers]"), std::string::npos) << r.err;
    const std::string first = "node %1 AuxStore float D (" + g + ":4:1)";
    const std::string second = "node %3 AuxStore float D (" + g + ":6:1)";
    EXPECT_NE(r.out.find("WAW race on D bytes"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(DataCopyPad UB->GM, " + first + ") and MTE3 write #"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(DataCopyPad UB->GM, " + second + "): "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("issued at copy_tla.hpp:45 by " + first + "\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("issued at copy_tla.hpp:45 by " + second + "\n"), std::string::npos) << r.out;
    const std::string json = slurp(scratch() / "two_stores.json");
    EXPECT_NE(json.find("\"node\": \"%1 AuxStore float D (" + g + ":4:1)\""), std::string::npos) << json;
}

namespace {

// `run --check` names the opt-in checkers it switched on; the epilogue has no redundant wait; a wrong name
// is a usage error.
TEST(EvgcheckCli, RunCheckSwitchesOnOptInCheckers) {
    const std::string g = example("add_relu.evg") + " --m 32 --n 64";
    Result on = evgcheck("run " + g + " --check redundant-waits");
    EXPECT_EQ(on.code, 0) << on.out << on.err;
    EXPECT_NE(on.out.find("opt-in checkers on: redundant-waits\n"), std::string::npos) << on.out;
    Result bad = evgcheck("run " + g + " --check races");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("evgcheck run: option --check: unknown checker 'races'"), std::string::npos)
        << bad.err;
    Result trailing = evgcheck("run " + g + " --check redundant-waits,");
    EXPECT_EQ(trailing.code, 2);
    EXPECT_NE(trailing.err.find("'redundant-waits,' has an empty checker name"), std::string::npos)
        << trailing.err;
}

// Every listed mutation point replays with --mutate as printed; a dropped WaitFlag of the epilogue is caught.
TEST(EvgcheckCli, RunListsMutationPointsAndReplaysOne) {
    const std::string g = example("add_relu.evg") + " --m 32 --n 64";
    Result list = evgcheck("run " + g + " --list-mutations");
    ASSERT_EQ(list.code, 0) << list.out << list.err;
    const std::string head = " mutation point(s); each replays with --mutate '<text>':\n";
    ASSERT_NE(list.out.find(head), std::string::npos) << list.out;
    // The first WaitFlag of AIV0.0 that the listing offers to drop.
    const size_t at = list.out.find("  drop-wait core=AIV0.0 n=");
    ASSERT_NE(at, std::string::npos) << list.out;
    const std::string mutation = list.out.substr(at + 2, list.out.find('\n', at) - at - 2);
    Result run = evgcheck("run " + g + " --mutate '" + mutation + "'");
    EXPECT_EQ(run.code, 1) << run.out;
    EXPECT_NE(run.out.find("sync mutations: " + mutation + "\n"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("model: VIOLATIONS"), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("not applied"), std::string::npos) << run.out;
    // A mutation that addresses no call is said, and the run fails rather than passing unmutated.
    Result wrong = evgcheck("run " + g + " --mutate 'drop-wait core=AIV9.0 n=1'");
    EXPECT_EQ(wrong.code, 1) << wrong.out;
    EXPECT_NE(wrong.out.find("sync mutation not applied: drop-wait core=AIV9.0 n=1: "), std::string::npos)
        << wrong.out;
    Result bad = evgcheck("run " + g + " --mutate 'drop-wait core=AIV0.0'");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("evgcheck run: option --mutate: "), std::string::npos) << bad.err;
}

}  // namespace

namespace {

std::string subject(const std::string& mode) {
    return std::string(EVGCHECK_SUBJECT_PROGRAM) + " " + mode;
}

// A user's program run on the model: a clean one passes, a planted race fails naming it, and the verdict
// needs the program's own exit status and at least one launch.
TEST(EvgcheckRunProgram, JudgesTheProgramsLaunchesAndExit) {
    Result clean = evgcheck("run-program " + subject("clean"));
    EXPECT_EQ(clean.code, 0) << clean.out << clean.err;
    EXPECT_NE(clean.out.find("run 1/1  in order"), std::string::npos) << clean.out;
    EXPECT_NE(clean.out.find("1 launch(es)  clean"), std::string::npos) << clean.out;
    EXPECT_NE(clean.out.find("result: PASS (1 of 1 run(s) clean)"), std::string::npos) << clean.out;
    // The subject links the model directly, not through evgcheck_use_catlass: it names no Catlass.
    EXPECT_NE(clean.out.find("catlass: not recorded (the program was not built with evgcheck_add_program"),
              std::string::npos)
        << clean.out;

    // Which compiler built the kernel, and whether its order of evaluation is the device compiler's (measured
    // in the program's own translation unit: this file is built by the same compiler).
#if defined(__clang__)
    const std::string compiler_line = "kernel compiler: clang ";
    const std::string order_text = "(arguments evaluated left to right: Bisheng's order)";
#else
    const std::string compiler_line = "kernel compiler: gcc ";
    const std::string order_text = "(arguments evaluated right to left: not Bisheng's order)";
#endif
    EXPECT_NE(clean.out.find(compiler_line), std::string::npos) << clean.out;
    EXPECT_NE(clean.out.find(order_text), std::string::npos) << clean.out;

    Result racy = evgcheck("run-program --scheduler adversarial --seeds 2 " + subject("racy"));
    EXPECT_EQ(racy.code, 1) << racy.out;
    EXPECT_NE(racy.out.find("adversarial seed 2"), std::string::npos) << racy.out;
    EXPECT_NE(racy.out.find("findings: race"), std::string::npos) << racy.out;
    EXPECT_NE(racy.out.find("    | error [race]"), std::string::npos) << "the program's report is shown\n"
                                                                      << racy.out;
    EXPECT_NE(racy.out.find("result: FAIL (0 of 2 run(s) clean)"), std::string::npos) << racy.out;

    Result twice = evgcheck("run-program " + subject("twice"));
    EXPECT_EQ(twice.code, 0) << twice.out;
    EXPECT_NE(twice.out.find("2 launch(es)  clean"), std::string::npos) << twice.out;

    Result none = evgcheck("run-program " + subject("nolaunch"));
    EXPECT_EQ(none.code, 1) << "\"Compare success.\" without a launch is no pass\n" << none.out;
    EXPECT_NE(none.out.find("no kernel launch was reported"), std::string::npos) << none.out;
    EXPECT_NE(none.out.find("catlass: not known (no run made a kernel launch"), std::string::npos)
        << none.out;

    Result fail = evgcheck("run-program " + subject("fail"));
    EXPECT_EQ(fail.code, 1) << fail.out;
    EXPECT_NE(fail.out.find("the program exited 3"), std::string::npos) << fail.out;

    // The caller's own EVG_ variables do not change the run: run-program sets every one the program reads.
    Result env = evgcheck("run-program " + subject("clean"), "EVG_MUTATE='drop-wait core=AIV0 n=1'");
    EXPECT_EQ(env.code, 0) << env.out;
}

// --other-order: the same program built by the other compiler runs beside it; the build in Bisheng's order
// (left to right) gives the verdict, whichever is named first, and the subject's findings do not depend on
// the order. Two builds of one order are refused in the verdict, naming both compilers.
TEST(EvgcheckRunProgram, OtherOrderRunsBothBuildsAndJudgesByBishengsOrder) {
    const std::string other = EVGCHECK_SUBJECT_PROGRAM_OTHER;
    ASSERT_FALSE(other.empty())
        << "the build has no second compiler (scripts/install-deps.sh installs clang-14)";
    const std::string report = (fs::temp_directory_path() / "evgcheck_other_order.json").string();
    for (const std::string& first : {std::string(EVGCHECK_SUBJECT_PROGRAM), other}) {
        const std::string second = first == other ? std::string(EVGCHECK_SUBJECT_PROGRAM) : other;
        Result clean =
            evgcheck(fmt::format("run-program --report {} --other-order {} {} clean", report, second, first));
        EXPECT_EQ(clean.code, 0) << clean.out << clean.err;
        EXPECT_NE(clean.out.find("kernel compiler: clang "), std::string::npos) << clean.out;
        EXPECT_NE(clean.out.find("(arguments evaluated left to right: Bisheng's order)"), std::string::npos)
            << clean.out;
        EXPECT_EQ(clean.out.find("order-dependent:"), std::string::npos) << clean.out;
        const std::string j = slurp(report);
        EXPECT_NE(j.find("\"order_dependent\": []"), std::string::npos) << j;
        EXPECT_NE(j.find("\"argument_order\": \"left_to_right\""), std::string::npos) << j;
        EXPECT_EQ(j.find("\"argument_order\": \"right_to_left\""), std::string::npos) << j;
        Result racy = evgcheck(fmt::format("run-program --other-order {} {} racy", second, first));
        EXPECT_EQ(racy.code, 1) << racy.out;
        EXPECT_NE(racy.out.find("findings: race"), std::string::npos) << racy.out;
        EXPECT_EQ(racy.out.find("order-dependent:"), std::string::npos) << racy.out;
    }
    Result same = evgcheck("run-program --other-order " + std::string(EVGCHECK_SUBJECT_PROGRAM) + " " +
                           subject("clean"));
    EXPECT_EQ(same.code, 1) << same.out;
    EXPECT_NE(same.out.find("--other-order: the two builds do not evaluate arguments in opposite orders"),
              std::string::npos)
        << same.out;
    Result missing = evgcheck("run-program --other-order /no/such/program " + subject("clean"));
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("option --other-order: '/no/such/program' is not an executable file"),
              std::string::npos)
        << missing.err;
}

// --known excuses a finding by kind and site, --expect requires a line, --report writes every run.
TEST(EvgcheckRunProgram, KnownFindingsExpectedOutputAndReport) {
    Result racy =
        evgcheck("run-program --report " + (scratch() / "rp.json").string() + " " + subject("racy"));
    ASSERT_EQ(racy.code, 1) << racy.out;
    const std::string report = slurp(scratch() / "rp.json");
    EXPECT_NE(report.find("\"kind\": \"race\""), std::string::npos) << report;
    EXPECT_NE(report.find("\"ok\": false"), std::string::npos) << report;
    // The site of the race's first instruction, as the report names it.
    const size_t site_at = report.find("\"site\": \"subject_program.cpp:", report.find("\"locations\""));
    ASSERT_NE(site_at, std::string::npos) << report;
    const std::string site = report.substr(site_at + 9, report.find('"', site_at + 9) - site_at - 9);
    const std::string known =
        write_file("known.txt", "# what the fix will take away\nrace " + site + "  # the planted one\n");
    Result excused =
        evgcheck("run-program --known " + known + " --expect 'Compare success.' " + subject("racy"));
    EXPECT_EQ(excused.code, 0) << excused.out << excused.err;
    EXPECT_NE(excused.out.find("clean but for known findings: race at " + site), std::string::npos)
        << excused.out;
    const std::string other = write_file("other.txt", "race elsewhere.cpp:1\n");
    Result not_excused = evgcheck("run-program --known " + other + " " + subject("racy"));
    EXPECT_EQ(not_excused.code, 1) << not_excused.out;
    Result expect = evgcheck("run-program --expect 'Compare failed.' " + subject("clean"));
    EXPECT_EQ(expect.code, 1) << expect.out;
    EXPECT_NE(expect.out.find("the program did not print 'Compare failed.'"), std::string::npos)
        << expect.out;
    const std::string bad = write_file("bad_known.txt", "race subject_program.cpp:1\nrace\n");
    Result bad_known = evgcheck("run-program --known " + bad + " " + subject("clean"));
    EXPECT_EQ(bad_known.code, 2);
    EXPECT_NE(bad_known.err.find("option --known: " + bad + ":2: the kind is not followed by a file"),
              std::string::npos)
        << bad_known.err;
    const std::string typo = write_file("typo_known.txt", "races subject_program.cpp:1\n");
    Result typo_known = evgcheck("run-program --known " + typo + " " + subject("clean"));
    EXPECT_EQ(typo_known.code, 2);
    EXPECT_NE(typo_known.err.find(typo + ":1: 'races' is not a finding kind"), std::string::npos)
        << typo_known.err;
}

// A known finding named by the text of its line, wherever the line is; each entry's matches are counted over
// the runs, and an entry that matched nothing is listed (it is stale, or no longer names its line).
TEST(EvgcheckRunProgram, KnownFindingsByLineTextAndTheUnmatchedOnesListed) {
    Result racy =
        evgcheck("run-program --report " + (scratch() / "rp_text.json").string() + " " + subject("racy"));
    ASSERT_EQ(racy.code, 1) << racy.out;
    const std::string report = slurp(scratch() / "rp_text.json");
    const size_t source_at = report.find("\"source\": \"", report.find("\"locations\""));
    ASSERT_NE(source_at, std::string::npos) << "the report gives the first location's line text\n" << report;
    const std::string source =
        report.substr(source_at + 11, report.find('"', source_at + 11) - source_at - 11);
    ASSERT_FALSE(source.empty()) << report;
    // The first 12 characters of the line's text name it; a second entry names nothing.
    const std::string known =
        write_file("known_text.txt",
                   "race subject_program.cpp: " + source.substr(0, 12) + "\nrace nowhere.cpp:7  # stale\n");
    Result excused = evgcheck("run-program --known " + known + " " + subject("racy"));
    EXPECT_EQ(excused.code, 0) << excused.out << excused.err;
    EXPECT_NE(excused.out.find("known findings (" + known + "): 2 entries, 1 matched nothing"),
              std::string::npos)
        << excused.out;
    EXPECT_NE(excused.out.find("unmatched  race nowhere.cpp:7  (" + known + ":2)"), std::string::npos)
        << excused.out;
    const std::string wrong = write_file("known_wrong_text.txt", "race subject_program.cpp: no such text\n");
    Result not_excused = evgcheck("run-program --known " + wrong + " " + subject("racy"));
    EXPECT_EQ(not_excused.code, 1) << not_excused.out;
    EXPECT_NE(not_excused.out.find("unmatched  race subject_program.cpp: no such text"), std::string::npos)
        << not_excused.out;
}

// An opt-in checker runs in the program's launches only when asked for (EVG_CHECK), and its finding fails the
// run; an unknown name is refused with the names there are.
TEST(EvgcheckRunProgram, CheckSwitchesOnAnOptInCheckerForTheProgramsLaunches) {
    Result plain = evgcheck("run-program " + subject("rewait"));
    EXPECT_EQ(plain.code, 0) << plain.out << plain.err;
    Result checked = evgcheck("run-program --check redundant-waits " + subject("rewait"));
    EXPECT_EQ(checked.code, 1) << checked.out << checked.err;
    EXPECT_NE(checked.out.find("redundant_wait"), std::string::npos) << checked.out;
    EXPECT_NE(checked.out.find("WaitFlag<MTE2_V>(1)"), std::string::npos) << checked.out;
    Result quiet = evgcheck("run-program --check redundant-waits " + subject("clean"));
    EXPECT_EQ(quiet.code, 0) << quiet.out << quiet.err;
    Result bad = evgcheck("run-program --check redundant-wait " + subject("clean"));
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(
        bad.err.find("evgcheck run-program: option --check: unknown checker 'redundant-wait': the checkers "
                     "switched on by name are redundant-waits"),
        std::string::npos)
        << bad.err;
}

// Two dependent vector steps with no PipeBarrier<PIPE_V> on Ascend950: clean by default (the V pipe keeps
// order there), reported by --check portable-v-order naming the first step's line and where the barrier goes.
TEST(EvgcheckRunProgram, PortableVOrderNamesTheStepsOnlyAscend950Orders) {
    Result plain = evgcheck("run-program --expect 'Compare success.' " + subject("vchain"));
    EXPECT_EQ(plain.code, 0) << plain.out << plain.err;
    Result checked = evgcheck("run-program --check portable-v-order " + subject("vchain"));
    EXPECT_EQ(checked.code, 1) << checked.out << checked.err;
    EXPECT_NE(checked.out.find("findings: v_order_unportable (1)"), std::string::npos) << checked.out;
    EXPECT_NE(checked.out.find("a PipeBarrier<PIPE_V>() after subject_program.cpp:"), std::string::npos)
        << checked.out;
    Result quiet = evgcheck("run-program --check portable-v-order " + subject("clean"));
    EXPECT_EQ(quiet.code, 0) << quiet.out << quiet.err;
}

// The number of the subject program's first line that holds `text`.
std::string line_in_subject(const std::string& text) {
    std::ifstream in(fs::path(EVGCHECK_TESTS_DIR) / "subject_program.cpp");
    int n = 1;
    for (std::string l; std::getline(in, l); ++n)
        if (l.find(text) != std::string::npos) return std::to_string(n);
    ADD_FAILURE() << text << " is not in subject_program.cpp";
    return "?";
}

// A fault in the kernel's code is a finding naming the core, the signal and the core's last instruction, in
// the output and in the report; the program still ends by the signal. A run past --timeout prints where each
// core was before it is killed.
TEST(EvgcheckRunProgram, CrashAndHangAreLocated) {
    Result crash = evgcheck("run-program --timeout 60 " + subject("crash"));
    EXPECT_EQ(crash.code, 1) << crash.out << crash.err;
    // The process ends by the signal; in the ASan build ASan's handler, run next, reports the fault and
    // exits 1.
    EXPECT_TRUE(crash.out.find("killed by signal 11; findings: kernel_exception (1)") != std::string::npos ||
                crash.out.find("the program exited 1; findings: kernel_exception (1)") != std::string::npos)
        << crash.out;
    const std::string muls_line = line_in_subject("the last instruction before crash and hang");
    EXPECT_NE(crash.out.find("AIV 0 crashed in the kernel's code: SIGSEGV (address 0x10 is not mapped) after "
                             "its last instruction, #4 Muls at subject_program.cpp:" +
                             muls_line),
              std::string::npos)
        << crash.out;
    Result hang = evgcheck("run-program --timeout 2 " + subject("hang"));
    EXPECT_EQ(hang.code, 1) << hang.out << hang.err;
    EXPECT_NE(hang.out.find("timed out (killed)"), std::string::npos) << hang.out;
    EXPECT_NE(
        hang.out.find("AIV 0: running its scalar code, issuing nothing more since its last instruction #4 "
                      "Muls at subject_program.cpp:" +
                      muls_line),
        std::string::npos)
        << hang.out;
    // Stopped in its first launch, the program still told what it was built against (EVG_ABOUT).
    EXPECT_EQ(hang.out.find("catlass: not known"), std::string::npos) << hang.out;
    EXPECT_NE(hang.out.find("catlass: not recorded (the program was not built with evgcheck_add_program"),
              std::string::npos)
        << hang.out;
}

// A GM buffer is named by the program's variable, in the output and in the JSON report, and described once.
TEST(EvgcheckRunProgram, BuffersAreNamedByTheProgramsVariables) {
    const std::string report = (fs::temp_directory_path() / "evgcheck_small_report.json").string();
    Result small = evgcheck("run-program --report " + report + " " + subject("small"));
    EXPECT_EQ(small.code, 1) << small.out << small.err;
    EXPECT_NE(small.out.find("DataCopy UB->GM dst touches GM bytes [0, 1024) of dy, which has 512 B"),
              std::string::npos)
        << small.out;
    EXPECT_NE(small.out.find("GM buffer dy: 512 bytes, aclrtMalloc at subject_program.cpp:"),
              std::string::npos)
        << small.out;
    EXPECT_EQ(small.out.find("GM#"), std::string::npos) << small.out;
    std::ifstream in(report);
    std::stringstream json;
    json << in.rdbuf();
    EXPECT_NE(json.str().find("\"name\": \"dy\""), std::string::npos) << json.str();
}

// Never-written data by its cause: an input the host never copied is named first; an output the kernel left
// half unstored is found where the host copies it back, in the program's own words (its variable, its line).
TEST(EvgcheckRunProgram, NeverWrittenDataIsToldByItsCause) {
    Result nocopy = evgcheck("run-program " + subject("nocopy"));
    EXPECT_EQ(nocopy.code, 1) << nocopy.out << nocopy.err;
    // Headed by the program's line that stores the never-written bytes.
    EXPECT_NE(
        nocopy.out.find(
            "error [uninit_to_gm] subject_program.cpp:" + line_in_subject("DataCopy(gy, t[kN], stored)") +
            ": Likely cause: dx was never written: no aclrtMemcpy or aclrtMemset reached it, and "
            "no kernel stored to it (1024 bytes, aclrtMalloc at subject_program.cpp:"),
        std::string::npos)
        << nocopy.out;
    Result half = evgcheck("run-program --expect 'Compare success.' " + subject("halfstore"));
    EXPECT_EQ(half.code, 1) << half.out << half.err;
    EXPECT_NE(half.out.find("1 launch(es)  the program did not print 'Compare success.'; findings: "
                            "uninit_to_host (1)"),
              std::string::npos)
        << half.out;
    EXPECT_NE(half.out.find(
                  "error [uninit_to_host] subject_program.cpp:" +
                  line_in_subject("ACL_MEMCPY_DEVICE_TO_HOST), \"aclrtMemcpy\");  // copy back") +
                  ": aclrtMemcpy copies 512 byte(s) of dy to the host that hold no written value (no host "
                  "copy wrote them, and no kernel stored a written value there): of its bytes [0, 1024), "
                  "those in [512, 1024), the first at byte 512."),
              std::string::npos)
        << half.out;
}

// Every listed mutation point replays with --mutate as printed; dropping the program's one WaitFlag is
// caught; the timeline of the launch is written.
TEST(EvgcheckRunProgram, ListsAndAppliesMutationsAndDrawsTheTimeline) {
    Result list = evgcheck("run-program --list-mutations " + subject("clean"));
    ASSERT_EQ(list.code, 0) << list.out << list.err;
    EXPECT_EQ(list.out.rfind("# launch 1: ", 0), 0u) << list.out;
    const size_t at = list.out.find("\ndrop-wait core=AIV0 n=");
    ASSERT_NE(at, std::string::npos) << list.out;
    const std::string mutation = list.out.substr(at + 1, list.out.find('\n', at + 1) - at - 1);
    Result mutated = evgcheck("run-program --mutate '" + mutation + "' " + subject("clean"));
    EXPECT_EQ(mutated.code, 1) << mutated.out;
    EXPECT_NE(mutated.out.find("(mutated: " + mutation + ")"), std::string::npos) << mutated.out;
    EXPECT_NE(mutated.out.find("findings: "), std::string::npos) << mutated.out;
    Result unapplied = evgcheck("run-program --mutate 'drop-wait core=AIV0 n=99' " + subject("clean"));
    EXPECT_EQ(unapplied.code, 1) << unapplied.out;
    EXPECT_NE(unapplied.out.find("mutation not applied"), std::string::npos) << unapplied.out;
    Result bad = evgcheck("run-program --mutate 'drop-wait' " + subject("clean"));
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("evgcheck run-program: option --mutate: "), std::string::npos) << bad.err;

    const std::string page = (scratch() / "program.html").string();
    Result timed = evgcheck("run-program --timeline " + page + " " + subject("twice"));
    EXPECT_EQ(timed.code, 0) << timed.out << timed.err;
    EXPECT_NE(timed.out.find("cycle model ("), std::string::npos) << timed.out;
    EXPECT_NE(timed.out.find("timeline: " + page), std::string::npos) << timed.out;
    EXPECT_NE(slurp(page).find("launch 1 of 2"), std::string::npos);
    Result second = evgcheck("run-program --timeline " + page + " --launch 3 " + subject("twice"));
    EXPECT_EQ(second.code, 2) << second.out;
    EXPECT_NE(second.err.find("the program made 2 launch(es), not 3"), std::string::npos) << second.err;
}

TEST(EvgcheckRunProgram, BadInvocationsSayWhatIsWrong) {
    Result none = evgcheck("run-program");
    EXPECT_EQ(none.code, 2);
    EXPECT_NE(none.err.find("no program given"), std::string::npos) << none.err;
    Result missing = evgcheck("run-program /no/such/program");
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("'/no/such/program' is not an executable file"), std::string::npos)
        << missing.err;
    Result seeds = evgcheck("run-program --seeds 3 " + subject("clean"));
    EXPECT_EQ(seeds.code, 2);
    EXPECT_NE(seeds.err.find("need --scheduler adversarial"), std::string::npos) << seeds.err;
    Result help = evgcheck("run-program --help");
    EXPECT_EQ(help.code, 0);
    EXPECT_NE(help.out.find("Usage: evgcheck run-program"), std::string::npos) << help.out;
    // Which options take a value comes from the option table: a flag is followed by the program at once.
    Result short_help = evgcheck("run-program -h " + subject("clean"));
    EXPECT_EQ(short_help.code, 0) << short_help.err;
    EXPECT_NE(short_help.out.find("Usage: evgcheck run-program"), std::string::npos) << short_help.out;
    Result dashdash = evgcheck("run-program --scheduler=adversarial --seeds 2 -- " + subject("clean"));
    EXPECT_EQ(dashdash.code, 0) << dashdash.out << dashdash.err;
    EXPECT_NE(dashdash.out.find("result: PASS (2 of 2 run(s) clean)"), std::string::npos) << dashdash.out;
    Result missing_value = evgcheck("run-program --known");
    EXPECT_EQ(missing_value.code, 2);
    EXPECT_NE(missing_value.err.find("option --known needs a value"), std::string::npos) << missing_value.err;
}

}  // namespace

// `emit --dialect upstream`: the C++ for upstream Catlass, or a refusal naming the node and the file (exit
// 2); a dialect that is not one is a usage error listing the two.
TEST(EvgcheckCli, EmitUpstreamDialectPrintsOrRefusesNamingTheNode) {
    const std::string ok = write_file("up_ok.evg",
                                      "problem arch=Ascend950 m=64 n=64 k=32 a=half b=half c=float cl=256\n"
                                      "input  X : float[1, 64]\n"
                                      "output D : float[64, 64]\n"
                                      "%0 = AccLoad float\n"
                                      "%1 = RowBroadcast float X\n"
                                      "%2 = Compute Add float (%0, %1)\n"
                                      "%3 = AuxStore float D (%2)\n");
    Result r = evgcheck("emit " + ok + " --dialect upstream");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("Catlass::Epilogue::Fusion::VisitorRowBroadcast<float, decltype(layoutX)>"),
              std::string::npos)
        << r.out;
    const std::string col = write_file("up_col.evg",
                                       "input  c : float[4, 1]\n"
                                       "output D : float[4, 4]\n"
                                       "%0 = AccLoad float\n"
                                       "%1 = ColBroadcast float c\n"
                                       "%2 = Compute Add float (%0, %1)\n"
                                       "%3 = AuxStore float D (%2)\n");
    r = evgcheck("emit " + col + " --dialect upstream");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err,
              "evgcheck: cannot emit C++ in the upstream dialect: %1 ColBroadcast float c (" + col +
                  ":4:1): upstream Catlass has no ColBroadcast node (its nodes: AccLoad, AuxLoad, AuxStore, "
                  "Cast, Compute, RowBroadcast)\n");
    r = evgcheck("emit " + col + " --dialect evgcheck");
    EXPECT_EQ(r.code, 0) << r.err;
    r = evgcheck("emit " + col + " --dialect cutlass");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("evgcheck"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("upstream"), std::string::npos) << r.err;
}
