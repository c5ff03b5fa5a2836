/* TurboJPEG reports libjpeg's errors as return codes (its setjmp stays inside the library),
 * so no jump ever crosses a Swift frame. */
#include <turbojpeg.h>

/* TurboJPEG has no run-time version call; libjpeg-turbo's version is a macro of jconfig.h
   (libjpeg62-turbo-dev on Debian), 0 when that header is not installed. The release build
   links the library statically, so there the number is exactly the code that runs. */
#if __has_include(<jconfig.h>)
#include <jconfig.h>
#endif
static inline int mapsnap_libjpeg_turbo_version_number(void) {
#ifdef LIBJPEG_TURBO_VERSION_NUMBER
    return LIBJPEG_TURBO_VERSION_NUMBER;
#else
    return 0;
#endif
}
