#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

/* libmicrohttpd's start, daemon-info and connection-info calls are variadic, which Swift
   cannot call; these fixed-argument wrappers are all mapsnap's HTTP adapter uses. */

/* Query arguments stay exactly as the client sent them (percent-escapes and '+' intact), so
   the Static Maps parser decodes a request the way `mapsnap render --url` decodes a URL. */
static size_t mapsnap_mhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    return strlen(s);
}

/* Starts a daemon listening on `address` with the options mapsnap sets; NULL on failure. */
static inline struct MHD_Daemon *mapsnap_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                    MHD_AccessHandlerCallback handler, void *handler_cls,
                                                    MHD_RequestCompletedCallback completed, void *completed_cls,
                                                    unsigned int io_threads, unsigned int connection_timeout,
                                                    unsigned int connection_limit, unsigned int per_ip_limit,
                                                    size_t memory_limit, unsigned int backlog) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_THREAD_POOL_SIZE, io_threads,
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
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The client's address as text ("127.0.0.1", "::1") into `out`; 0 on success. */
static inline int mapsnap_mhd_client_address(struct MHD_Connection *connection, char *out, socklen_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
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

/* A response owning a copy of `size` bytes (the caller's buffer may go away at once). */
static inline struct MHD_Response *mapsnap_mhd_copied_response(const void *data, size_t size) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}
