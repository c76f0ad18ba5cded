/* Compiled, with -DWITH_OPTIONAL and -I.. (the fixture's compile
 * database); optional/esd.c beside it is not compiled by the build. */
#include "wrap.h"
int base_value(void) { return 1; }
