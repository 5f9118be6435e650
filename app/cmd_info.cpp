// `westphalia info <ruleset>`: what a ruleset is — source, layers, options, players, and the
// data it marks as missing or supplies as a stand-in.
#include "cli.hpp"
#include "ruleset_input.hpp"

#include "westphalia/ir/print.hpp"

namespace wp::cli {

namespace {

std::string anchors_text(const ir::provenance& p) {
    std::string s;
    for (const ir::anchor& a : p.anchors) s += " §" + a.first + (a.last.empty() ? "" : "-" + a.last);
    return s;
}

// A stand-in's element by name, with its size: "map field (hexgrid, 3 hexes)", "pieces general
// (2 pieces)", "table campaign".
std::string standin_text(const ir::ruleset& rs, const ir::standin& s) {
    const auto valid = [&](std::size_t size) { return s.element != ir::no_id && s.element < size; };
    switch (s.kind) {
        case ir::element_kind::map:
            if (valid(rs.maps.size())) {
                const ir::map& m = rs.maps[s.element];
                const bool hex = m.kind == ir::map_kind::hexgrid;
                return "map " + m.name + " (" + ir::name_of(m.kind) + ", " + std::to_string(m.nodes.size()) +
                       (hex ? " hex" : " area") + (m.nodes.size() == 1 ? "" : hex ? "es" : "s") + ")";
            }
            break;
        case ir::element_kind::entity_kind:
            if (valid(rs.entity_kinds.size())) {
                const ir::entity_kind& k = rs.entity_kinds[s.element];
                std::int64_t copies = 0;
                for (std::uint32_t e = 0; e < k.entity_count; ++e) copies += rs.entities.at(k.first_entity + e).count;
                const std::string word = k.pieces ? "piece" : "card";
                return std::string(k.pieces ? "pieces " : "cards ") + k.name + " (" + std::to_string(copies) + ' ' +
                       word + (copies == 1 ? "" : "s") + ")";
            }
            break;
        case ir::element_kind::table:
            if (valid(rs.tables.size())) return "table " + rs.tables[s.element].name;
            break;
        default: break;
    }
    return std::string(ir::name_of(s.kind)) + ' ' + std::to_string(s.element);
}

void print_info(std::ostream& out, const ir::ruleset& rs) {
    out << "ruleset   " << rs.name << " — " << rs.title << '\n';
    out << "source    " << (rs.source.empty() ? "(not named)" : rs.source);
    if (!rs.sha256.empty()) out << " (sha256 " << rs.sha256 << ")";
    out << '\n';
    out << "players   " << rs.min_players << ".." << rs.max_players << '\n';
    out << "layers    " << rs.layers.size() << (rs.upto.empty() ? "" : " (up to " + rs.upto + ")") << '\n';
    for (const ir::layer& l : rs.layers) {
        out << "  " << l.name << " (" << ir::name_of(l.kind) << "):";
        for (ir::id f : l.files) out << ' ' << rs.files.at(f);
        out << '\n';
    }
    out << "options   " << rs.options.size() << '\n';
    for (const ir::option& o : rs.options) {
        out << "  " << o.name << " :";
        for (std::size_t v = 0; v < o.values.size(); ++v)
            out << (v ? " |" : "") << ' ' << ir::constant_text(rs, o.type, o.values[v]);
        if (!o.values.empty()) {
            out << "  default " << ir::constant_text(rs, o.type, o.values.at(o.default_index));
            if (o.selected_index != o.default_index)
                out << ", chosen " << ir::constant_text(rs, o.type, o.values.at(o.selected_index));
        }
        out << anchors_text(o.prov) << '\n';
    }
    out << "missing   " << rs.missing_data.size() << '\n';
    for (const ir::missing& m : rs.missing_data) out << "  " << m.name << ": " << m.what << anchors_text(m.prov) << '\n';
    out << "stand-ins " << rs.standins.size() << '\n';
    for (const ir::standin& s : rs.standins)
        out << "  " << standin_text(rs, s) << ": " << s.why << anchors_text(s.prov) << '\n';
    std::size_t encoded = 0, flavour = 0, missing = 0, pending = 0;
    for (const ir::section& s : rs.sections) {
        encoded += s.status == ir::section_status::encoded;
        flavour += s.status == ir::section_status::flavour;
        missing += s.status == ir::section_status::missing_data;
        pending += s.status == ir::section_status::pending;
    }
    out << "outline   " << rs.sections.size() << " sections: " << encoded << " encoded, " << flavour << " flavour, "
        << missing << " missing data";
    if (pending > 0) out << ", " << pending << " pending (not encoded yet)";
    out << '\n';
}

}  // namespace

void add_info_command(CLI::App& app, context& ctx) {
    auto input = std::make_shared<ruleset_input>();
    CLI::App* command = app.add_subcommand("info", "Describe a ruleset: source, layers, options, players, missing data");
    input->add_to(*command);
    command->callback([input, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = input->load(ctx, sources, sink);
        report(ctx, sources, sink, input->diagnostics);
        if (rs) print_info(ctx.out, *rs);
    });
}

}  // namespace wp::cli
