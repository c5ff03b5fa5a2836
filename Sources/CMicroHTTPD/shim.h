#include <arpa/inet.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>

/* The libmicrohttpd header mapsnap was built against, as 0xMMmmpp00 (loaded on first use). */
static inline unsigned long mapsnap_mhd_header_version(void) { return (unsigned long)MHD_VERSION; }
#include <string.h>
#include <sys/socket.h>

/* libmicrohttpd is loaded on first use (dlopen), not linked: linked, it and the TLS
   libraries it pulls in cost every mapsnap process milliseconds of dynamic linking at start,
   and only `mapsnap serve` uses it. The functions are reached through this table;
   `mapsnap_mhd_start` returns NULL when the library cannot be loaded, and the other calls
   need a daemon, so they run with it loaded. (Static state: one copy per object file
   that uses it, each loading on its own; dlopen hands all of them the same library.)

   libmicrohttpd's start, daemon-info and connection-info calls are variadic, which Swift
   cannot call; these fixed-argument wrappers are all mapsnap's HTTP adapter uses. */
struct mapsnap_mhd_table {
    struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
                                       void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...);
    void (*stop_daemon)(struct MHD_Daemon *daemon);
    MHD_socket (*quiesce_daemon)(struct MHD_Daemon *daemon);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType type, ...);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *connection,
                                                           enum MHD_ConnectionInfoType type, ...);
    struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
    struct MHD_Response *(*create_response_from_buffer_with_free_callback_cls)(size_t size, void *buffer,
                                                                               MHD_ContentReaderFreeCallback crfc,
                                                                               void *crfc_cls);
    void (*destroy_response)(struct MHD_Response *response);
    enum MHD_Result (*add_response_header)(struct MHD_Response *response, const char *header, const char *content);
    enum MHD_Result (*queue_response)(struct MHD_Connection *connection, unsigned int status_code,
                                      struct MHD_Response *response);
    const char *(*lookup_connection_value)(struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key);
    int (*get_connection_values)(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                 MHD_KeyValueIterator iterator, void *iterator_cls);
    void (*suspend_connection)(struct MHD_Connection *connection);
    void (*resume_connection)(struct MHD_Connection *connection);
    const char *(*get_version)(void);  /* may be NULL */
};

/* The loaded table. A function-local static: Swift's C importer emits the functions a
   module calls, not a header's static variables. */
struct mapsnap_mhd_state {
    pthread_once_t once;
    int loaded;
    struct mapsnap_mhd_table functions;
};
static inline struct mapsnap_mhd_state *mapsnap_mhd_state(void) {
    static struct mapsnap_mhd_state state = {PTHREAD_ONCE_INIT, 0, {0}};
    return &state;
}

static void mapsnap_mhd_load(void) {
    void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    struct mapsnap_mhd_table t;
    *(void **)&t.start_daemon = dlsym(library, "MHD_start_daemon");
    *(void **)&t.stop_daemon = dlsym(library, "MHD_stop_daemon");
    *(void **)&t.quiesce_daemon = dlsym(library, "MHD_quiesce_daemon");
    *(void **)&t.get_daemon_info = dlsym(library, "MHD_get_daemon_info");
    *(void **)&t.get_connection_info = dlsym(library, "MHD_get_connection_info");
    *(void **)&t.create_response_from_buffer = dlsym(library, "MHD_create_response_from_buffer");
    *(void **)&t.create_response_from_buffer_with_free_callback_cls =
        dlsym(library, "MHD_create_response_from_buffer_with_free_callback_cls");
    *(void **)&t.destroy_response = dlsym(library, "MHD_destroy_response");
    *(void **)&t.add_response_header = dlsym(library, "MHD_add_response_header");
    *(void **)&t.queue_response = dlsym(library, "MHD_queue_response");
    *(void **)&t.lookup_connection_value = dlsym(library, "MHD_lookup_connection_value");
    *(void **)&t.get_connection_values = dlsym(library, "MHD_get_connection_values");
    *(void **)&t.suspend_connection = dlsym(library, "MHD_suspend_connection");
    *(void **)&t.resume_connection = dlsym(library, "MHD_resume_connection");
    *(void **)&t.get_version = dlsym(library, "MHD_get_version");
    if (!t.start_daemon || !t.stop_daemon || !t.quiesce_daemon || !t.get_daemon_info || !t.get_connection_info ||
        !t.create_response_from_buffer || !t.create_response_from_buffer_with_free_callback_cls || !t.destroy_response || !t.add_response_header || !t.queue_response ||
        !t.lookup_connection_value || !t.get_connection_values || !t.suspend_connection || !t.resume_connection) return;
    mapsnap_mhd_state()->functions = t;
    mapsnap_mhd_state()->loaded = 1;
}

