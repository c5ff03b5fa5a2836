/* TurboJPEG reports libjpeg's errors as return codes (its setjmp stays inside the library),
 * so no jump ever crosses a Swift frame. */
#include <turbojpeg.h>
