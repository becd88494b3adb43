// CLDR plural rules from the system's ICU (libicu-dev). Only this file sees ICU's headers:
// Foundation carries its own ICU (swift_-prefixed), whose C types would clash with these in Swift.
#include <unicode/upluralrules.h>
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
