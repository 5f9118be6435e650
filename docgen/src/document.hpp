// The aid model: what the aid says, in reading order, before any layout. Built from the IR by
// model.cpp; laid out by layout.cpp; its text dump is the content golden.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace wp::docgen {

enum class face { regular, bold, mono };

// A piece of text in one face; `muted` prints it grey (anchors, notes).
struct span {
    std::string text;
    face style = face::regular;
    bool muted = false;
};

using rich_text = std::vector<span>;

// A section heading (level 1) or an entry title (level 2), with the rulebook anchors.
struct heading {
    int level = 1;
    std::string text;
    std::string anchor;
};

// A paragraph; `indent` in steps (nested sequence-of-play entries), `bullet` prints a marker.
struct paragraph {
    rich_text text;
    int indent = 0;
    bool small = false;
};

enum class align { left, right, centre };

struct cell {
    rich_text text;
    align alignment = align::left;
};

// A ruled, shaded grid. Header rows repeat when the table continues in another column or page.
// `weights` are the relative shares of width each column may grow by beyond its narrowest.
struct grid {
    std::string caption;
    std::string anchor;
    std::vector<std::vector<cell>> header;
    std::vector<std::vector<cell>> rows;
    std::vector<std::string> notes;  // small print under the grid
};

using block = std::variant<heading, paragraph, grid>;

struct document {
    std::string title;
    std::string subtitle;
    std::vector<std::string> footer;  // small print on every page
    std::vector<block> blocks;
};

}  // namespace wp::docgen
