/* libwebp's one-call encoders (WebPEncodeRGBA, WebPEncodeLosslessRGBA) and WebPFree. */
#include <webp/encode.h>
