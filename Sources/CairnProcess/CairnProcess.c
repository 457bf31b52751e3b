#include "CairnProcess.h"

#include <errno.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

int cairn_die_with_parent(int signal) {
#ifdef __linux__
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
#else
  (void)signal;
  errno = ENOSYS;
  return -1;
#endif
}
