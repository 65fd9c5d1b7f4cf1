// An exclusive lock on a file, held for an object's life: how processes that share a folder (checks sharing
// a work folder, test processes adding to one report) take turns. A lock that cannot be taken is an error
// naming the file, never a run without the lock.
#pragma once
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace evg::hw {

// The lock file could not be opened or locked: the message names it and the system's reason.
struct FileLockError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class FileLock {
  public:
    // Opens (creating it) `path` and waits for the exclusive lock; an error naming the path and the
    // system's reason (FileLockError) when the file cannot be opened or locked.
    explicit FileLock(const std::string& path)
        : fd_(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
        if (fd_ < 0) throw FileLockError(failure("cannot open the lock file", path));
        int rc = 0;
        while ((rc = ::flock(fd_, LOCK_EX)) != 0 && errno == EINTR) {
        }
        if (rc != 0) {
            const std::string why = failure("cannot lock", path);
            ::close(fd_);
            throw FileLockError(why);
        }
    }
    ~FileLock() { ::close(fd_); }  // closing the file releases the lock
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

  private:
    static std::string failure(const char* what, const std::string& path) {
        return std::string(what) + " " + path + ": " + std::strerror(errno);
    }
    int fd_;
};

}  // namespace evg::hw
