// The text map of the aid's fonts. libharu gives each Unicode font a /ToUnicode stream that is
// a CID map (`begincidrange`) rather than a map to Unicode, so every PDF reader warns ("Invalid
// 'begincidrange' operator in ToUnicode CMap") and copy-and-paste rests on its guesses. The
// aid's character codes are Unicode already (libharu's UTF-8 encoder, Identity-H), so the right
// map is the identity over the Basic Multilingual Plane.
#pragma once

#include <string>

namespace wp::docgen {

// The identity ToUnicode CMap: each code of the Basic Multilingual Plane (surrogates excepted)
// to the same UTF-16 value, in ranges that keep to one high byte, at most 100 to a block.
std::string identity_to_unicode_cmap();

// The PDF with every font's /ToUnicode stream replaced by the identity map, written again by
// qpdf (object offsets and lengths stay right). Throws std::runtime_error when the bytes are
// not a PDF qpdf can read: they are always libharu's, so that is an internal error.
std::string mend_to_unicode(const std::string& pdf);

}  // namespace wp::docgen
