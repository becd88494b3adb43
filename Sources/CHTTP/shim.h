#include <microhttpd.h>
#include <nghttp2/nghttp2.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

// What Swift cannot call itself: C variadic functions and function-like macros, and the one
// callback that hands back pointers into its own arguments (ALPN selection).

// An HTTP/1.1 daemon with no listening socket of its own: the server accepts and sniffs each
// connection and hands HTTP/1.1 ones over with MHD_add_connection. A thread per connection (an
// event stream blocks in its reader); URLs are left percent-encoded (the server decodes and
// confines them itself); `memory` bounds one connection's request line and headers (431 above).
static size_t chttp_keep_escaped(void *cls, struct MHD_Connection *c, char *s) { (void)cls; (void)c; return strlen(s); }
static inline struct MHD_Daemon *chttp_start_http1(MHD_AccessHandlerCallback handler, void *cls, MHD_RequestCompletedCallback completed,
                                                   unsigned int timeout, size_t memory, unsigned int connections) {
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC,
                            0, NULL, NULL, handler, cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory,
                            MHD_OPTION_CONNECTION_LIMIT, connections,
                            MHD_OPTION_UNESCAPE_CALLBACK, chttp_keep_escaped, NULL,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_END);
}

// TLS offers HTTP/2 only, as APNs does: a client that cannot speak h2 is refused in the handshake.
static int chttp_select_h2(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    return nghttp2_select_next_protocol((unsigned char **)out, outlen, in, inlen) == 1 ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_ALERT_FATAL;
}
static inline SSL_CTX *chttp_tls_context(void) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) return NULL;
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_SESSION_RESUMPTION_ON_RENEGOTIATION | SSL_OP_NO_RENEGOTIATION);
    SSL_CTX_set_alpn_select_cb(ctx, chttp_select_h2, NULL);
    return ctx;
}
static inline const char *chttp_alpn(SSL *ssl) {
    const unsigned char *p = NULL; unsigned int n = 0;
    SSL_get0_alpn_selected(ssl, &p, &n);
    return (n == 2 && p[0] == 'h' && p[1] == '2') ? "h2" : "";
}

// A self-signed P-256 certificate for `names` ("DNS:localhost,IP:127.0.0.1"), valid for `days`,
// written as PEM with its key into two files the caller opened (through its confined folder);
// 1 on success. The descriptors stay the caller's.
static inline int chttp_make_certificate(int key_fd, int cert_fd, const char *common_name, const char *names, long days) {
    int ok = 0;
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *cert = X509_new();
    X509_EXTENSION *san = NULL, *bc = NULL;
    FILE *kf = NULL, *cf = NULL;
    if (!key || !cert) goto done;
    X509_set_version(cert, 2);
    BIGNUM *serial = BN_new();
    if (!serial || !BN_rand(serial, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) || !BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert))) { BN_free(serial); goto done; }
    BN_free(serial);
    X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert), days * 86400L);
    X509_set_pubkey(cert, key);
    X509_NAME *name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509V3_CTX v3;
    X509V3_set_ctx_nodb(&v3);
    X509V3_set_ctx(&v3, cert, cert, NULL, NULL, 0);
    san = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_alt_name, names);
    bc = X509V3_EXT_conf_nid(NULL, &v3, NID_basic_constraints, "critical,CA:TRUE,pathlen:0");
    if (!san || !bc || !X509_add_ext(cert, san, -1) || !X509_add_ext(cert, bc, -1)) goto done;
    if (!X509_sign(cert, key, EVP_sha256())) goto done;
    int kfd = dup(key_fd);
    if (kfd < 0 || !(kf = fdopen(kfd, "w"))) { if (kfd >= 0) close(kfd); goto done; }
    if (!PEM_write_PrivateKey(kf, key, NULL, NULL, 0, NULL, NULL)) goto done;
    int cfd = dup(cert_fd);
    if (cfd < 0 || !(cf = fdopen(cfd, "w"))) { if (cfd >= 0) close(cfd); goto done; }
    if (!PEM_write_X509(cf, cert)) goto done;
    ok = 1;
done:
    if (kf) fclose(kf);
    if (cf) fclose(cf);
    X509_EXTENSION_free(san);
    X509_EXTENSION_free(bc);
    X509_free(cert);
    EVP_PKEY_free(key);
    return ok;
}

// The SHA-256 fingerprint of the certificate in `ctx`, 32 bytes into `out`; 1 on success.
static inline int chttp_fingerprint(SSL_CTX *ctx, unsigned char *out) {
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    unsigned int n = 0;
    return cert && X509_digest(cert, EVP_sha256(), out, &n) && n == 32;
}

// The stop signal every connection polls for, and accept with close-on-exec (a render worker
// started meanwhile must not inherit a client's socket).
static inline int chttp_eventfd(void) { return eventfd(0, EFD_CLOEXEC); }
static inline int chttp_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC); }
