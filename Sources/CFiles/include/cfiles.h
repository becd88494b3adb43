// The one system call Swift cannot make itself: openat2(2), which glibc 2.36 does not wrap.
#ifndef CFILES_H
#define CFILES_H
#include <stdint.h>
#include <sys/types.h>

/// openat2(dirfd, path, {flags, mode, resolve}); -1 with errno set on failure (ENOSYS on a
/// kernel older than 5.6, EPERM or ENOSYS under a seccomp filter that does not know it).
int cfiles_openat2(int dirfd, const char *path, int flags, mode_t mode, uint64_t resolve);

/// The RESOLVE_* flags, as plain numbers Swift can read.
extern const uint64_t cfiles_resolve_beneath;
extern const uint64_t cfiles_resolve_no_symlinks;
extern const uint64_t cfiles_resolve_no_magiclinks;

/// O_PATH (glibc declares it only under _GNU_SOURCE, which Swift's Glibc module is not built with).
extern const int cfiles_o_path;
#endif
