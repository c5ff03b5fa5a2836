#include <dlfcn.h>
#include <harfbuzz/hb.h>
#include <pthread.h>
#include <stdio.h>

/* The HarfBuzz header mapsnap was built against (the library itself is loaded on first use). */
static inline const char *mapsnap_hb_header_version(void) { return HB_VERSION_STRING; }

/* HarfBuzz is loaded on first use (dlopen), not linked: Debian's libharfbuzz.so.0 pulls in
   GLib, graphite2, PCRE2, Brotli and libstdc++ (15 more shared objects), which cost every
   mapsnap process ~5 M instructions (4-5 ms) of dynamic linking at start, although
   `--version`, `info`, `data` and renders without text never shape anything. Opened by its SONAME (the -dev package's
   libharfbuzz.so symlink is not on a machine that only runs mapsnap). The functions are
   reached through this table; `mapsnap_hb()` is NULL when HarfBuzz cannot be loaded, and
   then `mapsnap_hb_load_error()` says why. (Static state: one copy per object file that uses
   it, each loading on its own; dlopen hands all of them the same library.)
   Each field has the type of the header's declaration, so a signature cannot drift. */
struct mapsnap_hb_table {
    __typeof__(hb_blob_create) *blob_create;
    __typeof__(hb_blob_destroy) *blob_destroy;
    __typeof__(hb_face_create) *face_create;
    __typeof__(hb_face_destroy) *face_destroy;
    __typeof__(hb_face_get_glyph_count) *face_get_glyph_count;
    __typeof__(hb_face_get_upem) *face_get_upem;
    __typeof__(hb_font_create) *font_create;
    __typeof__(hb_font_set_scale) *font_set_scale;
    __typeof__(hb_font_make_immutable) *font_make_immutable;
    __typeof__(hb_font_destroy) *font_destroy;
    __typeof__(hb_buffer_create) *buffer_create;
    __typeof__(hb_buffer_destroy) *buffer_destroy;
    __typeof__(hb_buffer_add_codepoints) *buffer_add_codepoints;
    __typeof__(hb_buffer_set_direction) *buffer_set_direction;
    __typeof__(hb_buffer_set_script) *buffer_set_script;
    __typeof__(hb_shape) *shape;
    __typeof__(hb_buffer_get_glyph_infos) *buffer_get_glyph_infos;
    __typeof__(hb_buffer_get_glyph_positions) *buffer_get_glyph_positions;
    __typeof__(hb_unicode_funcs_get_default) *unicode_funcs_get_default;
    __typeof__(hb_unicode_script) *unicode_script;
    __typeof__(hb_version_string) *version_string;
};

/* The loaded table. A function-local static: Swift's C importer emits the functions a
   module calls, not a header's static variables. `soname`, when set, replaces the SONAME
   (tests of a debug build point it at a library that is not there); `error` is dlerror's
   text. */
struct mapsnap_hb_state {
    pthread_once_t once;
    int loaded;
    const char *soname;
    char error[256];
    struct mapsnap_hb_table functions;
};
static inline struct mapsnap_hb_state *mapsnap_hb_state(void) {
    static struct mapsnap_hb_state state = {PTHREAD_ONCE_INIT, 0, NULL, {0}, {0}};
    return &state;
}

static void mapsnap_hb_load(void) {
    struct mapsnap_hb_state *state = mapsnap_hb_state();
    /* The literal stays in a dlopen call: scripts/package.sh finds the libraries to depend on
       by these calls. */
    void *library = state->soname == NULL ? dlopen("libharfbuzz.so.0", RTLD_NOW | RTLD_LOCAL)
                                          : dlopen(state->soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(state->error, sizeof state->error, "%s", reason ? reason : "dlopen failed");
        return;
    }
    struct mapsnap_hb_table t;
    *(void **)&t.blob_create = dlsym(library, "hb_blob_create");
    *(void **)&t.blob_destroy = dlsym(library, "hb_blob_destroy");
    *(void **)&t.face_create = dlsym(library, "hb_face_create");
    *(void **)&t.face_destroy = dlsym(library, "hb_face_destroy");
    *(void **)&t.face_get_glyph_count = dlsym(library, "hb_face_get_glyph_count");
    *(void **)&t.face_get_upem = dlsym(library, "hb_face_get_upem");
    *(void **)&t.font_create = dlsym(library, "hb_font_create");
    *(void **)&t.font_set_scale = dlsym(library, "hb_font_set_scale");
    *(void **)&t.font_make_immutable = dlsym(library, "hb_font_make_immutable");
    *(void **)&t.font_destroy = dlsym(library, "hb_font_destroy");
    *(void **)&t.buffer_create = dlsym(library, "hb_buffer_create");
    *(void **)&t.buffer_destroy = dlsym(library, "hb_buffer_destroy");
    *(void **)&t.buffer_add_codepoints = dlsym(library, "hb_buffer_add_codepoints");
    *(void **)&t.buffer_set_direction = dlsym(library, "hb_buffer_set_direction");
    *(void **)&t.buffer_set_script = dlsym(library, "hb_buffer_set_script");
    *(void **)&t.shape = dlsym(library, "hb_shape");
    *(void **)&t.buffer_get_glyph_infos = dlsym(library, "hb_buffer_get_glyph_infos");
    *(void **)&t.buffer_get_glyph_positions = dlsym(library, "hb_buffer_get_glyph_positions");
    *(void **)&t.unicode_funcs_get_default = dlsym(library, "hb_unicode_funcs_get_default");
    *(void **)&t.unicode_script = dlsym(library, "hb_unicode_script");
    *(void **)&t.version_string = dlsym(library, "hb_version_string");
    if (!t.blob_create || !t.blob_destroy || !t.face_create || !t.face_destroy || !t.face_get_glyph_count ||
        !t.face_get_upem || !t.font_create || !t.font_set_scale || !t.font_make_immutable || !t.font_destroy ||
        !t.buffer_create || !t.buffer_destroy || !t.buffer_add_codepoints || !t.buffer_set_direction ||
        !t.buffer_set_script || !t.shape || !t.buffer_get_glyph_infos || !t.buffer_get_glyph_positions ||
        !t.unicode_funcs_get_default || !t.unicode_script || !t.version_string) {
        snprintf(state->error, sizeof state->error, "a function mapsnap uses is missing (HarfBuzz older than 1.0?)");
        return;
    }
    state->functions = t;
    state->loaded = 1;
}

