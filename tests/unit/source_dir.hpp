// The repository's root, where the tests find rulesets, goldens and docs. Its path is compiled
// into one file only (source_dir.cpp): on every file's command line it made each compile depend
// on where the clone is, so ccache could not reuse a test's object in a fresh clone (CI's).
#pragma once

namespace wp::test {
const char* source_dir();
}  // namespace wp::test

#define WP_SOURCE_DIR (::wp::test::source_dir())
