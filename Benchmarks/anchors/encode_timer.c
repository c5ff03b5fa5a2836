/* LD_PRELOAD probe for S3: times every call of libpng's simplified write API inside an
 * unmodified `mapsnap render` process and appends "<nanoseconds> <bytes>" lines to the file
 * named by $MAPSNAP_BENCH_ENCODE_LOG. Measures mapsnap's encoder only while it goes
 * through png_image_write_to_memory; an encoder that does not is invisible here (the
 * suite then reports S3 as not measurable and asks for an encode hook in mapsnap). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*write_fn)(void *, void *, size_t *, int, const void *, long, const void *);

int png_image_write_to_memory(void *image, void *memory, size_t *memory_bytes, int convert_to_8_bit,
                              const void *buffer, long row_stride, const void *colormap) {
    static write_fn real;
    if (!real) real = (write_fn)dlsym(RTLD_NEXT, "png_image_write_to_memory");
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int ok = real(image, memory, memory_bytes, convert_to_8_bit, buffer, row_stride, colormap);
    clock_gettime(CLOCK_MONOTONIC, &b);
    const char *log = getenv("MAPSNAP_BENCH_ENCODE_LOG");
    /* libpng calls this twice when `memory` is NULL (size query); time only real writes */
    if (log && memory && ok) {
        FILE *f = fopen(log, "a");
        if (f) {
            long long ns = (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
            fprintf(f, "%lld %zu\n", ns, *memory_bytes);
            fclose(f);
        }
    }
    return ok;
}
