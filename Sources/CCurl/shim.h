#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>

/* The libcurl header mapsnap was built against (the library itself is loaded on first use). */
static inline const char *mapsnap_curl_header_version(void) { return LIBCURL_VERSION; }

/* libcurl is loaded on first use (dlopen), not linked: linked, it and the TLS, Kerberos and
   LDAP libraries it pulls in cost every mapsnap process about 10 ms of dynamic linking at
   start, although most never fetch anything. The functions are reached through this table;
   `mapsnap_curl_easy_init` returns NULL and `mapsnap_curl_global_init` CURLE_FAILED_INIT when
   libcurl cannot be loaded. (Static state: one copy per object file that uses it, each loading
   on its own; dlopen hands all of them the same library.) */
struct mapsnap_curl_table {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
    curl_version_info_data *(*version_info)(CURLversion stamp);  /* may be NULL */
};

/* The loaded table. A function-local static: Swift's C importer emits the functions a
   module calls, not a header's static variables. */
struct mapsnap_curl_state {
    pthread_once_t once;
    int loaded;
    struct mapsnap_curl_table functions;
};
static inline struct mapsnap_curl_state *mapsnap_curl_state(void) {
    static struct mapsnap_curl_state state = {PTHREAD_ONCE_INIT, 0, {0}};
    return &state;
}

static void mapsnap_curl_load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    struct mapsnap_curl_table t;
    *(void **)&t.global_init = dlsym(library, "curl_global_init");
    *(void **)&t.easy_init = dlsym(library, "curl_easy_init");
    *(void **)&t.easy_cleanup = dlsym(library, "curl_easy_cleanup");
    *(void **)&t.easy_reset = dlsym(library, "curl_easy_reset");
    *(void **)&t.easy_perform = dlsym(library, "curl_easy_perform");
    *(void **)&t.easy_strerror = dlsym(library, "curl_easy_strerror");
    *(void **)&t.easy_setopt = dlsym(library, "curl_easy_setopt");
    *(void **)&t.easy_getinfo = dlsym(library, "curl_easy_getinfo");
    *(void **)&t.slist_append = dlsym(library, "curl_slist_append");
    *(void **)&t.slist_free_all = dlsym(library, "curl_slist_free_all");
    *(void **)&t.version_info = dlsym(library, "curl_version_info");
    if (!t.global_init || !t.easy_init || !t.easy_cleanup || !t.easy_reset || !t.easy_perform ||
        !t.easy_strerror || !t.easy_setopt || !t.easy_getinfo || !t.slist_append || !t.slist_free_all) return;
    mapsnap_curl_state()->functions = t;
    mapsnap_curl_state()->loaded = 1;
}

/* The table, or NULL when libcurl is not there. */
static inline const struct mapsnap_curl_table *mapsnap_curl(void) {
    struct mapsnap_curl_state *state = mapsnap_curl_state();
    pthread_once(&state->once, mapsnap_curl_load);
    return state->loaded ? &state->functions : NULL;
}

/* The loaded libcurl's version ("7.88.1"), or NULL when it cannot be loaded. Loads it. */
static inline const char *mapsnap_curl_version(void) {
    const struct mapsnap_curl_table *c = mapsnap_curl();
    if (c == NULL || c->version_info == NULL) return NULL;
    const curl_version_info_data *info = c->version_info(CURLVERSION_NOW);
    return info ? info->version : NULL;
}

/* CURL_GLOBAL_DEFAULT is a macro expression. */
static inline CURLcode mapsnap_curl_global_init(void) {
    const struct mapsnap_curl_table *c = mapsnap_curl();
    return c ? c->global_init(CURL_GLOBAL_DEFAULT) : CURLE_FAILED_INIT;
}
static inline CURL *mapsnap_curl_easy_init(void) {
    const struct mapsnap_curl_table *c = mapsnap_curl();
    return c ? c->easy_init() : NULL;
}
/* The rest are called with a handle, so libcurl is loaded. */
static inline void mapsnap_curl_easy_cleanup(CURL *handle) { mapsnap_curl()->easy_cleanup(handle); }
static inline void mapsnap_curl_easy_reset(CURL *handle) { mapsnap_curl()->easy_reset(handle); }
static inline CURLcode mapsnap_curl_easy_perform(CURL *handle) { return mapsnap_curl()->easy_perform(handle); }
static inline const char *mapsnap_curl_easy_strerror(CURLcode code) {
    const struct mapsnap_curl_table *c = mapsnap_curl();
    return c ? c->easy_strerror(code) : "libcurl (libcurl.so.4) could not be loaded";
}

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one wrapper
   per argument type fixes the type at the call. */
static inline CURLcode mapsnap_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return mapsnap_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode mapsnap_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return mapsnap_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode mapsnap_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return mapsnap_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode mapsnap_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return mapsnap_curl()->easy_setopt(handle, option, value);
}
static inline CURLcode mapsnap_curl_setopt_write_function(CURL *handle, curl_write_callback callback) {
    return mapsnap_curl()->easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode mapsnap_curl_setopt_header_function(CURL *handle, curl_write_callback callback) {
    return mapsnap_curl()->easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}
static inline CURLcode mapsnap_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return mapsnap_curl()->easy_getinfo(handle, info, value);
}
static inline CURLcode mapsnap_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return mapsnap_curl()->easy_getinfo(handle, info, value);
}
static inline CURLcode mapsnap_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return mapsnap_curl()->easy_getinfo(handle, info, value);
}
/* Request headers (conditional requests): a list built with append, owned by the caller,
   freed after the transfer that uses it. Only called once libcurl is loaded. */
static inline void *mapsnap_curl_slist_append(void *list, const char *string) {
    return mapsnap_curl()->slist_append((struct curl_slist *)list, string);
}
static inline void mapsnap_curl_slist_free_all(void *list) {
    if (list != NULL) mapsnap_curl()->slist_free_all((struct curl_slist *)list);
}
/* The size libcurl writes into CURLOPT_ERRORBUFFER. */
static inline int mapsnap_curl_error_size(void) { return CURL_ERROR_SIZE; }
