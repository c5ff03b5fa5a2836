#include <zlib.h>

/* inflateInit2 is a macro; wrap it so Swift can call it. */
static inline int mapsnap_inflate_init2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
static inline int mapsnap_deflate_init2(z_streamp strm, int level, int windowBits) {
    return deflateInit2(strm, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}
