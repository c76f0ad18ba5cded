/* Includes a header the build generates and has not generated yet: the
 * compiler cannot read this unit whole, and nothing here uses a count. */
#include "enums.h"
#include "conn.h"

const char *conn_state_name(int s) { return s == CONN_OPEN ? "open" : "closed"; }
