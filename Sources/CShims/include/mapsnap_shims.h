#ifndef MAPSNAP_SHIMS_H
#define MAPSNAP_SHIMS_H

/* C that cannot be written in Swift. Only plain C types cross this boundary: no libjpeg
 * type appears here, so Swift never sees (or jumps through) libjpeg's state. */

#include <stddef.h>
#include <stdint.h>

/* Outcome of a JPEG call. */
typedef enum {
    MAPSNAP_JPEG_OK = 0,
    /* The data ended before the image was complete (libjpeg's "Premature end of JPEG file"). */
    MAPSNAP_JPEG_TRUNCATED = 1,
    /* libjpeg reported an error or a corrupt-data warning; see `message`. */
    MAPSNAP_JPEG_CORRUPT = 2,
    /* The header declares more than `max_pixels` pixels (nothing was allocated). */
    MAPSNAP_JPEG_TOO_LARGE = 3,
    /* A colour space other than grey, YCbCr/RGB, CMYK or YCCK. */
    MAPSNAP_JPEG_UNSUPPORTED_COLOR = 4,
    /* The caller's buffer does not match the image (programmer error on the Swift side). */
    MAPSNAP_JPEG_BAD_BUFFER = 5,
    /* More scans than a sane progressive file has (a decompression-time bomb). */
    MAPSNAP_JPEG_TOO_MANY_SCANS = 6
} mapsnap_jpeg_status;

/* What the decoder learnt; filled as far as it got, also on failure. */
typedef struct {
    uint32_t width;
    uint32_t height;
    /* libjpeg's J_COLOR_SPACE of the file (1 grey, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK). */
    int32_t color_space;
    int32_t components;
    int32_t progressive;
    /* Byte offset in the input where libjpeg stood when it stopped (error evidence). */
    uint64_t offset;
    /* libjpeg's message code of the failure, or -1. */
    int32_t message_code;
    /* libjpeg's formatted message, NUL-terminated. */
    char message[200];
} mapsnap_jpeg_info;

/* Largest number of scans accepted; a baseline file has 1, a typical progressive one ~10. */
#define MAPSNAP_JPEG_MAX_SCANS 256

/* Reads only the header of `data` and fills `info`. Fails with TOO_LARGE when width × height
 * exceeds `max_pixels`. Never longjmps out: libjpeg's errors are caught inside. */
mapsnap_jpeg_status mapsnap_jpeg_read_header(const uint8_t *data, size_t size, size_t max_pixels,
                                             mapsnap_jpeg_info *info);

/* Decodes `data` into `out` as opaque RGBA8 (alpha 255, so it is also premultiplied), rows
 * top to bottom without padding. `out_size` must be exactly width × height × 4 as reported by
 * mapsnap_jpeg_read_header. Grey becomes R = G = B; CMYK/YCCK (Adobe-inverted or plain) is
 * converted with the naive formula R = (1 − C)(1 − K). Any libjpeg warning about corrupt or
 * missing data fails the decode: a half-grey tile must not be drawn as if it were fine. */
mapsnap_jpeg_status mapsnap_jpeg_decode(const uint8_t *data, size_t size, size_t max_pixels,
                                        uint8_t *out, size_t out_size, mapsnap_jpeg_info *info);

#endif
