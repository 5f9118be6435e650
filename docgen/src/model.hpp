// From the IR to the aid model: which sections an aid has and what each entry says.
// Nothing here knows a particular game: every word comes from the IR and the templates.
#pragma once

#include "document.hpp"

#include "westphalia/ir/ir.hpp"

namespace wp::docgen {

// The player aid of a compiled ruleset.
document build_document(const ir::ruleset& rs);

// A page proving the fonts draw every character the games use (Österreich, Lützen, —, ×, ½, ≤).
document test_page_document();

// The aid's content as plain text in reading order (the content golden).
std::string document_text(const document& doc);

}  // namespace wp::docgen