/* The table, or NULL when libmicrohttpd is not there. */
static inline const struct mapsnap_mhd_table *mapsnap_mhd(void) {
    struct mapsnap_mhd_state *state = mapsnap_mhd_state();
    pthread_once(&state->once, mapsnap_mhd_load);
    return state->loaded ? &state->functions : NULL;
}

/* The loaded libmicrohttpd's version ("0.9.75"), or NULL when it cannot be loaded. Loads it. */
static inline const char *mapsnap_mhd_version(void) {
    const struct mapsnap_mhd_table *m = mapsnap_mhd();
    return (m && m->get_version) ? m->get_version() : NULL;
}

static inline void mapsnap_mhd_stop_daemon(struct MHD_Daemon *daemon) { mapsnap_mhd()->stop_daemon(daemon); }
static inline MHD_socket mapsnap_mhd_quiesce_daemon(struct MHD_Daemon *daemon) {
    return mapsnap_mhd()->quiesce_daemon(daemon);
}
static inline void mapsnap_mhd_destroy_response(struct MHD_Response *response) {
    mapsnap_mhd()->destroy_response(response);
}
static inline enum MHD_Result mapsnap_mhd_add_response_header(struct MHD_Response *response, const char *header,
                                                              const char *content) {
    return mapsnap_mhd()->add_response_header(response, header, content);
}
static inline enum MHD_Result mapsnap_mhd_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                                         struct MHD_Response *response) {
    return mapsnap_mhd()->queue_response(connection, status_code, response);
}
static inline const char *mapsnap_mhd_lookup_connection_value(struct MHD_Connection *connection,
                                                              enum MHD_ValueKind kind, const char *key) {
    return mapsnap_mhd()->lookup_connection_value(connection, kind, key);
}
static inline int mapsnap_mhd_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                                    MHD_KeyValueIterator iterator, void *iterator_cls) {
    return mapsnap_mhd()->get_connection_values(connection, kind, iterator, iterator_cls);
}
static inline void mapsnap_mhd_suspend_connection(struct MHD_Connection *connection) {
    mapsnap_mhd()->suspend_connection(connection);
}
static inline void mapsnap_mhd_resume_connection(struct MHD_Connection *connection) {
    mapsnap_mhd()->resume_connection(connection);
}

/* Query arguments stay exactly as the client sent them (percent-escapes and '+' intact), so
   the Static Maps parser decodes a request the way `mapsnap render --url` decodes a URL. */
static size_t mapsnap_mhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    return strlen(s);
}

/* The address of this byte marks a request whose query has more parameters than the cap: the
   request-line callback returns it as the request's context (see below). */
static inline void *mapsnap_mhd_too_many_parameters(void) {
    static char marker;
    return &marker;
}

/* Called with the request target before libmicrohttpd splits its query into parameters,
   each of which takes a record from the connection's fixed memory pool: a query of thousands
   of tiny parameters exhausts the pool, and libmicrohttpd 0.9.75 then neither answers nor
   closes the connection. Over `cls` parameters (as an integer), the query is cut at the `?`
   (the target is libmicrohttpd's writable read buffer, and the '?' position was found before
   this call), so nothing is split, and the marker above tells the handler to answer 414. */
