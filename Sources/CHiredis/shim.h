// Debian's libhiredis-dev installs the headers under hiredis/; pkg-config adds that directory,
// but the qualified path works with or without it.
#include <hiredis/hiredis.h>
