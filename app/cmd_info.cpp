// `westphalia info <ruleset>`: what a ruleset is — source, layers, options, players, and the
// data it marks as missing or supplies as a stand-in.
#include "cli.hpp"
#include "westphalia/dsl/json_text.hpp"
#include "ruleset_input.hpp"

#include "westphalia/ir/print.hpp"

#include <nlohmann/json.hpp>

#include <sstream>

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
        case ir::element_kind::entity:
            if (valid(rs.entities.size())) {
                const ir::entity& e = rs.entities[s.element];
                const bool piece = e.kind < rs.entity_kinds.size() && rs.entity_kinds[e.kind].pieces;
                return std::string(piece ? "piece " : "card ") + e.name + (s.field.empty() ? "" : " (" + s.field + ")");
            }
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
    if (!rs.checker.empty()) {
        // the manifest's budgets for `check` (its command line may override them)
        out << "checker  ";
        for (std::size_t i = 0; i < rs.checker.size(); ++i) {
            const ir::checker_setting& c = rs.checker[i];
            out << (i ? "," : "") << ' ';
            if (c.name == "tables_with_bounds" || c.name == "choices_with_bounds") {
                // `bounds part with …`: the stage, where its value is 1
                out << "bounds part with " << (c.name == "tables_with_bounds" ? "tables" : "choices") << (c.value ? "" : " (off)");
                continue;
            }
            out << (c.name == "unfold_limit"     ? "unfold limit "
                    : c.name == "unroll_depth"   ? "unroll depth "
                    : c.name == "evidence_games" ? "evidence games "
                                                 : "resource limit ")
                << c.value;
        }
        out << '\n';
    }
    out << "layers    " << rs.layers.size() << (rs.upto.empty() ? "" : " (up to " + rs.upto + ")") << '\n';
    for (const ir::layer& l : rs.layers) {
        out << "  " << l.name << " (" << ir::name_of(l.kind) << "):";
        for (ir::id f : l.files) out << ' ' << rs.files.at(f);
        out << '\n';
    }
    if (!rs.expansions.empty()) {
        // The selected ones in the order applied (as the layers list them), or none.
        std::string selected;
        for (const ir::layer& l : rs.layers)
            if (l.kind == ir::layer_kind::expansion) selected += (selected.empty() ? "" : ", ") + l.name;
        out << "expansions " << rs.expansions.size() << ", selected: " << (selected.empty() ? "none (--with)" : selected)
            << '\n';
        for (const ir::expansion& e : rs.expansions) {
            out << "  " << e.name;
            for (std::size_t a = 0; a < e.after.size(); ++a) out << (a ? ", " : " after ") << e.after[a];
            out << ':';
            for (const std::string& f : e.files) out << ' ' << f;
            out << (e.selected ? " (selected)" : " (not selected)") << '\n';
        }
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

// The same as one JSON object (`--format=json`).
nlohmann::ordered_json info_json(const ir::ruleset& rs) {
    using nlohmann::ordered_json;
    auto anchors = [](const ir::provenance& p) {
        const std::string a = anchors_text(p);
        return a.empty() ? a : a.substr(1);
    };
    ordered_json j{{"ruleset", rs.name}, {"title", rs.title}, {"source", rs.source}, {"sha256", rs.sha256},
                   {"players", {{"min", rs.min_players}, {"max", rs.max_players}}}, {"upto", rs.upto}};
    if (!rs.checker.empty()) {
        j["checker"] = ordered_json::object();
        for (const ir::checker_setting& c : rs.checker) j["checker"][c.name] = c.value;
    }
    j["layers"] = ordered_json::array();
    for (const ir::layer& l : rs.layers) {
        ordered_json files = ordered_json::array();
        for (ir::id f : l.files) files.push_back(rs.files.at(f));
        j["layers"].push_back({{"name", l.name}, {"kind", ir::name_of(l.kind)}, {"files", files}});
    }
    if (!rs.expansions.empty()) {
        j["expansions"] = ordered_json::array();
        for (const ir::expansion& e : rs.expansions)
            j["expansions"].push_back({{"name", e.name}, {"after", e.after}, {"files", e.files}, {"selected", e.selected}});
    }
    j["options"] = ordered_json::array();
    for (const ir::option& o : rs.options) {
        ordered_json x{{"name", o.name}, {"values", ordered_json::array()}};
        for (std::int64_t v : o.values) x["values"].push_back(ir::constant_text(rs, o.type, v));
        if (!o.values.empty()) {
            x["default"] = ir::constant_text(rs, o.type, o.values.at(o.default_index));
            x["chosen"] = ir::constant_text(rs, o.type, o.values.at(o.selected_index));
        }
        x["anchors"] = anchors(o.prov);
        j["options"].push_back(x);
    }
    j["missing"] = ordered_json::array();
    for (const ir::missing& m : rs.missing_data)
        j["missing"].push_back({{"name", m.name}, {"what", m.what}, {"anchors", anchors(m.prov)}});
    j["standins"] = ordered_json::array();
    for (const ir::standin& x : rs.standins)
        j["standins"].push_back({{"element", standin_text(rs, x)}, {"why", x.why}, {"anchors", anchors(x.prov)}});
    std::size_t encoded = 0, flavour = 0, missing = 0, pending = 0;
    for (const ir::section& x : rs.sections) {
        encoded += x.status == ir::section_status::encoded;
        flavour += x.status == ir::section_status::flavour;
        missing += x.status == ir::section_status::missing_data;
        pending += x.status == ir::section_status::pending;
    }
    j["outline"] = {{"sections", rs.sections.size()}, {"encoded", encoded}, {"flavour", flavour},
                    {"missing_data", missing}, {"pending", pending}};
    return j;
}

}  // namespace

void add_info_command(CLI::App& app, context& ctx) {
    auto input = std::make_shared<ruleset_input>();
    CLI::App* command = app.add_subcommand("info", "Describe a ruleset: source, layers, options, players, missing data");
    input->add_to(*command);
    command->get_option("--format")->description("How to print the description and any diagnostics: human, gnu or json");
    command->callback([input, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = input->load(ctx, sources, sink);
        const bool json = input->diagnostics.format == "json";
        // In JSON the description is the one document on stdout: the diagnostics alone when the
        // ruleset does not compile, else its warnings inside the description.
        if (!rs || !json) report(ctx, sources, sink, input->diagnostics);
        if (!rs) return;
        if (!json) return print_info(ctx.out, *rs);
        nlohmann::ordered_json j = info_json(*rs);
        if (!sink.all().empty()) {
            std::ostringstream diagnostics;
            dsl::render(diagnostics, sources, sink.all(), dsl::diag_format::json, input->diagnostics.max_errors);
            j["diagnostics"] = nlohmann::ordered_json::parse(diagnostics.str()).at("diagnostics");
        }
        ctx.out << dsl::json_text(j, 2) << '\n';
    });
}

}  // namespace wp::cli
