// CLDR data from the system's ICU (libicu-dev): plural rules and the word for "now". Only this
// file sees ICU's headers: Foundation carries its own ICU (swift_-prefixed), whose C types would
// clash with these in Swift.
#include <unicode/upluralrules.h>
#include <unicode/ureldatefmt.h>
#include <unicode/ustring.h>
#include "cshim.h"

void *shim_plural_rules_open(const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    if (U_FAILURE(status)) { if (rules) uplrules_close(rules); return 0; }
    return rules;
}

int shim_plural_rules_select(void *rules, double n, char *out, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UChar keyword[32];
    int32_t length = uplrules_select((UPluralRules *)rules, n, keyword, 32, &status);
    if (U_FAILURE(status) || length >= capacity) return -1;
    for (int32_t i = 0; i < length; i++) out[i] = (char)keyword[i];
    out[length] = 0;
    return length;
}

int shim_relative_now(const char *locale, char *out, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    URelativeDateTimeFormatter *f = ureldatefmt_open(locale, NULL, UDAT_STYLE_LONG, UDISPCTX_CAPITALIZATION_NONE, &status);
    if (U_FAILURE(status)) { if (f) ureldatefmt_close(f); return -1; }
    UChar word[64];
    int32_t n = ureldatefmt_format(f, 0.0, UDAT_REL_UNIT_SECOND, word, 64, &status);
    ureldatefmt_close(f);
    if (U_FAILURE(status)) return -1;
    int32_t length = 0;
    u_strToUTF8(out, capacity, &length, word, n, &status);
    return U_FAILURE(status) || length >= capacity ? -1 : length;
}
