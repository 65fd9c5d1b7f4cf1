// A report file that several test processes add to (ctest runs every case in its own process):
// examples-report.md and hand-fused-report.md. Each process rewrites the file under an exclusive lock on
// FILE.lock, from the file as it finds it, and replaces it in one rename, so that no reader sees half a file.
#pragma once
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

#include "evg/hw/file_lock.hpp"

namespace evg::examples {

// Replaces `path` with `rewrite(the file's text, or "" when there is none)`, holding the lock meanwhile;
// std::runtime_error naming the file when the lock cannot be taken or the file cannot be replaced.
template <class Rewrite>
void rewrite_locked(const std::string& path, Rewrite&& rewrite) {
    const hw::FileLock lock(path + ".lock");
    std::string existing;
    {
        std::ifstream in(path);
        existing.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        if (!(out << rewrite(std::string_view(existing))) || !out.flush())
            throw std::runtime_error("cannot write " + tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot replace " + path);
}

}  // namespace evg::examples
