// JSON as text for every machine-readable output (diagnostics, reports, logs, the IR). A path or a
// name can hold bytes that are not UTF-8 (a file name is any bytes); nlohmann's dump() throws on
// them, so each such byte is written as U+FFFD instead: the document stays valid JSON and the
// command does not fail over a name it only repeats.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace wp::dsl {

template <class Json>
std::string json_text(const Json& j, int indent = -1) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace wp::dsl
