// Private to the parser: the state the X3 grammar threads through its context and the errors
// its semantic actions raise. The grammar builds the public ast.hpp types directly through
// semantic actions, so no separate attribute tree (and no Boost type) is needed here.
#pragma once

#include "westphalia/dsl/ast.hpp"
#include "westphalia/dsl/diagnostics.hpp"

#include <cstdint>
#include <string>

namespace wp::dsl::grammar {

using iterator_type = const char*;

// One per parse() call; reached from semantic actions through x3::get<state_tag>(context).
struct parse_state {
    iterator_type base = nullptr;  // start of the file text: spans are offsets from here
    std::uint32_t file = 0;
    int depth = 0;                 // current nesting of expressions and blocks

    span make_span(iterator_type b, iterator_type e) const {
        return span{file, static_cast<std::uint32_t>(b - base), static_cast<std::uint32_t>(e - base)};
    }
};

// Thrown by semantic actions for input that parses but is invalid as written (a number too
// large, 0d6, 5..2) and by the nesting guard; parse() turns it into one diagnostic.
struct semantic_error {
    diag_kind kind;
    iterator_type begin;
    iterator_type end;
    std::string message;
};

}  // namespace wp::dsl::grammar
