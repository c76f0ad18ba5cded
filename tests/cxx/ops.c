// SPDX-License-Identifier: MIT
/* tests/cxx/ops.c - tests/cxx/ops.h compiled as C, once per breed */
#include "ops.h"
