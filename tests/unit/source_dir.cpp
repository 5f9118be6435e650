// The one file that knows where the repository is (source_dir.hpp says why).
#include "source_dir.hpp"

const char* wp::test::source_dir() { return WP_SOURCE_DIR_PATH; }
