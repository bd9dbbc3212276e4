// See include/ldcurl_shim.h for why these wrappers exist. Each one only fixes the type of the
// variadic argument; none adds behaviour.
#include "ldcurl_shim.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

CURLcode ldcurl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

CURLcode ldcurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ldcurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ldcurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ldcurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ldcurl_setopt_write_callback(CURL *handle, ldcurl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode ldcurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode ldcurl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode ldcurl_setopt_opensocket_callback(CURL *handle, ldcurl_opensocket_callback callback, void *clientp) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, clientp);
}

int ldcurl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char out[16]) {
    // curl hands the address in storage large enough for its family (`addrlen` says how large);
    // the lengths are checked so a short one is never read past.
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)(const void *)&address->addr;
        memcpy(out, &v4->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)(const void *)&address->addr;
        memcpy(out, &v6->sin6_addr, 16);
        return 16;
    }
    return 0;
}

curl_socket_t ldcurl_open_socket(const struct curl_sockaddr *address) {
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

curl_socket_t ldcurl_socket_bad(void) {
    return CURL_SOCKET_BAD;
}
