// A text picture of part of a hex map, for a player at the terminal: each hex drawn as a small
// flat-topped hex with its number, terrain initial and the option numbers leading there, the
// pieces in it on its lower edge; below it the pieces in full, what the own fields of the hexes
// with pieces or options hold, the hexside features between shown hexes and the terrain legend. Pure: it draws a `hex_scene` (hex_scene.hpp builds one
// from a game state), so it is tested on fixed input.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace wp::cli {

struct hex_scene {
    struct hex {
        std::string number;   // as written: "0101"
        int col = 0;          // the number's first two digits; even columns sit half a hex lower
        int row = 0;          // its last two digits
        std::string terrain;  // the terrain's initial ("W"), empty when none
        std::string fields;   // its own fields that differ from their start, as the seat sees them:
                              // "inf[Protestant] 8, fort" (hidden ones at their start: not listed);
                              // listed for the hexes with pieces or options
    };
    struct piece {
        std::size_t hex = 0;  // index into hexes
        std::string tag;      // short, on the map: the piece's id ("tilly")
        std::string details;  // in the list below: "Imperial, disrupted" (may be empty)
        std::string mark;     // the option numbers choosing this piece ("1"), or empty
    };
    struct hexside {
        std::size_t a = 0, b = 0;  // indices into hexes
        std::string features;      // "River, Bridge"
    };
    std::string map_name;
    std::vector<hex> hexes;
    std::vector<std::pair<std::string, std::string>> legend;  // (initial, terrain), in enum order
    std::vector<hexside> hexsides;
    std::vector<piece> pieces;
    std::vector<std::string> marks;  // per hex (or empty): the option numbers leading there, "2,3"
};

struct hex_view_options {
    std::size_t max_width = 100;  // columns of text a picture may take
    std::size_t cell = 11;        // characters inside a hex
    std::size_t max_pictures = 6; // render_region: pictures shown before "… more"
};

// The hexes around each focus hex (it and its six neighbours), the neighbourhoods that overlap
// drawn as one picture; a picture wider than max_width is split into one per focus hex.
std::string render_region(const hex_scene& scene, const std::vector<std::size_t>& focus,
                          const hex_view_options& options = {});

// The whole map when it fits max_width (and has at most 200 hexes), else the occupied hexes
// with their neighbours, every picture shown.
std::string render_whole(const hex_scene& scene, const hex_view_options& options = {});

}  // namespace wp::cli