static void *mapsnap_mhd_count_parameters(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)connection;
    size_t limit = (size_t)(uintptr_t)cls;
    const char *query = uri == NULL ? NULL : strchr(uri, '?');
    if (query == NULL || query[1] == '\0') return NULL;
    size_t count = 1;
    for (const char *p = query + 1; *p != '\0' && *p != ' '; p++) {
        if (*p == '&') count++;
    }
    if (count <= limit) return NULL;
    ((char *)query)[1] = '\0';
    return mapsnap_mhd_too_many_parameters();
}

/* Where libmicrohttpd's own messages go: a formatted line handed to `line(context, text)`. */
struct mapsnap_mhd_log_target {
    void (*line)(void *context, const char *text);
    void *context;
};

static void mapsnap_mhd_log(void *cls, const char *format, va_list arguments) {
    const struct mapsnap_mhd_log_target *target = (const struct mapsnap_mhd_log_target *)cls;
    char text[512];
    vsnprintf(text, sizeof text, format, arguments);
    target->line(target->context, text);
}

/* Starts a daemon listening on `address` with the options mapsnap sets; NULL on failure. */
static inline struct MHD_Daemon *mapsnap_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                    MHD_AccessHandlerCallback handler, void *handler_cls,
                                                    MHD_RequestCompletedCallback completed, void *completed_cls,
                                                    MHD_NotifyConnectionCallback notify, void *notify_cls,
                                                    const struct mapsnap_mhd_log_target *log_target,
                                                    unsigned int io_threads, unsigned int connection_timeout,
                                                    unsigned int connection_limit, unsigned int per_ip_limit,
                                                    size_t memory_limit, unsigned int backlog,
                                                    unsigned int parameter_limit) {
    const struct mapsnap_mhd_table *m = mapsnap_mhd();
    if (m == NULL) return NULL;
    /* A pool of one thread draws a warning: the one event-loop thread is then simply the
       internal polling thread (the slot repeats the timeout, which takes the same argument). */
    enum MHD_OPTION pool_option = io_threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_CONNECTION_TIMEOUT;
    unsigned int pool_value = io_threads > 1 ? io_threads : connection_timeout;
    /* The logger first: libmicrohttpd prints messages about options before it to stderr. */
    return m->start_daemon(flags | MHD_USE_ERROR_LOG, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, mapsnap_mhd_log, (void *)log_target,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, mapsnap_mhd_count_parameters, (void *)(uintptr_t)parameter_limit,
                            pool_option, pool_value,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, backlog,
                            MHD_OPTION_UNESCAPE_CALLBACK, mapsnap_mhd_keep_escaped, (void *)NULL,
                            MHD_OPTION_END);
}

/* The port the daemon listens on (the one the kernel chose when asked for port 0). */
static inline unsigned int mapsnap_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = mapsnap_mhd()->get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The client's address as text ("127.0.0.1", "::1") into `out`; 0 on success. */
static inline int mapsnap_mhd_client_address(struct MHD_Connection *connection, char *out, socklen_t length) {
    const union MHD_ConnectionInfo *info = mapsnap_mhd()->get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        return inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, out, length) == NULL ? -1 : 0;
    }
    if (address->sa_family == AF_INET6) {
        return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, out, length) == NULL ? -1 : 0;
    }
    return -1;
}

/* A response sending `size` bytes at `data` without copying them: `release(owner)` is called
   when libmicrohttpd is done with the response, and the bytes must stay until then. */
static inline struct MHD_Response *mapsnap_mhd_shared_response(const void *data, size_t size,
                                                               void (*release)(void *owner), void *owner) {
    return mapsnap_mhd()->create_response_from_buffer_with_free_callback_cls(size, (void *)data, release, owner);
}

/* The connection's socket, or -1. */
static inline int mapsnap_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mapsnap_mhd()->get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* What the connection's socket context holds (set by the connection-notify callback). */
static inline void *mapsnap_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mapsnap_mhd()->get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* The status of the response libmicrohttpd queued on the connection (its own error
   replies included), 0 when none. */
static inline unsigned int mapsnap_mhd_connection_status(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mapsnap_mhd()->get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info == NULL ? 0 : info->http_status;
}
