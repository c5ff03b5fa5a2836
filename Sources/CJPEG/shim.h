/* libjpeg needs <stdio.h> and <stddef.h> before jpeglib.h (it uses FILE and size_t). */
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
