#define _GNU_SOURCE
#include "cfiles.h"
#include <linux/openat2.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>

const uint64_t cfiles_resolve_beneath = RESOLVE_BENEATH;
const uint64_t cfiles_resolve_no_symlinks = RESOLVE_NO_SYMLINKS;
const uint64_t cfiles_resolve_no_magiclinks = RESOLVE_NO_MAGICLINKS;
const int cfiles_o_path = O_PATH;

int cfiles_openat2(int dirfd, const char *path, int flags, mode_t mode, uint64_t resolve) {
#ifdef SYS_openat2
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)(unsigned)flags;
    how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
    how.resolve = resolve;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
#else
    errno = ENOSYS;
    return -1;
#endif
}
