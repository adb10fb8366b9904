/* The header alone compiles warning-free as pedantic C99 (the build fails otherwise). */
#include <arbiter.h>

ArbiterStatus arbiter_header_compiles_as_c99(void);
ArbiterStatus arbiter_header_compiles_as_c99(void) {
    return ARBITER_OK;
}