/* Points the loader at another file; only before the first `mapsnap_hb()` (tests). */
static inline void mapsnap_hb_use_soname(const char *soname) { mapsnap_hb_state()->soname = soname; }

/* The table, or NULL when HarfBuzz is not there. Loads it on the first call. */
static inline const struct mapsnap_hb_table *mapsnap_hb(void) {
    struct mapsnap_hb_state *state = mapsnap_hb_state();
    pthread_once(&state->once, mapsnap_hb_load);
    return state->loaded ? &state->functions : NULL;
}

/* What the loader said when HarfBuzz could not be loaded ("" when it was). */
static inline const char *mapsnap_hb_load_error(void) { return mapsnap_hb_state()->error; }
/* The file dlopen is given. */
static inline const char *mapsnap_hb_soname(void) {
    const char *soname = mapsnap_hb_state()->soname;
    return soname ? soname : "libharfbuzz.so.0";
}

/* The loaded HarfBuzz's version ("6.0.0"), or NULL when it cannot be loaded. Loads it. */
static inline const char *mapsnap_hb_version_string(void) {
    const struct mapsnap_hb_table *h = mapsnap_hb();
    return h ? h->version_string() : NULL;
}

/* Calls that make or need no HarfBuzz object return NULL / HB_SCRIPT_UNKNOWN without it. */
static inline hb_blob_t *mapsnap_hb_blob_create(const char *data, unsigned int length, hb_memory_mode_t mode,
                                                void *user_data, hb_destroy_func_t destroy) {
    const struct mapsnap_hb_table *h = mapsnap_hb();
    return h ? h->blob_create(data, length, mode, user_data, destroy) : NULL;
}
static inline hb_buffer_t *mapsnap_hb_buffer_create(void) {
    const struct mapsnap_hb_table *h = mapsnap_hb();
    return h ? h->buffer_create() : NULL;
}
static inline hb_script_t mapsnap_hb_unicode_script(hb_codepoint_t unicode) {
    const struct mapsnap_hb_table *h = mapsnap_hb();
    return h ? h->unicode_script(h->unicode_funcs_get_default(), unicode) : HB_SCRIPT_UNKNOWN;
}

/* The rest are called with an object made above, so HarfBuzz is loaded. */
static inline void mapsnap_hb_blob_destroy(hb_blob_t *blob) { mapsnap_hb()->blob_destroy(blob); }
static inline hb_face_t *mapsnap_hb_face_create(hb_blob_t *blob, unsigned int index) {
    return mapsnap_hb()->face_create(blob, index);
}
static inline void mapsnap_hb_face_destroy(hb_face_t *face) { mapsnap_hb()->face_destroy(face); }
static inline unsigned int mapsnap_hb_face_get_glyph_count(const hb_face_t *face) {
    return mapsnap_hb()->face_get_glyph_count(face);
}
static inline unsigned int mapsnap_hb_face_get_upem(const hb_face_t *face) { return mapsnap_hb()->face_get_upem(face); }
static inline hb_font_t *mapsnap_hb_font_create(hb_face_t *face) { return mapsnap_hb()->font_create(face); }
static inline void mapsnap_hb_font_set_scale(hb_font_t *font, int x_scale, int y_scale) {
    mapsnap_hb()->font_set_scale(font, x_scale, y_scale);
}
static inline void mapsnap_hb_font_make_immutable(hb_font_t *font) { mapsnap_hb()->font_make_immutable(font); }
static inline void mapsnap_hb_font_destroy(hb_font_t *font) { mapsnap_hb()->font_destroy(font); }
static inline void mapsnap_hb_buffer_destroy(hb_buffer_t *buffer) { mapsnap_hb()->buffer_destroy(buffer); }
static inline void mapsnap_hb_buffer_add_codepoints(hb_buffer_t *buffer, const hb_codepoint_t *text, int text_length,
                                                    unsigned int item_offset, int item_length) {
    mapsnap_hb()->buffer_add_codepoints(buffer, text, text_length, item_offset, item_length);
}
static inline void mapsnap_hb_buffer_set_direction(hb_buffer_t *buffer, hb_direction_t direction) {
    mapsnap_hb()->buffer_set_direction(buffer, direction);
}
static inline void mapsnap_hb_buffer_set_script(hb_buffer_t *buffer, hb_script_t script) {
    mapsnap_hb()->buffer_set_script(buffer, script);
}
static inline void mapsnap_hb_shape(hb_font_t *font, hb_buffer_t *buffer) {
    mapsnap_hb()->shape(font, buffer, NULL, 0);
}
static inline hb_glyph_info_t *mapsnap_hb_buffer_get_glyph_infos(hb_buffer_t *buffer, unsigned int *length) {
    return mapsnap_hb()->buffer_get_glyph_infos(buffer, length);
}
static inline hb_glyph_position_t *mapsnap_hb_buffer_get_glyph_positions(hb_buffer_t *buffer, unsigned int *length) {
    return mapsnap_hb()->buffer_get_glyph_positions(buffer, length);
}
