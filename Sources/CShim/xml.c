// libxml2 sets up its globals (dictionary random seed, mutexes, error handlers) in
// xmlInitParser, which must run once on one thread before any parsing: the gallery's lanes
// and the test runner parse on several threads at once, and two first parses at the same time
// deadlock inside xmlDictCreate. A constructor runs it before main, in every binary that links
// CShim (all of them, through Imaging). Declared here so CShim needs no libxml2 headers.
extern void xmlInitParser(void);

__attribute__((constructor)) static void pushpreview_xml_init(void) { xmlInitParser(); }
