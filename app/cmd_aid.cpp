// `westphalia aid <ruleset>`: the ruleset's player aid as a PDF (through the shared output
// writer), or the text dumps of its layout and content that the goldens record.
#include "cli.hpp"
#include "output_file.hpp"
#include "ruleset_input.hpp"

#include "westphalia/docgen/aid.hpp"

namespace wp::cli {

void add_aid_command(CLI::App& app, context& ctx) {
    struct settings {
        ruleset_input input;
        std::string output;
        std::string paper = "a4";
        std::string dump;
        std::string font_dir = docgen::aid_options{}.font_dir;
        bool test_page = false;
    };
    auto s = std::make_shared<settings>();
    CLI::App* command = app.add_subcommand("aid", "Print a ruleset's player aid (PDF) from its IR");
    s->input.add_to(*command);
    command->add_option("-o,--output", s->output, "The PDF to write (default: <ruleset>.pdf in this folder; `-`: standard output)");
    command->add_option("--paper", s->paper, "Paper size: a4 or letter")->check(CLI::IsMember({"a4", "letter"}));
    command->add_option("--dump", s->dump, "Print the layout (display list) or the text instead of writing a PDF")
        ->check(CLI::IsMember({"layout", "text"}));
    command->add_option("--font-dir", s->font_dir, "The folder holding DejaVuSansCondensed.ttf, DejaVuSansCondensed-Bold.ttf and DejaVuSansMono.ttf");
    command->add_flag("--test-page", s->test_page, "Print the character test page (Ö, ü, —, ×, ½, ≤) instead of the aid");
    command->callback([s, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = s->input.load(ctx, sources, sink);
        report(ctx, sources, sink, s->input.diagnostics);
        if (!rs) return;
        docgen::aid_options options;
        options.size = s->paper == "letter" ? docgen::paper::letter : docgen::paper::a4;
        options.font_dir = s->font_dir;
        options.test_page = s->test_page;
        const auto product = s->dump == "layout" ? docgen::aid_product::layout_dump
                           : s->dump == "text"   ? docgen::aid_product::text_dump
                                                 : docgen::aid_product::pdf;
        const std::string path = s->output.empty() ? rs->name + ".pdf" : s->output;
        const std::vector<std::string> inputs = input_files({s->input.path}, sources);
        if (product == docgen::aid_product::pdf && !check_output(ctx, "--output", path, inputs)) return;
        try {
            const docgen::aid_output out = docgen::make_aid(*rs, options, product);
            if (product != docgen::aid_product::pdf) {
                ctx.out << out.bytes;
                return;
            }
            if (!write_output(ctx, "--output", path, out.bytes, inputs)) return;
            if (is_standard_output(path)) return;  // the PDF is the whole output
            ctx.out << "wrote " << path << ": " << out.pages << " page" << (out.pages == 1 ? "" : "s") << ", "
                    << (options.size == docgen::paper::letter ? "Letter" : "A4") << '\n';
        } catch (const docgen::aid_error& e) {
            ctx.err << "westphalia: error: cannot make the aid: " << e.what() << '\n';
            ctx.exit_code = exit_bad_input;
        }
    });
}

}  // namespace wp::cli
