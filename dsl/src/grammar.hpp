// Declares the grammar's entry rule; its definition is in grammar_def.hpp and it is
// instantiated once, in grammar.cpp, for grammar_config.hpp's iterator and context.
#pragma once

#include "grammar_config.hpp"

#include <boost/spirit/home/x3/nonterminal/rule.hpp>

namespace wp::dsl::grammar {

struct file_class;
using file_type = x3::rule<file_class, wp::dsl::file>;
BOOST_SPIRIT_DECLARE(file_type)

// The whole-file rule: declarations up to the end of the input.
file_type const& file_rule();

}  // namespace wp::dsl::grammar
