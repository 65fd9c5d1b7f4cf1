// The whole of a file as text, for the documentation tests; an empty string when it cannot be read (each test
// then fails on what it looks for, naming the file).
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace evg::docs_tests {

inline std::string read(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace evg::docs_tests
