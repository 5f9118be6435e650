// parse(): UTF-8 check, then the X3 grammar (grammar.hpp), then exactly one diagnostic on failure.
// The grammar builds the public syntax tree itself; this file turns the grammar's exceptions
// (expectation failures, semantic errors, nesting) into diagnostics and never lets one escape.
#include "westphalia/dsl/parser.hpp"

#include "grammar.hpp"

#include <pthread.h>

#include <exception>
#include <new>
#include <string>

namespace wp::dsl {

namespace {

// Length of the valid UTF-8 sequence at text[i], or 0 if it is invalid (overlong forms,
// surrogates and code points above U+10FFFF are invalid).
std::size_t utf8_sequence_length(const std::string& text, std::size_t i) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    if (b0 < 0x80) return 1;
    std::size_t len = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (i + len > text.size()) return 0;
    const auto b1 = static_cast<unsigned char>(text[i + 1]);
    if (b1 < lo || b1 > hi) return 0;
    for (std::size_t k = 2; k < len; ++k) {
        const auto b = static_cast<unsigned char>(text[i + k]);
        if (b < 0x80 || b > 0xBF) return 0;
    }
    return len;
}

// Offset of the first byte that breaks UTF-8, or npos.
std::size_t find_invalid_utf8(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string::npos;
}

// A span covering the character at `at` (empty at the end of the file).
span char_span(std::uint32_t file, const std::string& text, std::size_t at) {
    std::size_t end = at;
    if (at < text.size()) {
        end = at + 1;
        while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    }
    return span{file, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(end)};
}

// What stands at `at`, for "found …" in messages: a word, a character, or the end of the file.
std::string found_at(const std::string& text, std::size_t at) {
    if (at >= text.size()) return "the end of the file";
    const auto is_word = [](unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
    };
    std::size_t end = at;
    if (is_word(static_cast<unsigned char>(text[at]))) {
        while (end < text.size() && is_word(static_cast<unsigned char>(text[end])) && end - at < 40) ++end;
    } else {
        end = static_cast<std::size_t>(char_span(0, text, at).end);
    }
    return "`" + text.substr(at, end - at) + "`";
}

// X3 recursion costs several kilobytes of stack per nesting level (far more in debug and
// sanitizer builds), so the grammar runs on a thread of its own with a generous stack: the
// depth guard (max_nesting) then always trips before the stack runs out, whatever thread
// called parse(). Falls back to the calling thread if no thread can be made.
constexpr std::size_t parser_stack_bytes = std::size_t{256} << 20;

template <typename F>
void run_with_big_stack(F& work) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) == 0) {
        pthread_t thread;
        const bool ok = pthread_attr_setstacksize(&attr, parser_stack_bytes) == 0 &&
                        pthread_create(
                            &thread, &attr,
                            [](void* arg) -> void* {
                                (*static_cast<F*>(arg))();
                                return nullptr;
                            },
                            &work) == 0;
        pthread_attr_destroy(&attr);
        if (ok) {
            pthread_join(thread, nullptr);
            return;
        }
    }
    work();
}

std::optional<file> parse_here(const source_manager& sources, std::uint32_t id, diagnostic_sink& sink);

}  // namespace

std::optional<file> parse(const source_manager& sources, std::uint32_t id, diagnostic_sink& sink) {
    std::optional<file> result;
    auto work = [&]() noexcept { result = parse_here(sources, id, sink); };
    run_with_big_stack(work);
    return result;
}

namespace {

std::optional<file> parse_here(const source_manager& sources, std::uint32_t id, diagnostic_sink& sink) {
    namespace g = grammar;
    try {
        const std::string& text = sources.get(id).text;

        if (const std::size_t bad = find_invalid_utf8(text); bad != std::string::npos) {
            sink.error(diag_kind::invalid_utf8, span{id, static_cast<std::uint32_t>(bad), static_cast<std::uint32_t>(bad + 1)},
                       "invalid UTF-8 at byte " + std::to_string(bad) + ": rule files must be UTF-8 text");
            return std::nullopt;
        }

        g::iterator_type const begin = text.data();
        g::iterator_type const end = text.data() + text.size();
        g::parse_state state;
        state.base = begin;
        state.file = id;
        // Must be exactly grammar_config.hpp's context_type (or the link fails).
        g::skipper_context_type const skip_ctx{g::skipper, boost::spirit::x3::unused};
        g::context_type const ctx{state, skip_ctx};

        file result;
        result.id = id;
        g::iterator_type first = begin;
        try {
            const bool ok = g::file_rule().parse(first, end, ctx, boost::spirit::x3::unused, result);
            if (!ok || first != end) {  // unreachable: the file rule ends with an expectation of the end
                const auto at = static_cast<std::size_t>(g::skip_blanks(first, end) - begin);
                sink.error(diag_kind::syntax_error, char_span(id, text, at), "expected a declaration");
                return std::nullopt;
            }
        } catch (const boost::spirit::x3::expectation_failure<g::iterator_type>& x) {
            const auto at = static_cast<std::size_t>(g::skip_blanks(x.where(), end) - begin);
            // A missing `;` is shown right after the token it should follow; anything else at
            // the token that stands where the expected one should be.
            const bool after = x.which().rfind("`;`", 0) == 0;
            const auto shown = after ? static_cast<std::size_t>(x.where() - begin) : at;
            sink.error(diag_kind::syntax_error,
                       after ? span{id, static_cast<std::uint32_t>(shown), static_cast<std::uint32_t>(shown)}
                             : char_span(id, text, at),
                       "expected " + x.which() + ", found " + found_at(text, at));
            return std::nullopt;
        } catch (const g::semantic_error& e) {
            const auto b = static_cast<std::uint32_t>(e.begin - begin);
            auto en = static_cast<std::uint32_t>(e.end - begin);
            if (e.kind == diag_kind::syntax_error && en == b) {
                const auto at = static_cast<std::size_t>(g::skip_blanks(e.begin, end) - begin);
                sink.error(e.kind, char_span(id, text, at), e.message + ", found " + found_at(text, at));
            } else {
                sink.error(e.kind, span{id, b, en}, e.message);
            }
            return std::nullopt;
        }
        return result;
    } catch (const std::bad_alloc&) {
        sink.error(diag_kind::file_too_large, span{id, 0, 0}, "out of memory while parsing this file");
    } catch (const std::exception& e) {
        sink.error(diag_kind::syntax_error, span{id, 0, 0}, std::string("internal parser error: ") + e.what());
    } catch (...) {
        sink.error(diag_kind::syntax_error, span{id, 0, 0}, "internal parser error");
    }
    return std::nullopt;
}

}  // namespace
}  // namespace wp::dsl
