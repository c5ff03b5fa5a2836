/* libjpeg adapter. libjpeg reports errors by calling error_exit, which must not return; the
 * only safe way out is longjmp. The setjmp lives in this file so the jump never crosses a
 * Swift frame: every path out of these functions is an ordinary return with a status. */

#include "mapsnap_shims.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    mapsnap_jpeg_status status;
    mapsnap_jpeg_info *info;
} mapsnap_error_mgr;

typedef struct {
    struct jpeg_progress_mgr pub;
    mapsnap_error_mgr *errors;
} mapsnap_progress_mgr;

static void record(j_common_ptr cinfo, mapsnap_jpeg_status status) {
    mapsnap_error_mgr *err = (mapsnap_error_mgr *)cinfo->err;
    err->status = status;
    err->info->message_code = err->pub.msg_code;
    (*cinfo->err->format_message)(cinfo, err->info->message);
}

static void on_error_exit(j_common_ptr cinfo) {
    mapsnap_error_mgr *err = (mapsnap_error_mgr *)cinfo->err;
    record(cinfo, MAPSNAP_JPEG_CORRUPT);
    longjmp(err->jump, 1);
}

/* msg_level −1 is a warning, which libjpeg uses for corrupt or truncated data it papers over
 * (filling the rest of the image with grey). We refuse those; trace messages are ignored. */
static void on_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;
    mapsnap_error_mgr *err = (mapsnap_error_mgr *)cinfo->err;
    record(cinfo, err->pub.msg_code == JWRN_JPEG_EOF ? MAPSNAP_JPEG_TRUNCATED : MAPSNAP_JPEG_CORRUPT);
    longjmp(err->jump, 1);
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; /* the library never prints */ }

static void on_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (d->input_scan_number > MAPSNAP_JPEG_MAX_SCANS) {
        mapsnap_progress_mgr *p = (mapsnap_progress_mgr *)cinfo->progress;
        p->errors->status = MAPSNAP_JPEG_TOO_MANY_SCANS;
        snprintf(p->errors->info->message, sizeof p->errors->info->message,
                 "more than %d scans", MAPSNAP_JPEG_MAX_SCANS);
        longjmp(p->errors->jump, 1);
    }
}

static void fill_info(j_decompress_ptr cinfo, const uint8_t *data, size_t size, mapsnap_jpeg_info *info) {
    (void)data;
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->color_space = (int32_t)cinfo->jpeg_color_space;
    info->components = cinfo->num_components;
    info->progressive = cinfo->progressive_mode ? 1 : 0;
    if (cinfo->src) info->offset = (uint64_t)(size - cinfo->src->bytes_in_buffer);
}

/* Shared body: header, limits, and (when `out` is non-null) the full decode. Everything that
 * may longjmp happens between setjmp and the return below, all inside this one frame. */
static mapsnap_jpeg_status run(const uint8_t *data, size_t size, size_t max_pixels,
                               uint8_t *out, size_t out_size, mapsnap_jpeg_info *info) {
    struct jpeg_decompress_struct cinfo;
    mapsnap_error_mgr err;
    mapsnap_progress_mgr progress;

    memset(info, 0, sizeof *info);
    info->message_code = -1;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error_exit;
    err.pub.emit_message = on_emit_message;
    err.pub.output_message = on_output_message;
    err.status = MAPSNAP_JPEG_OK;
    err.info = info;

    if (setjmp(err.jump)) {
        fill_info(&cinfo, data, size, info);
        jpeg_destroy_decompress(&cinfo);
        return err.status;
    }

    jpeg_create_decompress(&cinfo);
    progress.pub.progress_monitor = on_progress;
    progress.errors = &err;
    cinfo.progress = &progress.pub;
    /* A cap on libjpeg's working memory (whole-image coefficient buffers for progressive
     * files): the pixel limit × 3 components × 2 bytes per coefficient, plus slack. */
    if (cinfo.mem) cinfo.mem->max_memory_to_use = (long)((max_pixels > (size_t)1 << 28 ? (size_t)1 << 28 : max_pixels) * 8 + (16 << 20));

    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    fill_info(&cinfo, data, size, info);

    if ((uint64_t)cinfo.image_width * (uint64_t)cinfo.image_height > (uint64_t)max_pixels) {
        jpeg_destroy_decompress(&cinfo);
        snprintf(info->message, sizeof info->message, "%ux%u pixels exceed the limit of %zu",
                 cinfo.image_width, cinfo.image_height, max_pixels);
        return MAPSNAP_JPEG_TOO_LARGE;
    }
    int cmyk = 0;
    switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: case JCS_RGB: case JCS_YCbCr:
        cinfo.out_color_space = JCS_EXT_RGBA;
        break;
    case JCS_CMYK: case JCS_YCCK:
        cinfo.out_color_space = JCS_CMYK;
        cmyk = 1;
        break;
    default:
        jpeg_destroy_decompress(&cinfo);
        snprintf(info->message, sizeof info->message, "unsupported JPEG colour space %d with %d components",
                 (int)info->color_space, (int)info->components);
        return MAPSNAP_JPEG_UNSUPPORTED_COLOR;
    }
    if (out == NULL) {
        jpeg_destroy_decompress(&cinfo);
        return MAPSNAP_JPEG_OK;
    }
    size_t row_bytes = (size_t)cinfo.image_width * 4;
    if (out_size != row_bytes * cinfo.image_height) {
        jpeg_destroy_decompress(&cinfo);
        snprintf(info->message, sizeof info->message, "output buffer of %zu bytes, image needs %zu",
                 out_size, row_bytes * cinfo.image_height);
        return MAPSNAP_JPEG_BAD_BUFFER;
    }
    /* Pin the pixel-affecting knobs: accurate integer IDCT and fancy upsampling, whatever
     * the library's defaults are, so the same file gives the same pixels everywhere. */
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.do_fancy_upsampling = TRUE;
    cinfo.do_block_smoothing = TRUE;

    jpeg_start_decompress(&cinfo);
    int inverted = cinfo.saw_Adobe_marker ? 1 : 0;
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = out + (size_t)cinfo.output_scanline * row_bytes;
        JDIMENSION got = jpeg_read_scanlines(&cinfo, &row, 1);
        if (got != 1) break;
        if (cmyk) {
            /* Adobe writes CMYK inverted (0 = full ink); plain CMYK stores ink directly. */
            uint8_t *p = row;
            for (JDIMENSION x = 0; x < cinfo.output_width; x++, p += 4) {
                unsigned c = p[0], m = p[1], y = p[2], k = p[3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                p[0] = (uint8_t)((c * k + 127) / 255);
                p[1] = (uint8_t)((m * k + 127) / 255);
                p[2] = (uint8_t)((y * k + 127) / 255);
                p[3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&cinfo);
    fill_info(&cinfo, data, size, info);
    jpeg_destroy_decompress(&cinfo);
    return MAPSNAP_JPEG_OK;
}

mapsnap_jpeg_status mapsnap_jpeg_read_header(const uint8_t *data, size_t size, size_t max_pixels,
                                             mapsnap_jpeg_info *info) {
    return run(data, size, max_pixels, NULL, 0, info);
}

mapsnap_jpeg_status mapsnap_jpeg_decode(const uint8_t *data, size_t size, size_t max_pixels,
                                        uint8_t *out, size_t out_size, mapsnap_jpeg_info *info) {
    return run(data, size, max_pixels, out, out_size, info);
}
