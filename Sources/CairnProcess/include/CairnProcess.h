#ifndef CAIRN_PROCESS_H
#define CAIRN_PROCESS_H

/// Asks the kernel to send `signal` to this process when its parent dies (Linux's
/// PR_SET_PDEATHSIG, which Swift cannot reach: prctl is variadic). Returns 0, or -1 with errno
/// set (ENOSYS where the system has no such thing).
int cairn_die_with_parent(int signal);

#endif
