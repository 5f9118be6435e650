// make_aid: IR -> aid model -> display list -> PDF (or one of the dumps).
#include "westphalia/docgen/aid.hpp"

#include "layout.hpp"
#include "model.hpp"
#include "pdf_backend.hpp"

namespace wp::docgen {

aid_output make_aid(const ir::ruleset& rs, const aid_options& options, aid_product product) {
    const document doc = options.test_page ? test_page_document() : build_document(rs);
    pdf_backend backend(options.font_dir, options.fallback_fonts);
    // Laid out even for the text dump: it checks every character against the fonts.
    const display_list list = layout(doc, backend, options.size);
    if (!backend.missing().empty()) throw missing_glyphs_error(backend.missing());
    aid_output out;
    out.pages = list.pages.size();
    switch (product) {
        case aid_product::text_dump: out.bytes = document_text(doc); break;
        case aid_product::layout_dump: out.bytes = display_list_text(list); break;
        case aid_product::pdf: out.bytes = backend.render(list, doc.title); break;
    }
    return out;
}

}  // namespace wp::docgen
