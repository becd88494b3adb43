#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>

// Function-like macros and gpointer casts do not import into Swift.
static inline void cpango_unref(void *object) { g_object_unref(object); }
static inline PangoFcFontMap *cpango_fc_font_map(PangoFontMap *map) { return PANGO_FC_FONT_MAP(map); }
static inline void cpango_free(void *p) { g_free(p); }
