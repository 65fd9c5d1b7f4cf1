// `evgcheck fuzz`'s reading of libFuzzer output, on real recordings (fuzz_recordings/): the output of clang
// 14's libFuzzer with ASan + UBSan on a small target with planted bugs (fuzz_recordings/planted.cpp.txt: a
// heap overflow, an EVG-FINDING line, an uncaught exception, a signed overflow, a sleep past -timeout, a
// leak), and two sessions (one clean, one that finds the EVG-FINDING input).
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_output.hpp"

namespace evgcheck {
namespace {

std::vector<std::string> recording(const std::string& name) {
    std::ifstream in(std::string(EVGCHECK_FUZZ_RECORDINGS) + "/" + name);
    EXPECT_TRUE(in) << name;
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

// What the driver keeps of a worker's output: the lines from the first one that starts a finding.
std::vector<std::string> finding_lines(const std::vector<std::string>& all) {
    std::vector<std::string> tail;
    for (const std::string& l : all) {
        if (!tail.empty() || starts_finding(l)) tail.push_back(l);
    }
    return tail;
}

std::string signature_of(const std::string& name) {
    return finding_signature(finding_lines(recording(name)));
}

TEST(FuzzOutput, StatusLines) {
    const auto s =
        parse_status_line("#1374\tNEW    cov: 5 ft: 6 corp: 4/7b lim: 14 exec/s: 274 rss: 31Mb L: 2/2 MS: 3");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->execs, 1374u);
    EXPECT_EQ(s->event, "NEW");
    EXPECT_EQ(s->cov, 5u);
    EXPECT_EQ(s->features, 6u);
    EXPECT_EQ(s->corpus, 4u);
    EXPECT_EQ(s->exec_per_s, 274u);
    EXPECT_FALSE(parse_status_line("INFO: Seed: 7"));
    EXPECT_FALSE(parse_status_line("#3 0x55 in main"));
    EXPECT_FALSE(
        parse_status_line("    #0 0x5574038c448b in overflow_at(unsigned char const*) /tmp/x.cpp:7"));
}

TEST(FuzzOutput, CleanSessionHasStatusAndNoFinding) {
    const auto lines = recording("session_clean.txt");
    std::optional<FuzzStatus> last;
    int statuses = 0;
    for (const std::string& l : lines) {
        if (const auto s = parse_status_line(l)) {
            last = s;
            ++statuses;
        }
        EXPECT_FALSE(starts_finding(l)) << l;
    }
    EXPECT_EQ(statuses, 5);
    ASSERT_TRUE(last);
    EXPECT_EQ(last->event, "DONE");
    EXPECT_EQ(last->execs, 1500u);
    EXPECT_EQ(last->cov, 5u);
    EXPECT_EQ(last->corpus, 4u);
    EXPECT_EQ(finding_signature(finding_lines(lines)), "");
}

TEST(FuzzOutput, SessionWithFindingGivesTheTargetsSignatureAndTheArtifact) {
    const auto lines = recording("session_with_finding.txt");
    std::string artifact;
    for (const std::string& l : lines) {
        if (const std::string p = artifact_path(l); !p.empty()) artifact = p;
    }
    EXPECT_EQ(artifact, "./crash-2af72b81ee8cf1fc6f72a9bf29381d323ec0f5be");
    EXPECT_EQ(finding_signature(finding_lines(lines)),
              "race: AuxLoad drop-wait V<-MTE2 first divergent #12 Add");
}

TEST(FuzzOutput, SignaturesOfEachKindOfCrash) {
    EXPECT_EQ(signature_of("crash_evg_finding.txt"),
              "race: AuxLoad drop-wait V<-MTE2 first divergent #12 Add");
    EXPECT_EQ(
        signature_of("crash_asan_heap_overflow.txt"),
        "AddressSanitizer: heap-buffer-overflow READ of size 4 in overflow_at | in LLVMFuzzerTestOneInput");
    EXPECT_EQ(signature_of("crash_uncaught_exception.txt"),
              "uncaught exception std::runtime_error in LLVMFuzzerTestOneInput");
    EXPECT_EQ(signature_of("crash_ubsan.txt"),
              "UBSan: signed integer overflow: N + N cannot be represented in type 'int' at planted.cpp:14");
    EXPECT_EQ(signature_of("crash_timeout.txt"), "timeout in LLVMFuzzerTestOneInput");
    EXPECT_EQ(signature_of("crash_leak.txt"), "LeakSanitizer: leak allocated in LLVMFuzzerTestOneInput");
}

// A real timeout of problem_file (a session of `evgcheck fuzz`, from the ALARM line on): the main thread
// waits for the model's core threads, so the frames are the wait's caller, past libc's futex and condition
// variable.
TEST(FuzzOutput, TimeoutInTheModelIsSignedByTheWaitingCaller) {
    EXPECT_EQ(finding_signature(recording("timeout_problem_file_model_threads.txt")),
              "timeout in evg::hw::Machine::run | in evg::hw::Device::launch");
}

TEST(FuzzOutput, LibFuzzerOptionsAreTheKeysOfTheirSectionInOrder) {
    const auto o = parse_libfuzzer_options(
        "# written by evg_fuzz_target\n[asan]\nquarantine_size_mb = 1\n\n[libfuzzer]\ntimeout = 30\n"
        "  ; a comment\ndetect_leaks=0\r\ndict = x.dict\n[other]\nmax_len = 9");
    ASSERT_EQ(o.size(), 3u);
    EXPECT_EQ(o[0].key, "timeout");
    EXPECT_EQ(o[0].value, "30");
    EXPECT_EQ(o[1].key, "detect_leaks");
    EXPECT_EQ(o[1].value, "0");
    EXPECT_EQ(o[2].key, "dict");
    EXPECT_EQ(o[2].value, "x.dict");
    EXPECT_TRUE(parse_libfuzzer_options("").empty());
    EXPECT_TRUE(parse_libfuzzer_options("[asan]\nnot an option line\n").empty());
}

TEST(FuzzOutput, ALibFuzzerOptionLineThatIsNotKeyEqualsValueIsRefusedWithItsLine) {
    for (const char* bad : {"detect_leaks", "= 0", "max len = 3", "timeout =", "dict = a b"}) {
        try {
            parse_libfuzzer_options(std::string("[libfuzzer]\ntimeout = 30\n") + bad + "\n");
            ADD_FAILURE() << "accepted: " << bad;
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()),
                      std::string("line 3: expected `key = value` in [libfuzzer], got '") + bad + "'")
                << bad;
        }
    }
}

