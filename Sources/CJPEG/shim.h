// libjpeg needs <stdio.h> (FILE, size_t) before its own header.
#include <stdio.h>
#include <jpeglib.h>
