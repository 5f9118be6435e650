// Replaces libharu's /ToUnicode streams through qpdf (Debian's libqpdf), which rewrites the file
// with its cross-reference table, instead of patching bytes in place.
#include "to_unicode.hpp"

// qpdf 11 asks its users to say they use std::shared_ptr, not its old PointerHolder (4: none).
#define POINTERHOLDER_TRANSITION 4

#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFWriter.hh>

#include <cstdio>
#include <set>
#include <stdexcept>
#include <vector>

namespace wp::docgen {

std::string identity_to_unicode_cmap() {
    std::vector<std::string> ranges;
    for (unsigned high = 0; high <= 0xFF; ++high) {
        if (high >= 0xD8 && high <= 0xDF) continue;  // UTF-16 surrogates are not characters
        char line[32];
        std::snprintf(line, sizeof line, "<%02X00> <%02XFF> <%02X00>\n", high, high, high);
        ranges.emplace_back(line);
    }
    std::string s =
        "/CIDInit /ProcSet findresource begin\n"
        "12 dict begin\n"
        "begincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n"
        "/CMapType 2 def\n"
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n";
    // The PDF reference allows at most 100 entries between beginbfrange and endbfrange.
    for (std::size_t i = 0; i < ranges.size(); i += 100) {
        const std::size_t n = std::min<std::size_t>(100, ranges.size() - i);
        s += std::to_string(n) + " beginbfrange\n";
        for (std::size_t k = i; k < i + n; ++k) s += ranges[k];
        s += "endbfrange\n";
    }
    s += "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";
    return s;
}

std::string mend_to_unicode(const std::string& pdf) {
    try {
        QPDF doc;
        doc.setSuppressWarnings(true);
        doc.processMemoryFile("aid.pdf", pdf.data(), pdf.size());
        const std::string cmap = identity_to_unicode_cmap();
        std::set<QPDFObjGen> done;
        for (QPDFObjectHandle page : doc.getAllPages()) {
            QPDFObjectHandle fonts = page.getKey("/Resources").getKey("/Font");
            if (!fonts.isDictionary()) continue;
            for (const std::string& key : fonts.getKeys()) {
                QPDFObjectHandle map = fonts.getKey(key).getKey("/ToUnicode");
                if (!map.isStream() || !done.insert(map.getObjGen()).second) continue;
                // Keep /Length (qpdf sets it); a ToUnicode stream is not a CMap resource.
                QPDFObjectHandle dict = map.getDict();
                for (const char* k : {"/Type", "/CMapName", "/CIDSystemInfo", "/WMode", "/UseCMap"}) dict.removeKey(k);
                map.replaceStreamData(cmap, QPDFObjectHandle::newNull(), QPDFObjectHandle::newNull());
            }
        }
        QPDFWriter out(doc);
        out.setOutputMemory();
        out.setDeterministicID(true);  // the same aid gives the same bytes
        out.setCompressStreams(true);
        out.write();
        const std::shared_ptr<Buffer> bytes = out.getBufferSharedPointer();
        return std::string(reinterpret_cast<const char*>(bytes->getBuffer()), bytes->getSize());
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("mending the aid's text maps: ") + e.what());
    }
}

}  // namespace wp::docgen
