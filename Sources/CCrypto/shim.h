#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/sha.h>

// An EC key on P-256 from its uncompressed point and, for a key pair, its private scalar; NULL
// when libcrypto refuses (a point off the curve). In C because OSSL_PARAM_BLD keeps the names
// and values it is given by pointer until OSSL_PARAM_BLD_to_param, longer than the temporary
// C strings of a Swift call live.
static inline EVP_PKEY *ccrypto_p256_key(const unsigned char *point, size_t point_length, const BIGNUM *scalar) {
    EVP_PKEY *key = NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    if (builder
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, point_length)
        && (scalar == NULL || OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, scalar))
        && (params = OSSL_PARAM_BLD_to_param(builder)) != NULL
        && (ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) != NULL
        && EVP_PKEY_fromdata_init(ctx) == 1) {
        EVP_PKEY_fromdata(ctx, &key, scalar ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params);
    }
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    return key;
}
