#include <isa-l/igzip_lib.h>

/* ISAL_DEF_LVL2_DEFAULT is an expression macro, which Swift does not import. */
static inline uint32_t mapsnap_isal_level2_buffer_size(void) { return ISAL_DEF_LVL2_DEFAULT; }

/* ISA-L has no run-time version call; the header's version, 0 when isa-l.h is missing. */
#if __has_include(<isa-l.h>)
#include <isa-l.h>
#endif
static inline uint32_t mapsnap_isal_version(void) {
#ifdef ISAL_MAJOR_VERSION
    return ((uint32_t)ISAL_MAJOR_VERSION << 16) | ((uint32_t)ISAL_MINOR_VERSION << 8) | (uint32_t)ISAL_PATCH_VERSION;
#else
    return 0;
#endif
}
