#include <png.h>

/* PNG_IMAGE_SIZE and friends are macros; expose what Swift needs as functions. */
static inline int mapsnap_png_image_failed(png_imagep image) { return PNG_IMAGE_FAILED(*image); }
