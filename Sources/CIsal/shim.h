#include <isa-l/igzip_lib.h>

/* ISAL_DEF_LVL2_DEFAULT is an expression macro, which Swift does not import. */
static inline uint32_t mapsnap_isal_level2_buffer_size(void) { return ISAL_DEF_LVL2_DEFAULT; }
