#include <libdeflate.h>

/* libdeflate has no run-time version call; the header's version (the release build links
   the library statically, so there it is exactly the code that runs). */
static inline const char *mapsnap_libdeflate_version(void) { return LIBDEFLATE_VERSION_STRING; }
