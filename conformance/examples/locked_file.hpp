// A report file that several test processes add to (ctest runs every case in its own process):
// examples-report.md and hand-fused-report.md. Each process rewrites the file under an exclusive lock on
// FILE.lock, from the file as it finds it, and replaces it in one rename, so that no reader sees half a file.
#pragma once
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace evg::examples {

// Replaces `path` with `rewrite(the file's text, or "" when there is none)`, holding the lock meanwhile.
template <class Rewrite>
void rewrite_locked(const std::string& path, Rewrite&& rewrite) {
    const std::string lock_path = path + ".lock";
    const int fd = ::open(lock_path.c_str(), O_CREAT | O_RDWR, 0644);
    if (fd >= 0) ::flock(fd, LOCK_EX);
    std::string existing;
    {
        std::ifstream in(path);
        existing.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp, std::ios::trunc) << rewrite(std::string_view(existing));
    std::rename(tmp.c_str(), path.c_str());
    if (fd >= 0) {
        ::flock(fd, LOCK_UN);
        ::close(fd);
    }
}

}  // namespace evg::examples
