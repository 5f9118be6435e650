// The one iterator type and the one context type the grammar is instantiated for.
// parser.cpp must build exactly this context, or the link fails (X3 pitfall P2).
#pragma once

#include "grammar_ast.hpp"

#include <boost/spirit/home/x3/core.hpp>

namespace wp::dsl::grammar {

namespace x3 = boost::spirit::x3;

// Skips whitespace and `//` comments to the end of the line. Hand-written: byte-based (so
// UTF-8 text never reaches <cctype>) and cheap to compile.
struct skipper_parser : x3::parser<skipper_parser> {
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
        if (first == last) return false;
        const char c = *first;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            ++first;
            return true;
        }
        if (c == '/' && last - first >= 2 && first[1] == '/') {
            first += 2;
            while (first != last && *first != '\n' && *first != '\r') ++first;  // a lone \r ends a line too
            return true;
        }
        return false;
    }
};

inline constexpr skipper_parser skipper{};

struct state_tag;

using skipper_context_type = x3::context<x3::skipper_tag, skipper_parser const, x3::unused_type>;
using context_type = x3::context<state_tag, parse_state, skipper_context_type>;

// Advances over whitespace and comments (used to place error positions on the next token).
inline iterator_type skip_blanks(iterator_type first, iterator_type last) {
    x3::unused_type u;
    while (skipper.parse(first, last, u, u, u)) {
    }
    return first;
}

}  // namespace wp::dsl::grammar
