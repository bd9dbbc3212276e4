// Typed, non-variadic doors into libcurl for Swift.
//
// Why this shim exists: Swift cannot call C variadic functions, and `curl_easy_setopt` and
// `curl_easy_getinfo` are variadic (the option decides the type of the one extra argument). Each
// wrapper below fixes that type, so a wrong-typed argument is a compile error instead of memory
// corruption inside curl. A few values curl defines as composite macros (`CURL_GLOBAL_DEFAULT`)
// are not reliably imported by Swift, so they are wrapped as functions too.
//
// Every symbol is prefixed `ldcurl_` (live-draw curl) so it never clashes with curl's own names.
#ifndef LDCURL_SHIM_H
#define LDCURL_SHIM_H

#include <curl/curl.h>

/// `curl_global_init(CURL_GLOBAL_DEFAULT)`. Call once per process, before any handle exists.
CURLcode ldcurl_global_init(void);

/// Options that take a `long` (flags, counts, timeouts in ms).
CURLcode ldcurl_setopt_long(CURL *handle, CURLoption option, long value);

/// Options that take a `curl_off_t` (the `*_LARGE` sizes).
CURLcode ldcurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);

/// Options that take a C string. curl copies the string, so it may be freed after the call.
CURLcode ldcurl_setopt_string(CURL *handle, CURLoption option, const char *value);

/// Options that take a pointer curl keeps (WRITEDATA, ERRORBUFFER): it must outlive the transfer.
CURLcode ldcurl_setopt_pointer(CURL *handle, CURLoption option, void *value);

/// The body callback: return `size * nmemb` to go on, anything else aborts with CURLE_WRITE_ERROR.
typedef size_t (*ldcurl_write_callback)(char *data, size_t size, size_t nmemb, void *userdata);

/// Sets CURLOPT_WRITEFUNCTION.
CURLcode ldcurl_setopt_write_callback(CURL *handle, ldcurl_write_callback callback);

/// Infos that yield a `long` (RESPONSE_CODE, OS_ERRNO, REDIRECT_COUNT, REQUEST_SIZE).
CURLcode ldcurl_getinfo_long(CURL *handle, CURLINFO info, long *value);

/// Infos that yield a C string owned by the handle (REDIRECT_URL): valid until the handle's next
/// transfer or cleanup, so copy it at once. `*value` may be NULL (no such information).
CURLcode ldcurl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

/// The connect hook of room list sources (CURLOPT_OPENSOCKETFUNCTION): curl calls it with the
/// address it is about to connect to, after DNS and for every redirect; it returns the socket
/// (`ldcurl_open_socket`), or `CURL_SOCKET_BAD` to refuse the address (the transfer then fails
/// with CURLE_COULDNT_CONNECT). Why here and not a check before the transfer: a name checked
/// first may resolve to another address when curl connects (DNS rebinding); this is the address
/// actually used. The decision itself is made in Swift (`AddressRange`, `SourceAddressGuard`).
typedef curl_socket_t (*ldcurl_opensocket_callback)(void *clientp, curlsocktype purpose, struct curl_sockaddr *address);

/// Sets CURLOPT_OPENSOCKETFUNCTION and its CURLOPT_OPENSOCKETDATA (`clientp`, which curl keeps:
/// it must outlive the transfer).
CURLcode ldcurl_setopt_opensocket_callback(CURL *handle, ldcurl_opensocket_callback callback, void *clientp);

/// Copies the IP address of `address` into `out` (network order): returns 4 (IPv4), 16 (IPv6),
/// or 0 for any other family (nothing copied).
int ldcurl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char out[16]);

/// Opens the socket curl asked for, as curl itself would (close-on-exec added); `CURL_SOCKET_BAD`
/// when the system refuses.
curl_socket_t ldcurl_open_socket(const struct curl_sockaddr *address);

/// `CURL_SOCKET_BAD`, a macro Swift does not import.
curl_socket_t ldcurl_socket_bad(void);

#endif
