// The only translation unit that instantiates the grammar (one iterator type, one context type).
#include "grammar_def.hpp"

namespace wp::dsl::grammar {

BOOST_SPIRIT_INSTANTIATE(file_type, iterator_type, context_type)

file_type const& file_rule() { return file_r; }

}  // namespace wp::dsl::grammar
