// SPDX-License-Identifier: MIT
/* tests/cxx/ops.cc - tests/cxx/ops.h compiled as C++17, once per breed */
#include "ops.h"
