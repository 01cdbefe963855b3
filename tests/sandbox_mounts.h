#pragma once
// Real full disks and read-only folders for tests, without root: the test process enters its own user and
// mount namespace (what `unshare -Urm` does) as the first thing in main, and
// then mounts a small tmpfs (writes past its size fail with ENOSPC, as on a full disk) or bind-mounts a
// folder read-only (EROFS, which binds root too). Child processes (osprey-cli) inherit the mounts; nothing
// is visible outside the test. Where the kernel refuses unprivileged namespaces the tests skip and say so.

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <unistd.h>
#include <vector>

namespace osprey::test {

/// Why the sandbox is unavailable ("" when enterMountNamespace succeeded).
inline std::string& sandboxProblem() {
    static std::string problem = "enterMountNamespace() was not called";
    return problem;
}

inline bool writeProcFile(const char* path, const std::string& text) {
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

/// Call first in main(). Enters a user + mount namespace that maps the current user to root: with the
/// unshare() call while the process has one thread, else (libraries such as OpenBLAS start threads before
/// main) by running the test again under `unshare -Urm` (util-linux); that second run sees
/// OSPREY_MOUNT_SANDBOX=1. Returns false, with sandboxProblem() saying why, where neither works.
inline bool enterMountNamespace(int argc, char** argv) {
    if (const char* inside = std::getenv("OSPREY_MOUNT_SANDBOX"); inside && std::string(inside) == "1") {
        sandboxProblem().clear();
        return true;
    }
    const uid_t uid = ::getuid();
    const gid_t gid = ::getgid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
        if (errno != EINVAL) {
            sandboxProblem() = std::string("unshare(CLONE_NEWUSER | CLONE_NEWNS): ") + std::strerror(errno) +
                               " (unprivileged user namespaces are off here)";
            return false;
        }
        // EINVAL: the process has threads already.
        if (std::system("unshare -Urm true >/dev/null 2>&1") != 0) {
            sandboxProblem() = "'unshare -Urm' is refused here (unprivileged user namespaces are off, or "
                               "util-linux's unshare is missing)";
            return false;
        }
        std::error_code ec;
        std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
        if (ec) {
            sandboxProblem() = "cannot find the test executable: " + ec.message();
            return false;
        }
        ::setenv("OSPREY_MOUNT_SANDBOX", "1", 1);
        std::vector<char*> args = {const_cast<char*>("unshare"), const_cast<char*>("-Urm"),
                                   const_cast<char*>("--"), self.data()};
        for (int i = 1; i < argc; ++i)
            args.push_back(argv[i]);
        args.push_back(nullptr);
        ::execvp("unshare", args.data());
        sandboxProblem() = std::string("exec unshare: ") + std::strerror(errno);
        ::unsetenv("OSPREY_MOUNT_SANDBOX");
        return false;
    }
    writeProcFile("/proc/self/setgroups", "deny");
    if (!writeProcFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
        !writeProcFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1")) {
        sandboxProblem() = std::string("cannot map the user into the namespace: ") + std::strerror(errno);
        return false;
    }
    // Mounts made here must not propagate back to the parent namespace.
    if (::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
        sandboxProblem() = std::string("cannot make the mounts private: ") + std::strerror(errno);
        return false;
    }
    sandboxProblem().clear();
    return true;
}

inline bool sandboxAvailable() {
    return sandboxProblem().empty();
}

/// Mounts a tmpfs of `bytes` on `dir` (created when missing). Returns "" or what failed.
inline std::string mountTmpfs(const std::filesystem::path& dir, std::size_t bytes) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string options = "size=" + std::to_string(bytes) + ",mode=0755";
    if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) != 0)
        return "mount tmpfs on " + dir.string() + ": " + std::strerror(errno);
    return {};
}

/// Makes `dir` read-only for everyone (root too) by bind-mounting it onto itself read-only.
inline std::string bindReadOnly(const std::filesystem::path& dir) {
    if (::mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
        return "bind " + dir.string() + ": " + std::strerror(errno);
    if (::mount(nullptr, dir.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) != 0)
        return "remount " + dir.string() + " read-only: " + std::strerror(errno);
    return {};
}

inline void unmount(const std::filesystem::path& dir) {
    ::umount2(dir.c_str(), MNT_DETACH);
}

/// Fills the file system holding `dir` until a write fails with ENOSPC, then gives back `leaveFreeBytes`
/// (so that small writes still fit and a large one does not); returns the filler file, which frees the
/// space when removed.
inline std::filesystem::path fillDisk(const std::filesystem::path& dir, std::size_t leaveFreeBytes = 0) {
    const auto filler = dir / "filler.bin";
    const int fd = ::open(filler.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const std::string block(1 << 16, 'x');
    off_t written = 0;
    for (ssize_t n = 0; fd >= 0 && (n = ::write(fd, block.data(), block.size())) > 0;)
        written += n;
    if (fd >= 0) {
        if (leaveFreeBytes > 0)
            (void)::ftruncate(fd, std::max<off_t>(0, written - static_cast<off_t>(leaveFreeBytes)));
        ::close(fd);
    }
    return filler;
}

} // namespace osprey::test