TEST(FuzzOutput, ATargetsOptionsGiveItsTimeoutAndItsOtherOptionsAsFlags) {
    const TargetOptions t =
        target_options_of("[libfuzzer]\ntimeout = 30\ndict = t.dict\ndetect_leaks = 0\nmax_len = 18\n");
    EXPECT_EQ(t.timeout, 30);
    EXPECT_EQ(t.flags, (std::vector<std::string>{"-detect_leaks=0", "-max_len=18"}));
    EXPECT_EQ(target_options_of("").timeout, 10);
    EXPECT_TRUE(target_options_of("").flags.empty());
    for (const char* bad : {"0", "-3", "12s", "9999999999"}) {
        try {
            target_options_of(std::string("[libfuzzer]\ntimeout = ") + bad + "\n");
            ADD_FAILURE() << "accepted timeout " << bad;
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()),
                      std::string("timeout = ") + bad + ": expected a whole number of seconds >= 1");
        }
    }
}

TEST(FuzzOutput, SignatureHashIsStableAndDistinguishes) {
    EXPECT_EQ(signature_hash("a"), signature_hash("a"));
    EXPECT_NE(signature_hash("a"), signature_hash("b"));
    EXPECT_EQ(signature_hash("").size(), 16u);
    EXPECT_EQ(signature_hash(""), "cbf29ce484222325");  // FNV-1a 64's offset basis
}

}  // namespace
}  // namespace evgcheck
