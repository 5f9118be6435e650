// The interpreter (interp.hpp): zones. Their statements (shuffle, draw, deal, move, reshuffle)
// and the changes they make to a zone's contents; membership and aggregates read zones in place
// in expressions.cpp.
#include "interp.hpp"

namespace wp::engine {

void interp::zone_remove(id n, std::int64_t zi, std::int64_t inst) {
    const auto z = static_cast<std::size_t>(zi);
    changed_zone(z, n);
    const std::uint32_t off = g.zone_capacity_offset[z];
    std::uint32_t& size = s.zone_size_[z];
    for (std::uint32_t i = size; i-- > 0;) {
        if (s.contents_[off + i] == inst) {
            for (std::uint32_t j = i; j + 1 < size; ++j) s.contents_[off + j] = s.contents_[off + j + 1];
            --size;
            return;
        }
    }
    fail(n, g.instance_text(inst) + " is not in " + zone_text(zi), {"unmet-obligation", rs.zones[g.zone_instance_zone[z]].name, ""});
}

// A draw or deal that came short, for the checker's evidence play (state::faults_passed): the
// checker reports it as an unmet obligation, and a game that met it is its trace.
void interp::note_short_draw(id n, std::int64_t zi) {
    if (!passed_at(n)) note_passed({"unmet-obligation", rs.zones[g.zone_instance_zone[static_cast<std::size_t>(zi)]].name, "", n});
}

// Whether play already went past a fault at node n in this game (state::faults_passed keeps
// the first of each), and noting one, with the decisions made by then.
bool interp::passed_at(id n) const {
    return std::any_of(s.faults_passed_.begin(), s.faults_passed_.end(), [&](const auto& f) { return f.first.node == n; });
}
void interp::note_passed(engine_fault f) { s.faults_passed_.push_back({std::move(f), s.decisions_}); }

// The topmost copy of inst's entity in zone zi (inst itself when there is none).
std::int64_t interp::copy_in(std::int64_t zi, std::int64_t inst) const {
    const auto z = static_cast<std::size_t>(zi);
    const std::uint32_t off = g.zone_capacity_offset[z];
    for (std::uint32_t i = s.zone_size_[z]; i-- > 0;)
        if (entity_or_none(s.contents_[off + i]) == entity_or_none(inst)) return s.contents_[off + i];
    return inst;
}

void interp::zone_add(id n, std::int64_t zi, std::int64_t inst) {
    const auto z = static_cast<std::size_t>(zi);
    const ir::zone& zone = rs.zones[g.zone_instance_zone[z]];
    if (inst < 0 || g.instance_entity.at(static_cast<std::size_t>(inst)) >= rs.entities.size() ||
        rs.entities[g.instance_entity[static_cast<std::size_t>(inst)]].kind != zone.entity_kind)
        fail(n, "cannot put " + g.instance_text(inst) + " in " + zone_text(zi));
    s.contents_[g.zone_capacity_offset[z] + s.zone_size_[z]++] = static_cast<std::int32_t>(inst);
    changed_zone(z, n);
}

void interp::zone_shuffle(id n, std::int64_t zi) {
    const auto z = static_cast<std::size_t>(zi);
    changed_zone(z, n);
    const std::uint32_t off = g.zone_capacity_offset[z];
    if (s.exact_ && s.zone_size_[z] > 1) fail(n, "a shuffle of " + zone_text(zi) + " has no exact odds here");
    for (std::uint32_t i = s.zone_size_[z]; i > 1; --i) {
        const auto j = static_cast<std::uint32_t>(s.rng_.below(i));
        std::swap(s.contents_[off + i - 1], s.contents_[off + j]);
    }
}

std::string interp::zone_text(std::int64_t zi) const {
    const auto z = static_cast<std::size_t>(zi);
    const id zone = g.zone_instance_zone.at(z);
    std::string t = rs.zones[zone].name;
    t += ir::zone_instance_suffix(rs, rs.zones[zone], static_cast<std::size_t>(zi) - g.zone_first[zone]);
    return t;
}

// The zone instances an expression names: one, or each player's for a per-player zone, or
// each location's for a per-location zone.
void interp::zone_targets(id n, std::uint32_t fb, std::vector<std::int64_t>& out) {
    out.clear();
    if (kind_of(n) == ir::type_kind::map_of) {
        const std::int64_t base = eval(n, fb);
        const ir::id z = g.zone_instance_zone.at(static_cast<std::size_t>(base));
        const auto count = static_cast<std::int64_t>(ir::zone_instance_count(rs, rs.zones[z], g.players()));
        for (std::int64_t p = 0; p < count; ++p) out.push_back(base + p);
    } else {
        out.push_back(eval(n, fb));
    }
}

// A zone statement (statement() sends them here): shuffle, draw, deal, move, reshuffle.
void interp::zone_statement(std::size_t fi, id n, std::uint32_t fb) {
    const ir::node& nd = N(n);
    auto advance = [&] { ++s.frames_[fi].pc; };
    switch (nd.code) {
        case op::shuffle: {
            zone_targets(child(n, 0), fb, s.targets_);
            advance();
            for (std::int64_t z : s.targets_) zone_shuffle(n, z);
            return;
        }
        case op::draw:
        case op::deal: {
            const std::int64_t count = eval(child(n, 0), fb);
            const std::int64_t from = eval(child(n, 1), fb);
            zone_targets(child(n, 2), fb, s.targets_);
            const std::vector<std::int64_t>& to = s.targets_;
            advance();
            for (std::int64_t i = 0; i < count; ++i)
                for (std::int64_t z : to) {
                    const auto fz = static_cast<std::size_t>(from);
                    if (s.zone_size_[fz] == 0) {
                        if (s.opt_.track_coverage) note_short_draw(n, from);
                        return;
                    }
                    const std::int64_t top = s.contents_[g.zone_capacity_offset[fz] + s.zone_size_[fz] - 1];
                    zone_remove(n, from, top);
                    zone_add(n, z, top);
                }
            return;
        }
        case op::move: {
            std::int64_t e = eval(child(n, 0), fb);
            const std::int64_t from = eval(child(n, 1), fb);
            const std::int64_t to = eval(child(n, 2), fb);
            if (N(child(n, 0)).code == op::const_entity) e = copy_in(from, e);
            advance();
            zone_remove(n, from, e);
            zone_add(n, to, e);
            return;
        }
        case op::reshuffle: {
            const std::int64_t from = eval(child(n, 0), fb);
            const std::int64_t into = eval(child(n, 1), fb);
            advance();
            const auto fz = static_cast<std::size_t>(from);
            if (nd.value == 1) {  // `move all from … to …`: the whole stack, in its order, no shuffle
                if (from == into) return;
                const std::uint32_t off = g.zone_capacity_offset[fz];
                const std::uint32_t k = s.zone_size_[fz];
                for (std::uint32_t i = 0; i < k; ++i) zone_add(n, into, s.contents_[off + i]);
                changed_zone(fz, n);
                s.zone_size_[fz] = 0;
                return;
            }
            while (s.zone_size_[fz] > 0) {
                const std::int64_t top = s.contents_[g.zone_capacity_offset[fz] + s.zone_size_[fz] - 1];
                zone_remove(n, from, top);
                zone_add(n, into, top);
            }
            zone_shuffle(n, into);
            return;
        }
        default: fail(n, std::string("not a zone statement: ") + ir::name_of(nd.code));
    }
}

}  // namespace wp::engine
