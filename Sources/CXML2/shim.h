// Debian's libxml2 is built with ICU; its ICU types clash with Foundation's copy,
// so hide them before any other libxml2 header is read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// xmlFree is a mutable C global, which Swift 6 refuses to touch.
static inline void cxml_free(void *p) { xmlFree(p); }
