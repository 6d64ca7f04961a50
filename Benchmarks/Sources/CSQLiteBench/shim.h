#include <sqlite3.h>
static inline sqlite3_destructor_type csqlitebench_transient(void) { return SQLITE_TRANSIENT; }

#include <malloc.h>

/// The bytes the heap has handed out and not taken back (glibc's count), for the memory workloads.
static inline size_t csqlitebench_heap_in_use(void) { return mallinfo2().uordblks; }
