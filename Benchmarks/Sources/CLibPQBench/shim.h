#ifndef CLIBPQBENCH_SHIM_H
#define CLIBPQBENCH_SHIM_H
#include <libpq-fe.h>
#endif
