// The rule language's grammar (docs/language.md) in Spirit X3. Included only by grammar.cpp.
//
// Design: every rule builds a public ast.hpp node through semantic actions on `_val`, so there
// is no private attribute tree to convert and X3's attribute collapsing never decides a shape.
// Rules whose right-hand side has actions receive `unused` from X3, so each action gets a fresh
// local attribute and a failed alternative never leaves half-built state behind.
// Spans come from the `spanned[...]` directive; nesting is bounded by `deeper[...]`.
// Only bytes are read: any byte >= 0x80 counts as a letter, so UTF-8 names and strings pass
// (the text was validated as UTF-8 before parsing).
#pragma once

#include "grammar.hpp"
#include "westphalia/dsl/parser.hpp"

#include <boost/spirit/home/x3.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>

namespace wp::dsl::grammar {

// ------------------------------------------------------------------ primitive parsers

inline bool is_ident_start(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
inline bool is_ident_char(unsigned char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
inline bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
inline bool is_alnum(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
inline bool is_string_char(unsigned char c) { return c != '"' && c != '\\' && c != '\n' && c != '\r'; }

// One byte of a class; no attribute (text is taken with x3::raw).
template <bool (*Test)(unsigned char)>
struct byte_parser : x3::parser<byte_parser<Test>> {
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&, Attribute&) const {
        Iterator const save = first;
        x3::skip_over(first, last, context);
        if (first != last && Test(static_cast<unsigned char>(*first))) {
            ++first;
            return true;
        }
        first = save;
        return false;
    }
};

// Non-ASCII code points that are punctuation, not letters: U+0080–U+00BF (`§`, `«`, no-break
// space, …) and U+2000–U+206F (dashes, quotes). Returns the byte length of one at p, or 0.
inline int non_letter_at(const char* p, const char* e) {
    const auto b0 = static_cast<unsigned char>(*p);
    if (b0 == 0xC2 && e - p >= 2) return 2;
    if (b0 == 0xE2 && e - p >= 3) {
        const auto b1 = static_cast<unsigned char>(p[1]);
        if (b1 == 0x80 || b1 == 0x81) return 3;
    }
    return 0;
}

// A name: a letter or `_`, then letters, digits and `_`; a non-ASCII letter counts as a letter.
struct ident_parser : x3::parser<ident_parser> {
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&, Attribute&) const {
        Iterator const save = first;
        x3::skip_over(first, last, context);
        Iterator i = first;
        bool start = true;
        while (i != last) {
            const auto c = static_cast<unsigned char>(*i);
            if (c >= 0x80) {
                if (non_letter_at(i, last) != 0) break;
                ++i;
                while (i != last && (static_cast<unsigned char>(*i) & 0xC0) == 0x80) ++i;
            } else if (start ? is_ident_start(c) : is_ident_char(c)) {
                ++i;
            } else {
                break;
            }
            start = false;
        }
        if (i == first) {
            first = save;
            return false;
        }
        first = i;
        return true;
    }
};
inline constexpr ident_parser ident_token{};

// True if a name character starts at p (used as the word-boundary test after keywords and numbers).
inline bool name_char_at(const char* p, const char* e) {
    return p != e && is_ident_char(static_cast<unsigned char>(*p)) && non_letter_at(p, e) == 0;
}

struct name_char_parser : x3::parser<name_char_parser> {
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
        if (!name_char_at(first, last)) return false;
        ++first;
        return true;
    }
};
inline constexpr name_char_parser ident_char{};  // only used as `!ident_char` (no skipping)
inline constexpr byte_parser<is_digit> digit{};
inline constexpr byte_parser<is_alnum> alnum{};
inline constexpr byte_parser<is_string_char> string_char{};

// A fixed token (punctuation or keyword). `display` is what an expectation failure reports;
// `not_before` lists bytes that must not follow (`+` is not the start of `+=`). Keywords also
// refuse to be followed by a name character, so `rolls` is a name and not `roll` + `s`.
struct token_parser : x3::parser<token_parser> {
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;

    const char* text;
    const char* display;
    const char* not_before;
    bool keyword;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&, Attribute&) const {
        Iterator const save = first;
        x3::skip_over(first, last, context);
        Iterator i = first;
        for (const char* t = text; *t != '\0'; ++t, ++i) {
            if (i == last || *i != *t) {
                first = save;
                return false;
            }
        }
        if (i != last) {
            const auto next = static_cast<unsigned char>(*i);
            if ((keyword && name_char_at(i, last)) || (next != 0 && std::strchr(not_before, static_cast<char>(next)))) {
                first = save;
                return false;
            }
        }
        first = i;
        return true;
    }
};

// A keyword that also yields its text (for `word` fields and operator names).
struct keyword_string_parser : x3::parser<keyword_string_parser> {
    using attribute_type = std::string;
    static bool const has_attribute = true;

    token_parser tok;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& context, RContext& rcontext,
               Attribute& attr) const {
        x3::unused_type u;
        if (!tok.parse(first, last, context, rcontext, u)) return false;
        if constexpr (std::is_assignable_v<Attribute&, std::string>) attr = tok.text;
        return true;
    }
};

// One of several keywords, yielding the one found (X3 does not collapse an alternative of
// identical string attributes into one string).
template <std::size_t N>
struct words_parser : x3::parser<words_parser<N>> {
    using attribute_type = std::string;
    static bool const has_attribute = true;

    std::array<const char*, N> words;
    const char* display;

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& context, RContext& rcontext,
               Attribute& attr) const {
        x3::unused_type u;
        for (const char* w : words) {
            token_parser const tok{{}, w, display, "", true};
            if (tok.parse(first, last, context, rcontext, u)) {
                if constexpr (std::is_assignable_v<Attribute&, std::string>) attr = w;
                return true;
            }
        }
        return false;
    }
};

template <typename... W>
constexpr words_parser<sizeof...(W)> words(const char* display, W... w) {
    return words_parser<sizeof...(W)>{{}, {w...}, display};
}

constexpr token_parser P(const char* text, const char* display, const char* not_before = "") {
    return token_parser{{}, text, display, not_before, false};
}
constexpr token_parser kw(const char* text, const char* display) {
    return token_parser{{}, text, display, "", true};
}
constexpr keyword_string_parser kws(const char* text, const char* display) {
    return keyword_string_parser{{}, kw(text, display)};
}
#define WP_KW(word) ::wp::dsl::grammar::kw(word, "`" word "`")
#define WP_KWS(word) ::wp::dsl::grammar::kws(word, "`" word "`")
#define WP_P(text) ::wp::dsl::grammar::P(text, "`" text "`")

// Gives a compound parser the description an expectation failure reports.
template <typename Subject>
struct named_directive : x3::unary_parser<Subject, named_directive<Subject>> {
    using base_type = x3::unary_parser<Subject, named_directive<Subject>>;
    static bool const is_pass_through_unary = true;
    static bool const handles_container = Subject::handles_container;
    const char* display;

    constexpr named_directive(Subject const& subject, const char* d) : base_type(subject), display(d) {}

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& context, RContext& rcontext,
               Attribute& attr) const {
        return this->subject.parse(first, last, context, rcontext, attr);
    }
};

template <typename Subject>
constexpr auto named(const char* display, Subject const& subject) {
    return named_directive<typename x3::extension::as_parser<Subject>::value_type>{x3::as_parser(subject), display};
}

// Sets `e.height` from its children; a tree deeper than max_expression_depth is an error shown
// at byte `at` (a flat chain grows one level per operator, with no parenthesis to count).
inline void bound_height(parse_state const& st, expr& e, std::uint32_t at) {
    for (const expr& a : e.args) e.height = std::max(e.height, a.height + 1);
    if (e.height > max_expression_depth) {
        iterator_type const p = st.base + at;
        throw semantic_error{diag_kind::nesting_too_deep, p, p + 1,
                             "this expression is more than " + std::to_string(max_expression_depth) +
                                 " levels deep (each operator of a chain such as `a + b + c` counts one): "
                                 "split it with `let` or a quantity"};
    }
}

// Sets `_val.where` to the text the subject matched (from its first token).
template <typename Subject>
struct spanned_directive : x3::unary_parser<Subject, spanned_directive<Subject>> {
    using base_type = x3::unary_parser<Subject, spanned_directive<Subject>>;
    static bool const is_pass_through_unary = true;
    static bool const handles_container = Subject::handles_container;

    constexpr spanned_directive(Subject const& subject) : base_type(subject) {}

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& context, RContext& rcontext,
               Attribute& attr) const {
        Iterator const save = first;
        x3::skip_over(first, last, context);
        Iterator const start = first;
        if (!this->subject.parse(first, last, context, rcontext, attr)) {
            first = save;
            return false;
        }
        if constexpr (requires { rcontext.where = span{}; }) {
            rcontext.where = x3::get<state_tag>(context).make_span(start, first);
        }
        if constexpr (std::is_same_v<std::remove_cv_t<RContext>, expr>) {
            bound_height(x3::get<state_tag>(context), rcontext, rcontext.where.begin);
        }
        return true;
    }
};

struct spanned_gen {
    template <typename Subject>
    constexpr auto operator[](Subject const& subject) const {
        return spanned_directive<typename x3::extension::as_parser<Subject>::value_type>{x3::as_parser(subject)};
    }
};
inline constexpr spanned_gen spanned{};

// Counts nesting; deeper than max_nesting is a nesting-too-deep error (before the stack is at risk).
template <typename Subject>
struct deeper_directive : x3::unary_parser<Subject, deeper_directive<Subject>> {
    using base_type = x3::unary_parser<Subject, deeper_directive<Subject>>;
    static bool const is_pass_through_unary = true;
    static bool const handles_container = Subject::handles_container;

    constexpr deeper_directive(Subject const& subject) : base_type(subject) {}

    template <typename Iterator, typename Context, typename RContext, typename Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& context, RContext& rcontext,
               Attribute& attr) const {
        parse_state& st = x3::get<state_tag>(context);
        if (st.depth >= max_nesting) {
            Iterator const at = skip_blanks(first, last);
            throw semantic_error{diag_kind::nesting_too_deep, at, at == last ? at : at + 1,
                                 "expressions, types and blocks nest deeper than " + std::to_string(max_nesting) +
                                     " levels"};
        }
        struct guard {
            int& d;
            explicit guard(int& depth) : d(depth) { ++d; }
            ~guard() { --d; }
            guard(const guard&) = delete;
            guard& operator=(const guard&) = delete;
        } g(st.depth);
        return this->subject.parse(first, last, context, rcontext, attr);
    }
};

struct deeper_gen {
    template <typename Subject>
    constexpr auto operator[](Subject const& subject) const {
        return deeper_directive<typename x3::extension::as_parser<Subject>::value_type>{x3::as_parser(subject)};
    }
};
inline constexpr deeper_gen deeper{};

}  // namespace wp::dsl::grammar

namespace boost::spirit::x3 {
template <>
struct get_info<wp::dsl::grammar::token_parser> {
    using result_type = std::string;
    std::string operator()(wp::dsl::grammar::token_parser const& p) const { return p.display; }
};
template <>
struct get_info<wp::dsl::grammar::keyword_string_parser> {
    using result_type = std::string;
    std::string operator()(wp::dsl::grammar::keyword_string_parser const& p) const { return p.tok.display; }
};
template <std::size_t N>
struct get_info<wp::dsl::grammar::words_parser<N>> {
    using result_type = std::string;
    std::string operator()(wp::dsl::grammar::words_parser<N> const& p) const { return p.display; }
};
template <typename Subject>
struct get_info<wp::dsl::grammar::named_directive<Subject>> {
    using result_type = std::string;
    std::string operator()(wp::dsl::grammar::named_directive<Subject> const& p) const { return p.display; }
};
// Composite parsers report what their first part expects (X3's default is a mangled type name).
template <typename Subject, typename Action>
struct get_info<action<Subject, Action>> {
    using result_type = std::string;
    std::string operator()(action<Subject, Action> const& p) const { return what(p.subject); }
};
template <typename Left, typename Right>
struct get_info<sequence<Left, Right>> {
    using result_type = std::string;
    std::string operator()(sequence<Left, Right> const& p) const { return what(p.left); }
};
template <typename Left, typename Right>
struct get_info<list<Left, Right>> {
    using result_type = std::string;
    std::string operator()(list<Left, Right> const& p) const { return what(p.left); }
};
template <typename Left, typename Right>
struct get_info<alternative<Left, Right>> {
    using result_type = std::string;
    std::string operator()(alternative<Left, Right> const& p) const { return what(p.left) + " or " + what(p.right); }
};
template <typename Subject>
struct get_info<wp::dsl::grammar::spanned_directive<Subject>> {
    using result_type = std::string;
    std::string operator()(wp::dsl::grammar::spanned_directive<Subject> const& p) const { return what(p.subject); }
};
template <typename Subject>
struct get_info<wp::dsl::grammar::deeper_directive<Subject>> {
    using result_type = std::string;
    std::string operator()(wp::dsl::grammar::deeper_directive<Subject> const& p) const { return what(p.subject); }
};
template <typename Subject>
struct get_info<raw_directive<Subject>> {
    using result_type = std::string;
    std::string operator()(raw_directive<Subject> const& p) const { return what(p.subject); }
};
template <typename Subject>
struct get_info<lexeme_directive<Subject>> {
    using result_type = std::string;
    std::string operator()(lexeme_directive<Subject> const& p) const { return what(p.subject); }
};
}  // namespace boost::spirit::x3

namespace wp::dsl::grammar {

// ------------------------------------------------------------------ value helpers

// Decimal text with an optional leading '-' into int64; out of range is number-out-of-range.
inline std::int64_t to_int(iterator_type b, iterator_type e) {
    iterator_type p = b;
    bool negative = false;
    if (p != e && *p == '-') {
        negative = true;
        ++p;
    }
    const std::uint64_t limit =
        negative ? std::uint64_t{1} << 63 : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    std::uint64_t v = 0;
    for (; p != e; ++p) {
        const auto d = static_cast<std::uint64_t>(*p - '0');
        if (v > (limit - d) / 10) {
            throw semantic_error{diag_kind::number_out_of_range, b, e,
                                 "the number `" + std::string(b, e) + "` does not fit in 64 bits"};
        }
        v = v * 10 + d;
    }
    if (negative) return v == (std::uint64_t{1} << 63) ? std::numeric_limits<std::int64_t>::min()
                                                       : -static_cast<std::int64_t>(v);
    return static_cast<std::int64_t>(v);
}

inline bool is_dash_at(iterator_type p, iterator_type e) {
    return (p != e && *p == '-') ||
           (e - p >= 3 && static_cast<unsigned char>(p[0]) == 0xE2 && static_cast<unsigned char>(p[1]) == 0x80 &&
            static_cast<unsigned char>(p[2]) == 0x93);
}
inline int dash_len(iterator_type p) { return *p == '-' ? 1 : 3; }

// Reads a signed integer at p (advancing it).
inline std::int64_t read_int(iterator_type& p, iterator_type e) {
    iterator_type const b = p;
    if (p != e && *p == '-') ++p;
    while (p != e && is_digit(static_cast<unsigned char>(*p))) ++p;
    return to_int(b, p);
}

// An unsigned decimal `1.5` at p (advancing it) as num / den (den a power of ten); num 0 when
// it has more digits than an odds ratio needs (the compiler then refuses it).
inline std::pair<std::int64_t, std::int64_t> read_decimal(iterator_type& p, iterator_type e) {
    std::int64_t num = 0, den = 1;
    int digits = 0;
    bool point = false;
    for (; p != e && (is_digit(static_cast<unsigned char>(*p)) || (*p == '.' && !point)); ++p) {
        if (*p == '.') {
            point = true;
            continue;
        }
        if (++digits > 12) continue;
        num = num * 10 + (*p - '0');
        if (point) den *= 10;
    }
    return {digits > 12 ? 0 : num, den};
}

// `3`, `1-2`, `-3--1`, `9+`, `..5`, `2..4`, `1.5-1` (as matched by the key grammar, no spaces inside).
inline void decode_key(key_range& k, iterator_type b, iterator_type e) {
    k.text.assign(b, e);
    iterator_type p = b;
    for (iterator_type q = b; q != e; ++q)
        if (*q == '.' && q + 1 != e && is_digit(static_cast<unsigned char>(q[1])) && q != b && is_digit(static_cast<unsigned char>(q[-1]))) {
            // an odds ratio with a decimal: a/da - c/dc is a*dc : c*da, in lowest terms
            const auto [a, da] = read_decimal(p, e);
            p += dash_len(p);
            const auto [c, dc] = read_decimal(p, e);
            k.kind = key_kind::range;
            k.decimal = true;
            k.lo = a * dc;
            k.hi = c * da;
            const std::int64_t g = std::gcd(k.lo, k.hi);
            if (g > 1) {
                k.lo /= g;
                k.hi /= g;
            }
            return;
        }
    if (e - p >= 2 && p[0] == '.' && p[1] == '.') {
        p += 2;
        k.kind = key_kind::at_most;
        k.hi = read_int(p, e);
        k.lo = std::numeric_limits<std::int64_t>::min();
        return;
    }
    k.lo = read_int(p, e);
    if (p == e) {
        k.kind = key_kind::exact;
        k.hi = k.lo;
    } else if (*p == '+') {
        k.kind = key_kind::at_least;
        k.hi = std::numeric_limits<std::int64_t>::max();
    } else if (*p == '.') {
        p += 2;
        k.kind = key_kind::range;
        k.hi = read_int(p, e);
    } else {
        p += dash_len(p);
        k.kind = key_kind::range;
        k.hi = read_int(p, e);
    }
}

inline std::string unescape(iterator_type b, iterator_type e) {
    std::string out;
    out.reserve(static_cast<std::size_t>(e - b));
    for (iterator_type p = b + 1; p + 1 < e; ++p) {  // without the quotes
        if (*p == '\\' && p + 2 < e) ++p;
        out.push_back(*p);
    }
    return out;
}

// ------------------------------------------------------------------ semantic actions

template <auto M>
struct set_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx).*M = std::move(x3::_attr(ctx));
    }
};
template <auto M>
inline constexpr set_f<M> set_{};

template <auto M>
struct set_range_f {  // an x3::raw range into a string member
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        (x3::_val(ctx).*M).assign(r.begin(), r.end());
    }
};
template <auto M>
inline constexpr set_range_f<M> set_range_{};

template <auto M>
struct push_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        (x3::_val(ctx).*M).push_back(std::move(x3::_attr(ctx)));
    }
};
template <auto M>
inline constexpr push_f<M> push_{};

template <auto M>
struct append_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto& dst = x3::_val(ctx).*M;
        for (auto& a : x3::_attr(ctx)) dst.push_back(std::move(a));
    }
};
template <auto M>
inline constexpr append_f<M> append_{};

template <auto M, auto V>
struct const_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx).*M = V;
    }
};
template <auto M, auto V>
inline constexpr const_f<M, V> const_{};

struct move_val_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx) = std::move(x3::_attr(ctx));
    }
};
inline constexpr move_val_f move_val{};

struct push_self_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx).push_back(std::move(x3::_attr(ctx)));
    }
};
inline constexpr push_self_f push_self{};

struct range_to_string_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        x3::_val(ctx).assign(r.begin(), r.end());
    }
};
inline constexpr range_to_string_f range_to_string{};

struct string_lit_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        x3::_val(ctx) = unescape(r.begin(), r.end());
    }
};

// An expression node from its parts.
inline expr make_expr(expr_kind k, std::string text, span where) {
    expr e;
    e.kind = k;
    e.text = std::move(text);
    e.where = where;
    return e;
}

struct int_lit_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        expr& v = x3::_val(ctx);
        v.kind = expr_kind::integer;
        v.value = to_int(r.begin(), r.end());
    }
};

struct dice_lit_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        iterator_type p = r.begin();
        iterator_type const e = r.end();
        expr& v = x3::_val(ctx);
        v.kind = expr_kind::dice;
        v.dice.count = read_int(p, e);
        ++p;  // 'd'
        if (*p == '[') {
            ++p;
            v.dice.low = read_int(p, e);
            p += 2;  // ".."
            v.dice.high = read_int(p, e);
        } else {
            v.dice.low = 1;
            v.dice.high = read_int(p, e);
        }
        const std::string text(r.begin(), r.end());
        if (v.dice.count <= 0)
            throw semantic_error{diag_kind::bad_dice, r.begin(), e, "`" + text + "` rolls no dice"};
        if (v.dice.high < v.dice.low || (v.dice.low == 1 && v.dice.high == 0))
            throw semantic_error{diag_kind::bad_dice, r.begin(), e, "`" + text + "` has no faces"};
        v.text = text;
    }
};

struct bool_f {
    bool value;
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        expr& v = x3::_val(ctx);
        v.kind = expr_kind::boolean;
        v.value = value ? 1 : 0;
    }
};

struct string_expr_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        expr& v = x3::_val(ctx);
        v.kind = expr_kind::string;
        v.text = std::move(x3::_attr(ctx));
    }
};

template <expr_kind K>
struct name_text_f {  // name → expr of kind K with the name as text
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        expr& v = x3::_val(ctx);
        v.kind = K;
        v.text = std::move(x3::_attr(ctx).text);
    }
};

template <expr_kind K>
struct args_f {  // vector<expr> → args, and the kind
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        expr& v = x3::_val(ctx);
        v.kind = K;
        v.args = std::move(x3::_attr(ctx));
    }
};

inline void fold_binary(parse_state const& st, expr& lhs, std::string op, expr rhs) {
    expr n = make_expr(expr_kind::binary, std::move(op), span{lhs.where.file, lhs.where.begin, rhs.where.end});
    const std::uint32_t at = rhs.where.begin;
    n.args.reserve(2);
    n.args.push_back(std::move(lhs));
    n.args.push_back(std::move(rhs));
    lhs = std::move(n);
    bound_height(st, lhs, at);
}

struct fold_op_f {  // attribute: (operator text, right operand)
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto& a = x3::_attr(ctx);
        fold_binary(x3::get<state_tag>(ctx), x3::_val(ctx), std::move(boost::fusion::at_c<0>(a)),
                    std::move(boost::fusion::at_c<1>(a)));
    }
};

struct fold_fixed_f {  // attribute: right operand
    const char* op;
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        fold_binary(x3::get<state_tag>(ctx), x3::_val(ctx), op, std::move(x3::_attr(ctx)));
    }
};

// `lo..hi` where a set is read: attribute is the high end.
struct range_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        expr& v = x3::_val(ctx);
        fold_binary(x3::get<state_tag>(ctx), v, "..", std::move(x3::_attr(ctx)));
        v.kind = expr_kind::range;
    }
};

// `(e)dM` / `(e)d[lo..hi]`: the value so far is the count; attribute is the raw suffix `dM`.
struct dice_count_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        iterator_type p = r.begin();
        iterator_type const e = r.end();
        parse_state const& st = x3::get<state_tag>(ctx);
        expr& v = x3::_val(ctx);
        ++p;  // 'd'
        dice_spec d;
        if (*p == '[') {
            ++p;
            d.low = read_int(p, e);
            p += 2;  // ".."
            d.high = read_int(p, e);
        } else {
            d.low = 1;
            d.high = read_int(p, e);
        }
        const std::string text(r.begin(), r.end());
        if (d.high < d.low || (d.low == 1 && d.high == 0))
            throw semantic_error{diag_kind::bad_dice, r.begin(), e, "`" + text + "` has no faces"};
        const auto end = static_cast<std::uint32_t>(e - st.base);
        expr n = make_expr(expr_kind::dice_count, text, span{v.where.file, v.where.begin, end});
        n.dice = d;
        n.height = v.height + 1;
        n.args.push_back(std::move(v));
        v = std::move(n);
    }
};

// `- 3` folds into the literal -3; otherwise a unary node.
inline expr make_unary(const char* op, expr operand) {
    if (std::strcmp(op, "-") == 0 && operand.kind == expr_kind::integer &&
        operand.value != std::numeric_limits<std::int64_t>::min()) {
        operand.value = -operand.value;
        return operand;
    }
    expr n = make_expr(expr_kind::unary, op, operand.where);
    n.height = operand.height + 1;
    n.args.push_back(std::move(operand));
    return n;
}

struct unary_f {
    const char* op;
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx) = make_unary(op, std::move(x3::_attr(ctx)));
    }
};

struct member_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        expr& v = x3::_val(ctx);
        name& field = x3::_attr(ctx);
        const std::uint32_t at = field.where.begin;
        expr n = make_expr(expr_kind::member, std::move(field.text), span{v.where.file, v.where.begin, field.where.end});
        n.args.push_back(std::move(v));
        v = std::move(n);
        bound_height(x3::get<state_tag>(ctx), v, at);
    }
};

struct index_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        expr& v = x3::_val(ctx);
        parse_state const& st = x3::get<state_tag>(ctx);
        // In X3 3.0.7 _where() is [end of the match, end of the input).
        const auto end = static_cast<std::uint32_t>(x3::_where(ctx).begin() - st.base);
        expr n = make_expr(expr_kind::index, "", span{v.where.file, v.where.begin, end});
        const std::uint32_t at = x3::_attr(ctx).where.begin;
        n.args.push_back(std::move(v));
        n.args.push_back(std::move(x3::_attr(ctx)));
        v = std::move(n);
        bound_height(st, v, at);
    }
};

struct push_none_f {  // an absent optional operand
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx).exprs.push_back(expr{});
    }
};

template <stmt_kind K>
struct stmt_kind_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx).kind = K;
    }
};

struct stmt_word_kind_f {  // shuffle/draw/deal/move/…: the keyword decides the kind
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        stmt& s = x3::_val(ctx);
        const std::string& w = x3::_attr(ctx);
        if (w == "draw") s.kind = stmt_kind::draw;
        else if (w == "deal") s.kind = stmt_kind::deal;
        else if (w == "move") s.kind = stmt_kind::move;
        else if (w == "do") s.kind = stmt_kind::do_action;
        else if (w == "resolve") s.kind = stmt_kind::resolve;
        else if (w == "emit") s.kind = stmt_kind::emit;
    }
};

struct block_word_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        stmt& s = x3::_val(ctx);
        s.kind = stmt_kind::block;
        s.word = std::move(x3::_attr(ctx));
    }
};

struct else_if_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx).else_body.push_back(std::move(x3::_attr(ctx)));
    }
};

// `lv op e;` or `p(args);` — decided once the whole statement is read.
struct finish_expr_stmt_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        stmt& s = x3::_val(ctx);
        if (!s.word.empty()) {
            s.kind = stmt_kind::assign;
            return;
        }
        expr& e = s.exprs.front();
        if (e.kind == expr_kind::call) {
            s.kind = stmt_kind::call;
            s.id.text = std::move(e.text);
            s.id.where = span{e.where.file, e.where.begin, e.where.begin + static_cast<std::uint32_t>(s.id.text.size())};
            std::vector<expr> args = std::move(e.args);
            s.exprs = std::move(args);
            return;
        }
        parse_state const& st = x3::get<state_tag>(ctx);
        iterator_type const at = st.base + e.where.end;
        throw semantic_error{diag_kind::syntax_error, at, at, "expected `=`, `+=` or `-=`"};
    }
};

struct players_f {
    bool max_only;
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        const std::int64_t v = to_int(r.begin(), r.end());
        ruleset_decl& d = x3::_val(ctx);
        if (!max_only) d.min_players = v;
        d.max_players = v;
    }
};

// A manifest's `unfold limit N` / `unroll depth N` / `evidence games N` / `resource limit N` (the
// checker's budgets; load.cpp checks them).
struct checker_setting_f {
    const char* setting;
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        checker_setting s;
        s.name = setting;
        s.value = to_int(r.begin(), r.end());
        s.where = x3::get<state_tag>(ctx).make_span(r.begin(), r.end());
        x3::_val(ctx).checker.push_back(std::move(s));
    }
};
// A manifest's `bounds part with tables, choices`: each stage named is a setting of value 1
// ("tables_with_bounds", "choices_with_bounds"), at the stage's word.
struct checker_flag_f {
    const char* setting;
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        checker_setting s;
        s.name = setting;
        s.value = 1;
        s.where = x3::get<state_tag>(ctx).make_span(r.begin(), r.end());
        x3::_val(ctx).checker.push_back(std::move(s));
    }
};

struct range_type_f {  // raw text "lo .. hi"
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        type_expr& t = x3::_val(ctx);
        iterator_type p = r.begin();
        iterator_type const e = r.end();
        t.kind = type_kind::range;
        t.lo = read_int(p, e);
        p = skip_blanks(p, e);
        p += 2;
        p = skip_blanks(p, e);
        t.hi = read_int(p, e);
        if (t.lo > t.hi)
            throw semantic_error{diag_kind::bad_range, r.begin(), e,
                                 "the range `" + std::string(r.begin(), e) + "` is empty: its low end is above its high end"};
    }
};

struct policy_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx).policy = x3::_attr(ctx) == "clamp" ? overflow_policy::clamp : overflow_policy::error;
    }
};

struct map_of_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        type_expr& v = x3::_val(ctx);
        type_expr n;
        n.kind = type_kind::map_of;
        n.args.push_back(std::move(v));
        n.args.push_back(std::move(x3::_attr(ctx)));
        v = std::move(n);
    }
};

struct list_of_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        type_expr& v = x3::_val(ctx);
        v.kind = type_kind::list_of;
        v.args.push_back(std::move(x3::_attr(ctx)));
    }
};

struct key_text_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        decode_key(x3::_val(ctx), r.begin(), r.end());
    }
};

struct key_value_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        key_range& k = x3::_val(ctx);
        k.kind = key_kind::value;
        k.value = std::move(x3::_attr(ctx));
        k.text = k.value.text;
    }
};

struct count_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        auto const& r = x3::_attr(ctx);
        x3::_val(ctx).count = to_int(r.begin() + 1, r.end());
    }
};


// Odds columns (`1-5` … `6-1`) are ratios, not ranges, when the key is an odds(...) expression.
struct finish_table_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        table_decl& t = x3::_val(ctx);
        auto is_odds = [](const table_key& k) {
            return k.kind == table_key_kind::key && k.source.kind == expr_kind::call && k.source.text == "odds";
        };
        if (t.keys.size() >= 2 && is_odds(t.keys[1])) {
            for (auto& c : t.columns)
                if (c.kind == key_kind::range) c.kind = key_kind::odds;
        }
        if (!t.keys.empty() && is_odds(t.keys[0])) {
            for (auto& r : t.rows)
                if (r.key.kind == key_kind::range) r.key.kind = key_kind::odds;
        }
    }
};

struct signed_neg_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx) = make_unary("-", std::move(x3::_attr(ctx)));
    }
};

struct to_decl_f {
    template <typename Ctx>
    void operator()(Ctx& ctx) const {
        x3::_val(ctx).node = std::move(x3::_attr(ctx));
    }
};
inline constexpr to_decl_f to_decl{};

// ------------------------------------------------------------------ rules

#define WP_RULE(id, T, what)   \
    struct id##_class;         \
    x3::rule<id##_class, T> const id = what;

// lexical
WP_RULE(ident, std::string, "a name")
WP_RULE(name_r, wp::dsl::name, "a name")
WP_RULE(ename_r, wp::dsl::name, "a name")
WP_RULE(hexnum_r, wp::dsl::name, "a hex number")
WP_RULE(node_ref, wp::dsl::name, "a name or hex number")
WP_RULE(status_r, wp::dsl::name, "a status (`encoded`, `flavour` or `missing-data`)")
WP_RULE(string_lit, std::string, "a string")
WP_RULE(string_name, wp::dsl::name, "a string")
WP_RULE(anchor_r, anchor, "an anchor (`§…`)")
WP_RULE(anchors_r, anchor_list, "anchors")
WP_RULE(section_r, std::string, "a section number")
// expressions
WP_RULE(expr_r, expr, "an expression")
WP_RULE(or_e, expr, "an expression")
WP_RULE(and_e, expr, "an expression")
WP_RULE(not_e, expr, "an expression")
WP_RULE(cmp_e, expr, "an expression")
WP_RULE(add_e, expr, "an expression")
WP_RULE(mul_e, expr, "an expression")
WP_RULE(neg_e, expr, "an expression")
WP_RULE(postfix_e, expr, "an expression")
WP_RULE(primary_e, expr, "an expression")
WP_RULE(cmp_op, std::string, "a comparison")
WP_RULE(add_op, std::string, "`+` or `-`")
WP_RULE(mul_op, std::string, "`*`, `/` or `%`")
WP_RULE(int_lit, expr, "an integer")
WP_RULE(sint_lit, expr, "an integer")
WP_RULE(dice_lit, expr, "a dice term")
WP_RULE(string_e, expr, "a string")
WP_RULE(name_e, expr, "a name")
WP_RULE(call_or_name_e, expr, "a name")
WP_RULE(roll_ref, expr, "a roll")
WP_RULE(args_r, std::vector<expr>, "`(`")
WP_RULE(aggregate_e, expr, "an aggregate")
WP_RULE(set_r, expr, "a set or a range `lo..hi`")
WP_RULE(conditional_e, expr, "an expression")
WP_RULE(signed_term, expr, "a signed term (`+ e` or `- e`)")
// types
WP_RULE(type_r, type_expr, "a type")
WP_RULE(base_type, type_expr, "a type")
WP_RULE(param_r, param, "a parameter")
WP_RULE(params_r, std::vector<param>, "`(`")
WP_RULE(binders_r, std::vector<wp::dsl::name>, "`(`")
// statements
WP_RULE(body_r, std::vector<stmt>, "`{`")
WP_RULE(stmt_r, stmt, "a statement")
WP_RULE(block_s, stmt, "a block")
WP_RULE(let_s, stmt, "a statement")
WP_RULE(if_s, stmt, "a statement")
WP_RULE(for_s, stmt, "a statement")
WP_RULE(repeat_s, stmt, "a statement")
WP_RULE(while_s, stmt, "a statement")
WP_RULE(zone_s, stmt, "a statement")
WP_RULE(choose_s, stmt, "a statement")
WP_RULE(may_s, stmt, "a statement")
WP_RULE(invoke_s, stmt, "a statement")
WP_RULE(end_s, stmt, "a statement")
WP_RULE(card_event_s, stmt, "a statement")
WP_RULE(secret_s, stmt, "a statement")
WP_RULE(expr_s, stmt, "a statement")
WP_RULE(assign_op, std::string, "`=`, `+=` or `-=`")
// declarations
WP_RULE(decl_r, decl, "a declaration")
WP_RULE(ruleset_r, ruleset_decl, "a manifest")
WP_RULE(layer_r, ruleset_layer, "a layer")
WP_RULE(outline_r, outline_decl, "an outline")
WP_RULE(outline_entry_r, outline_entry, "an outline entry")
WP_RULE(enum_r, enum_decl, "an enum")
WP_RULE(enum_member_r, enum_member, "an enum member")
WP_RULE(type_decl_r, type_decl, "a type declaration")
WP_RULE(field_r, field_decl, "a field")
WP_RULE(field_value_r, field_value, "a field value (`name = value`)")
WP_RULE(data_mark_r, data_mark, "a stand-in or missing mark")
WP_RULE(record_r, record_decl, "a record")
WP_RULE(state_r, state_decl, "a state block")
WP_RULE(entities_r, entities_decl, "a component list")
WP_RULE(entity_r, entity_entry, "an entry")
WP_RULE(zone_r, zone_decl, "a zone")
WP_RULE(map_r, map_decl, "a map")
WP_RULE(area_r, map_node, "an area")
WP_RULE(hex_r, map_node, "a hex")
WP_RULE(edge_r, map_edge, "an edge")
WP_RULE(hexside_r, map_edge, "a hexside")
WP_RULE(roll_r, roll_decl, "a roll")
WP_RULE(quantity_r, derived_decl, "a quantity")
WP_RULE(predicate_r, derived_decl, "a predicate")
WP_RULE(decision_r, decision_decl, "a decision")
WP_RULE(action_r, action_decl, "an action")
WP_RULE(event_r, event_decl, "an event")
WP_RULE(procedure_r, procedure_decl, "a procedure")
WP_RULE(sequence_r, sequence_decl, "a sequence")
WP_RULE(option_r, option_decl, "an option")
WP_RULE(option_value_r, expr, "an option value (a name or an integer)")
WP_RULE(missing_r, missing_decl, "a missing-data declaration")
WP_RULE(accept_r, accept_decl, "an accepted finding")
WP_RULE(finding_kind_r, wp::dsl::name, "a finding kind (`bound-violation`, `dead-rule`, …)")
WP_RULE(table_r, table_decl, "a table")
WP_RULE(table_key_r, table_key, "a table key")
WP_RULE(key_range_r, key_range, "a row key")
WP_RULE(key_atom_r, std::string, "a key")
WP_RULE(row_r, table_row, "a table row")
WP_RULE(cell_r, table_cell, "a cell")
WP_RULE(block_cell_r, table_cell, "a block of effects")
WP_RULE(cell_value_r, expr, "a cell")
WP_RULE(modifier_r, rule_decl, "a modifier")
WP_RULE(define_r, rule_decl, "a definition")
WP_RULE(legality_r, rule_decl, "a legality rule")
WP_RULE(trigger_r, rule_decl, "a trigger")
WP_RULE(invariant_r, rule_decl, "an invariant")
WP_RULE(query_r, rule_decl, "a query (`assert always`, `assert never` or `reachable`)")
WP_RULE(example_r, rule_decl, "an example")
WP_RULE(chances_r, rule_decl, "odds computed from the rules (`chances`)")
WP_RULE(errata_r, errata_decl, "an errata block")
WP_RULE(errata_op_r, errata_op, "an errata operation")
WP_RULE(block_path_r, wp::dsl::name, "the dotted path of a block (`game.turn.upkeep`)")
WP_RULE(block_stmt_r, stmt, "a block (`phase name { … }` or `step name { … }`)")

#undef WP_RULE
file_type const file_r = "a rule file";

using x3::eps;
using x3::lexeme;
using x3::raw;

inline constexpr auto comma = WP_P(",");
inline constexpr auto semi = P(";", "`;` after the declaration");
inline constexpr auto stmt_semi = P(";", "`;` after the statement");
// The last simple statement of a block may omit its `;` (table cells: `{ cost = 1 }`).
inline auto const stmt_end = named("`;` after the statement", stmt_semi | &WP_P("}"));
inline constexpr auto dash = named("`-`", WP_P("-") | P("\xE2\x80\x93", "`-`"));
inline auto const reserved = WP_KW("true") | WP_KW("false") | WP_KW("and") | WP_KW("or") | WP_KW("not") |
                             WP_KW("in") | WP_KW("if") | WP_KW("then") | WP_KW("else");
inline auto const int_text = raw[lexeme[+digit >> !ident_char]];
inline auto const sint_text = raw[lexeme[-WP_P("-") >> +digit >> !ident_char]];
// `1.5` or `2` (one side of an odds ratio written with decimals)
inline auto const udec_text = raw[lexeme[+digit >> -(x3::lit('.') >> +digit) >> !ident_char]];

// One aid text per element: a second `aid` is refused where it stands (it used to be read as
// the start of what follows, and the error pointed elsewhere).
template <auto M>
auto aid_p() {
    return -(WP_KW("aid") > string_lit[set_<M>] > named("one `aid` only (join the two texts)", !WP_KW("aid")));
}
template <auto M>
auto standin_p() {
    return -(WP_KW("standin") > string_lit[set_<M>]);
}
template <auto M>
auto values_p() {
    return WP_P("{") > *(field_value_r[push_<M>] >> -comma) > P("}", "a field value or `}`");
}

// ---- lexical
auto const ident_def = raw[ident_token][range_to_string];
auto const name_r_def = spanned[ident[set_<&name::text>]];
auto const ename_r_def = !reserved >> name_r[move_val];
auto const hexnum_r_def = spanned[int_text[set_range_<&name::text>]];
auto const node_ref_def = hexnum_r[move_val] | name_r[move_val];
auto const status_r_def =
    spanned[raw[lexeme[ident_token >> *(WP_P("-") >> ident_token)]][set_range_<&name::text>]];
auto const string_lit_def =
    raw[lexeme[(WP_P("\"") >> *(string_char | (WP_P("\\") > named("`\\\"` or `\\\\`", WP_P("\"") | WP_P("\\"))))) >
               P("\"", "the closing `\"` of the string")]][string_lit_f{}];
auto const string_name_def = spanned[string_lit[set_<&name::text>]];
auto const section_r_def = raw[lexeme[+alnum >> *(WP_P(".") >> +alnum)]][range_to_string];
auto const anchor_r_def =
    spanned[lexeme[P("\xC2\xA7", "`§`") > section_r[set_<&anchor::first>] >> -(dash >> section_r[set_<&anchor::last>])]];
auto const anchors_r_def = *anchor_r[push_self];

// ---- expressions
auto const expr_r_def = deeper[or_e[move_val]];
auto const or_e_def = spanned[and_e[move_val] >> *(WP_KW("or") > and_e[fold_fixed_f{"or"}])];
auto const and_e_def = spanned[not_e[move_val] >> *(WP_KW("and") > not_e[fold_fixed_f{"and"}])];
auto const not_e_def = spanned[(WP_KW("not") > deeper[not_e][unary_f{"not"}]) | cmp_e[move_val]];
auto const cmp_op_def = raw[WP_P("==") | WP_P("!=") | WP_P("<=") | WP_P(">=") | WP_P("<") | WP_P(">")][range_to_string] |
                        WP_KWS("in")[move_val];
auto const cmp_e_def = spanned[add_e[move_val] >> *((cmp_op > add_e)[fold_op_f{}])];
auto const add_op_def = raw[P("+", "`+`", "=") | P("-", "`-`", "=>")][range_to_string];
auto const add_e_def = spanned[mul_e[move_val] >> *((add_op > mul_e)[fold_op_f{}])];
auto const mul_op_def = raw[WP_P("*") | WP_P("/") | WP_P("%")][range_to_string];
auto const mul_e_def = spanned[neg_e[move_val] >> *((mul_op > neg_e)[fold_op_f{}])];
auto const neg_e_def = spanned[(P("-", "`-`", "=>") > deeper[neg_e][unary_f{"-"}]) | postfix_e[move_val]];
auto const postfix_e_def =
    spanned[primary_e[move_val] >>
            *((P(".", "`.`", ".") > name_r)[member_f{}] | (WP_P("[") > expr_r > WP_P("]"))[index_f{}])];
auto const int_lit_def = spanned[int_text[int_lit_f{}]];
auto const sint_lit_def = spanned[sint_text[int_lit_f{}]];
auto const dice_lit_def = spanned[raw[lexeme[+digit >> WP_P("d") >>
                                             (+digit | (WP_P("[") >> -WP_P("-") >> +digit >> WP_P("..") >>
                                                        -WP_P("-") >> +digit >> WP_P("]"))) >>
                                             !ident_char]][dice_lit_f{}]];
// The faces of `(e)dM`, written right after the `)` (no space: `(e) d6` is not a dice term).
// (raw inside no_skip: raw alone would skip spaces before the `d`)
auto const dice_suffix = x3::no_skip[raw[x3::lit('d') >> (+digit | (x3::lit('[') >> -x3::lit('-') >> +digit >> x3::lit("..") >>
                                                                 -x3::lit('-') >> +digit >> x3::lit(']'))) >>
                                       !ident_char]];
// Where a set is read (`choose … in`, `for each … in`, aggregates): an expression or a range.
auto const set_r_def = spanned[expr_r[move_val] >> -(WP_P("..") > expr_r)[range_f{}]];
auto const string_e_def = spanned[string_lit[string_expr_f{}]];
auto const name_e_def = spanned[ename_r[name_text_f<expr_kind::name>{}]];
auto const args_r_def = WP_P("(") > -(expr_r[push_self] % comma) > P(")", "`,` or `)`");
auto const call_or_name_e_def =
    spanned[ename_r[name_text_f<expr_kind::name>{}] >> -args_r[args_f<expr_kind::call>{}]];
auto const roll_ref_def = spanned[name_r[name_text_f<expr_kind::roll>{}] >> -args_r[args_f<expr_kind::roll>{}]];
// `count(x in S : c)` commits at `x in`: `count(S)` is the built-in call.
auto const aggregate_e_def =
    spanned[(words("an aggregate", "any", "all", "count", "sum", "min", "max")[set_<&expr::text>] >>
             WP_P("(") >> name_r[set_<&expr::binder>] >> WP_KW("in")) > set_r[push_<&expr::args>] > WP_P(":") >
            expr_r[push_<&expr::args>] > WP_P(")") > eps[const_<&expr::kind, expr_kind::aggregate>]];
auto const conditional_e_def =
    spanned[WP_KW("if") > expr_r[push_<&expr::args>] > WP_KW("then") > expr_r[push_<&expr::args>] > WP_KW("else") >
            expr_r[push_<&expr::args>] > eps[const_<&expr::kind, expr_kind::conditional>]];
auto const primary_e_def =
    spanned[dice_lit[move_val] | int_lit[move_val] | WP_KW("true")[bool_f{true}] | WP_KW("false")[bool_f{false}] |
            string_e[move_val] | ((WP_KW("option") >> P(".", "`.`", ".")) > name_r[name_text_f<expr_kind::option_ref>{}]) |
            (WP_KW("roll") >> roll_ref[move_val]) | (WP_P("(") > expr_r[move_val] > WP_P(")") >> -dice_suffix[dice_count_f{}]) |
            conditional_e[move_val] | aggregate_e[move_val] | call_or_name_e[move_val]];
auto const signed_term_def = (WP_P("-") > expr_r[signed_neg_f{}]) | (WP_P("+") > expr_r[move_val]) | expr_r[move_val];

// ---- types
auto const base_type_def =
    spanned[raw[(sint_text >> WP_P("..")) > named("an integer", sint_text)][range_type_f{}] >>
                -words("`clamp` or `error`", "clamp", "error")[policy_f{}] |
            WP_KW("flag")[const_<&type_expr::kind, type_kind::flag>] |
            WP_KW("counter")[const_<&type_expr::kind, type_kind::counter>] |
            (WP_KW("list") > WP_KW("of") > deeper[type_r][list_of_f{}]) | name_r[set_<&type_expr::id>]];
auto const type_r_def = spanned[base_type[move_val] >> -(WP_P("->") > deeper[type_r][map_of_f{}])];
auto const param_r_def = name_r[set_<&param::id>] > WP_P(":") > type_r[set_<&param::type>];
auto const params_r_def = WP_P("(") > -(param_r[push_self] % comma) > P(")", "`,` or `)`");
auto const binders_r_def = WP_P("(") > -(name_r[push_self] % comma) > P(")", "`,` or `)`");

// ---- statements
auto const body_r_def = deeper[WP_P("{") > *stmt_r[push_self] > P("}", "a statement or `}`")];
// `turn`/`setup`/… only start a block when a `{` follows, so `turn = turn + 1;` stays an assignment.
auto const block_s_def = (words("a block", "setup", "turn", "phase", "step")[block_word_f{}] >>
                          -(!WP_KW("numbered") >> name_r[set_<&stmt::id>]) >> anchors_r[set_<&stmt::anchors>] >>
                          -(WP_KW("numbered") > expr_r[push_<&stmt::exprs>]) >> aid_p<&stmt::aid>() >> &WP_P("{")) >
                         body_r[set_<&stmt::body>];
auto const let_s_def = WP_KW("let")[stmt_kind_f<stmt_kind::let>{}] > name_r[set_<&stmt::id>] > WP_P("=") >
                       expr_r[push_<&stmt::exprs>] > stmt_end;
auto const if_s_def = spanned[WP_KW("if")[stmt_kind_f<stmt_kind::if_else>{}] > expr_r[push_<&stmt::exprs>] >
                              body_r[set_<&stmt::body>] >
                              -(WP_KW("else") >
                                named("`if` or `{`", deeper[if_s][else_if_f{}] | body_r[set_<&stmt::else_body>]))];
auto const for_s_def = WP_KW("for")[stmt_kind_f<stmt_kind::for_each>{}] > WP_KW("each") > name_r[set_<&stmt::id>] >
                       WP_KW("in") > set_r[push_<&stmt::exprs>] > -(WP_KW("from") > expr_r[push_<&stmt::exprs>]) >
                       body_r[set_<&stmt::body>];
auto const repeat_s_def = WP_KW("repeat")[stmt_kind_f<stmt_kind::repeat_until>{}] > body_r[set_<&stmt::body>] >
                          WP_KW("until") > expr_r[push_<&stmt::exprs>] > stmt_end;
auto const while_s_def = WP_KW("while")[stmt_kind_f<stmt_kind::while_loop>{}] > expr_r[push_<&stmt::exprs>] >
                         body_r[set_<&stmt::body>];
auto const zone_s_def =
    (WP_KW("shuffle")[stmt_kind_f<stmt_kind::shuffle>{}] > expr_r[push_<&stmt::exprs>] > stmt_end) |
    (WP_KW("reshuffle")[stmt_kind_f<stmt_kind::reshuffle>{}] > expr_r[push_<&stmt::exprs>] > WP_KW("into") >
     expr_r[push_<&stmt::exprs>] > stmt_end) |
    ((WP_KW("move") >> WP_KW("all"))[stmt_kind_f<stmt_kind::move_all>{}] > WP_KW("from") > expr_r[push_<&stmt::exprs>] >
     WP_KW("to") > expr_r[push_<&stmt::exprs>] > stmt_end) |
    (words("a statement", "draw", "deal", "move")[stmt_word_kind_f{}] > expr_r[push_<&stmt::exprs>] >
     WP_KW("from") > expr_r[push_<&stmt::exprs>] > WP_KW("to") > expr_r[push_<&stmt::exprs>] > stmt_end);
auto const choose_s_def =
    WP_KW("choose")[stmt_kind_f<stmt_kind::choose>{}] >
    (words("`subset` or `order`", "subset", "order")[set_<&stmt::word>] | x3::attr(std::string("one"))[set_<&stmt::word>]) > name_r[set_<&stmt::id>] >
    named("`in` or `of`", WP_KW("in") | WP_KW("of")) > set_r[push_<&stmt::exprs>] >
    ((WP_KW("by") > expr_r[push_<&stmt::exprs>]) | eps[push_none_f{}]) >
    ((WP_KW("where") > expr_r[push_<&stmt::exprs>] >
      -(words("`maximizing` or `minimizing`", "maximizing", "minimizing")[set_<&stmt::goal>] > expr_r[push_<&stmt::exprs>])) |
     eps[push_none_f{}]) >
    body_r[set_<&stmt::body>];
auto const may_s_def = WP_KW("may")[stmt_kind_f<stmt_kind::may>{}] >
                       ((WP_KW("by") > expr_r[push_<&stmt::exprs>]) | eps[push_none_f{}]) >
                       named("a string saying what the player may do", string_lit[set_<&stmt::word>]) >
                       body_r[set_<&stmt::body>];
auto const invoke_s_def = words("a statement", "do", "resolve", "emit")[stmt_word_kind_f{}] >
                          name_r[set_<&stmt::id>] > -args_r[set_<&stmt::exprs>] > stmt_end;
// `end game r [at end of turn|round];` or `end turn;` (the innermost `turn` block ends at once)
auto const end_s_def = WP_KW("end") >
                       named("`game` or `turn`",
                             (WP_KW("turn")[stmt_kind_f<stmt_kind::end_turn>{}] > stmt_end) |
                                 (WP_KW("game")[stmt_kind_f<stmt_kind::end_game>{}] > name_r[set_<&stmt::id>] >
                                  -(WP_KW("at") > WP_KW("end") > WP_KW("of") >
                                    words("`turn` or `round`", "turn", "round")[set_<&stmt::word>]) >
                                  stmt_end));
// `play event of c by p;` and `cancel event of c;` (a card's event; docs/language.md)
auto const card_event_s_def =
    ((WP_KW("play") >> WP_KW("event"))[stmt_kind_f<stmt_kind::play_event>{}] > WP_KW("of") > expr_r[push_<&stmt::exprs>] >
     WP_KW("by") > expr_r[push_<&stmt::exprs>] > stmt_end) |
    ((WP_KW("cancel") >> WP_KW("event"))[stmt_kind_f<stmt_kind::cancel_event>{}] > WP_KW("of") >
     expr_r[push_<&stmt::exprs>] > stmt_end);
// `simultaneous [§…] { … reveal; … }`: the players decide in secret until the block's `reveal`
// (docs/language.md §5). Each word starts a statement only where an assignment cannot follow, so
// a field named `reveal` or `simultaneous` stays assignable.
auto const secret_s_def =
    ((WP_KW("simultaneous") >> anchors_r[set_<&stmt::anchors>] >> &WP_P("{"))[stmt_kind_f<stmt_kind::simultaneous>{}] >
     body_r[set_<&stmt::body>]) |
    ((WP_KW("reveal") >> &(WP_P(";") | WP_P("}")))[stmt_kind_f<stmt_kind::reveal>{}] > stmt_end);
auto const assign_op_def = raw[P("=", "`=`", "=") | WP_P("+=") | WP_P("-=")][range_to_string];
auto const expr_s_def = (postfix_e[push_<&stmt::exprs>] >>
                         -(assign_op[set_<&stmt::word>] > expr_r[push_<&stmt::exprs>])) >
                        stmt_end > eps[finish_expr_stmt_f{}];
auto const stmt_r_def =
    spanned[block_s[move_val] | let_s[move_val] | if_s[move_val] | for_s[move_val] | repeat_s[move_val] |
            while_s[move_val] | zone_s[move_val] | choose_s[move_val] | may_s[move_val] | invoke_s[move_val] |
            end_s[move_val] | card_event_s[move_val] | secret_s[move_val] | expr_s[move_val]];

// ---- manifest and outline
auto const layer_r_def = spanned[WP_KW("layer") > name_r[set_<&ruleset_layer::id>] > WP_P(":") >
                                 name_r[set_<&ruleset_layer::kind>] >
                                 -(WP_KW("after") > (name_r[push_<&ruleset_layer::after>] % comma)) > WP_P("{") >
                                 -(string_name[push_<&ruleset_layer::files>] % comma) > P("}", "`,` or `}`")];
auto const ruleset_r_def =
    spanned[WP_KW("ruleset") > name_r[set_<&ruleset_decl::id>] > -string_lit[set_<&ruleset_decl::title>] >
            WP_P("{") >
            *((WP_KW("source") > string_lit[set_<&ruleset_decl::source>] >>
               -(WP_KW("sha256") > string_lit[set_<&ruleset_decl::sha256>])) |
              (WP_KW("sha256") > string_lit[set_<&ruleset_decl::sha256>]) |
              (WP_KW("players") > sint_text[players_f{false}] > -(WP_P("..") > sint_text[players_f{true}])) |
              (WP_KW("outline") > string_lit[set_<&ruleset_decl::outline>]) |
              (WP_KW("unfold") > WP_KW("limit") > named("an integer", sint_text)[checker_setting_f{"unfold_limit"}]) |
              (WP_KW("unroll") > WP_KW("depth") > named("an integer", sint_text)[checker_setting_f{"unroll_depth"}]) |
              (WP_KW("evidence") > WP_KW("games") > named("an integer", sint_text)[checker_setting_f{"evidence_games"}]) |
              (WP_KW("resource") > WP_KW("limit") > named("an integer", sint_text)[checker_setting_f{"resource_limit"}]) |
              (WP_KW("bounds") > WP_KW("part") > WP_KW("with") >
               (named("`tables` or `choices`", raw[WP_KW("tables")][checker_flag_f{"tables_with_bounds"}] |
                                                   raw[WP_KW("choices")][checker_flag_f{"choices_with_bounds"}]) %
                comma)) |
              layer_r[push_<&ruleset_decl::layers>]) >
            P("}", "a manifest entry or `}`")];
auto const outline_entry_r_def = spanned[anchor_r[set_<&outline_entry::section>] > string_lit[set_<&outline_entry::title>] >
                                         status_r[set_<&outline_entry::status>]];
auto const outline_r_def = spanned[WP_KW("outline") > WP_P("{") > *outline_entry_r[push_<&outline_decl::entries>] >
                                   P("}", "an outline entry or `}`")];

// ---- types and state
auto const enum_member_r_def = name_r[set_<&enum_member::id>] >> -string_lit[set_<&enum_member::label>];
auto const enum_r_def = spanned[WP_KW("enum") > name_r[set_<&enum_decl::id>] > anchors_r[set_<&enum_decl::anchors>] >
                                WP_P("{") > named("a member", enum_member_r[push_<&enum_decl::members>]) %
                                    comma > -comma > P("}", "`,` or `}`") > aid_p<&enum_decl::aid>()] >
                        -semi;
auto const type_decl_r_def =
    spanned[WP_KW("type") > name_r[set_<&type_decl::id>] > anchors_r[set_<&type_decl::anchors>] > WP_P("=") >
            type_r[set_<&type_decl::type>]] >
    -semi;
// `hidden name: T`: a per-player field only its own player sees (a field named `hidden` stays one);
// `hidden by camp if option.fog name: side -> T`: each entry seen by its side's players only;
// `... unless revealed name: T`: shown to every seat while the bool field `revealed` is true.
auto const field_r_def =
    spanned[(-((WP_KW("hidden") >> !WP_P(":"))[const_<&field_decl::hidden, true>] >>
               -((WP_KW("by") >> !WP_P(":")) > name_r[set_<&field_decl::hidden_by>]) >>
               -(WP_KW("if") > WP_KW("option") > P(".", "`.`", ".") > name_r[set_<&field_decl::hidden_if>]) >>
               -((WP_KW("unless") >> !WP_P(":")) > name_r[set_<&field_decl::hidden_unless>])) >>
             name_r[set_<&field_decl::id>]) > WP_P(":") > type_r[set_<&field_decl::type>] >
                                 -(P("=", "`=`", "=") > expr_r[set_<&field_decl::init>]) >
                                 anchors_r[set_<&field_decl::anchors>]];
auto const field_value_r_def = name_r[set_<&field_value::field>] > P("=", "`=`", "=") > expr_r[set_<&field_value::value>] >>
                                *data_mark_r[push_<&field_value::marks>];
auto const data_mark_r_def = spanned[(WP_KW("standin")[const_<&data_mark::missing, false>] |
                                      WP_KW("missing")[const_<&data_mark::missing, true>]) >
                                     named("the reason in quotes", string_lit[set_<&data_mark::why>])];
auto const record_r_def =
    spanned[WP_KW("record") > name_r[set_<&record_decl::id>] > anchors_r[set_<&record_decl::anchors>] > WP_P("{") >
            *(field_r[push_<&record_decl::fields>] >> -comma) > P("}", "a field or `}`")] >
    -semi;
auto const state_r_def = spanned[WP_KW("state") > -(WP_KW("per") > name_r[set_<&state_decl::per>]) >
                                 anchors_r[set_<&state_decl::anchors>] > WP_P("{") >
                                 *(field_r[push_<&state_decl::fields>] >> -comma) > P("}", "a field or `}`")] >
                         -semi;

// ---- components
// The display name is required: without it `… x` (a count missing its number) would read as a new entry `x`.
// A mark goes after the display name; one after the values or the count is kept so the compiler can
// say so (it used to be read as a second entry named `standin`).
auto const entity_r_def = spanned[name_r[set_<&entity_entry::id>] >
                                  named("the display name in quotes", string_lit[set_<&entity_entry::display>]) >>
                                  *data_mark_r[push_<&entity_entry::marks>] >>
                                  anchors_r[append_<&entity_entry::anchors>] >>
                                  -values_p<&entity_entry::values>() >>
                                  -raw[lexeme[WP_P("x") >> +digit >> !ident_char]][count_f{}] >>
                                  anchors_r[append_<&entity_entry::anchors>] >>
                                  *data_mark_r[push_<&entity_entry::late_marks>] >>
                                  anchors_r[append_<&entity_entry::anchors>] >> -comma];
auto const entities_r_def =
    spanned[(WP_KW("cards")[const_<&entities_decl::pieces, false>] |
             WP_KW("pieces")[const_<&entities_decl::pieces, true>]) > name_r[set_<&entities_decl::id>] > WP_KW("of") >
            name_r[set_<&entities_decl::record>] > anchors_r[append_<&entities_decl::anchors>] >
            standin_p<&entities_decl::standin>() > anchors_r[append_<&entities_decl::anchors>] > WP_P("{") >
            *entity_r[push_<&entities_decl::entries>] > P("}", "an entry or `}`")] >
    -semi;
auto const zone_r_def =
    spanned[WP_KW("zone") > name_r[set_<&zone_decl::id>] > anchors_r[append_<&zone_decl::anchors>] > WP_P(":") >
            *((WP_KW("per") > (WP_KW("player")[const_<&zone_decl::per_player, true>] |
                                named("`player` or a map's locations", name_r[set_<&zone_decl::per>]))) |
              WP_KW("ordered")[const_<&zone_decl::ordered, true>] |
              WP_KW("hidden")[const_<&zone_decl::vis, visibility::hidden>] |
              WP_KW("owner")[const_<&zone_decl::vis, visibility::owner>] |
              WP_KW("public")[const_<&zone_decl::vis, visibility::public_>]) >
            named("`of`", WP_KW("of")) > name_r[set_<&zone_decl::of>] > anchors_r[append_<&zone_decl::anchors>]] >
    -semi;

// ---- maps
auto const area_r_def = spanned[WP_KW("area") > node_ref[set_<&map_node::id>] > -string_lit[set_<&map_node::display>] >
                                -(WP_P(":") > name_r[set_<&map_node::terrain>]) > -values_p<&map_node::values>()];
auto const hex_r_def = spanned[WP_KW("hex") > node_ref[set_<&map_node::id>] > -string_lit[set_<&map_node::display>] >
                               -(WP_P(":") > name_r[set_<&map_node::terrain>]) > -values_p<&map_node::values>()];
auto const edge_r_def =
    spanned[WP_KW("edge") > node_ref[set_<&map_edge::a>] >
            named("`--` or `->`", WP_P("--") | WP_P("->")[const_<&map_edge::directed, true>]) >
            node_ref[set_<&map_edge::b>] > -(WP_P(":") > (name_r[push_<&map_edge::kinds>] % comma))];
auto const hexside_r_def = spanned[WP_KW("hexside") > node_ref[set_<&map_edge::a>] > node_ref[set_<&map_edge::b>] >
                                   WP_P(":") > (name_r[push_<&map_edge::kinds>] % comma)];
auto const map_r_def =
    spanned[WP_KW("map") > name_r[set_<&map_decl::id>] > anchors_r[append_<&map_decl::anchors>] > WP_P(":") >
            name_r[set_<&map_decl::kind>] > anchors_r[append_<&map_decl::anchors>] > standin_p<&map_decl::standin>() >
            anchors_r[append_<&map_decl::anchors>] > WP_P("{") >
            *((area_r[push_<&map_decl::nodes>] | hex_r[push_<&map_decl::nodes>] | edge_r[push_<&map_decl::edges>] |
               hexside_r[push_<&map_decl::edges>]) >>
              -semi) > P("}", "a map entry or `}`")] >
    -semi;

// ---- chance, derived values, decisions, actions, events, procedures, sequence
auto const roll_r_def = spanned[WP_KW("roll") > name_r[set_<&roll_decl::id>] > -params_r[set_<&roll_decl::params>] >
                                anchors_r[set_<&roll_decl::anchors>] > WP_P("=") > expr_r[set_<&roll_decl::dice>] >
                                aid_p<&roll_decl::aid>() > semi];
auto const quantity_r_def =
    spanned[WP_KW("quantity") > name_r[set_<&derived_decl::id>] > -params_r[set_<&derived_decl::params>] >
            anchors_r[set_<&derived_decl::anchors>] > WP_P(":") > type_r[set_<&derived_decl::result>] > WP_P("=") >
            expr_r[set_<&derived_decl::value>] > aid_p<&derived_decl::aid>() > semi];
auto const predicate_r_def =
    spanned[WP_KW("predicate")[const_<&derived_decl::predicate, true>] > name_r[set_<&derived_decl::id>] >
            -params_r[set_<&derived_decl::params>] > anchors_r[set_<&derived_decl::anchors>] > WP_P("=") >
            expr_r[set_<&derived_decl::value>] > aid_p<&derived_decl::aid>() > semi];
auto const decision_r_def =
    spanned[WP_KW("decision") > name_r[set_<&decision_decl::id>] > -params_r[set_<&decision_decl::params>] >
            anchors_r[append_<&decision_decl::anchors>] > WP_P(":") > type_r[set_<&decision_decl::result>] >
            -WP_KW("total")[const_<&decision_decl::total, true>] > anchors_r[append_<&decision_decl::anchors>] > semi];
auto const action_r_def =
    spanned[WP_KW("action") > name_r[set_<&action_decl::id>] > -params_r[set_<&action_decl::params>] >
            anchors_r[set_<&action_decl::anchors>] > -(WP_KW("when") > expr_r[set_<&action_decl::guard>]) >
            body_r[set_<&action_decl::body>] > aid_p<&action_decl::aid>()] >
    -semi;
// `event of CARD ["title"] [§…] [by p] [lasts phase|turn|until cancelled] [lifts inv, …] { … } [aid "…"]`
// (docs/language.md, "Events on cards"), else `event e(params) [§…];`.
inline auto const card_event_tail =
    WP_KW("of")[const_<&event_decl::of_card, true>] > name_r[set_<&event_decl::id>] > -string_lit[set_<&event_decl::title>] >
    anchors_r[append_<&event_decl::anchors>] > -(WP_KW("by") > name_r[set_<&event_decl::player>]) >
    -(WP_KW("lasts") > named("`phase`, `turn` or `until cancelled`",
                             (WP_KW("until") > WP_KW("cancelled"))[const_<&event_decl::until_cancelled, true>] |
                                 words("`phase`, `turn` or `until cancelled`", "phase", "turn")[set_<&event_decl::lasts>])) >
    -(WP_KW("lifts") > (name_r[push_<&event_decl::names>] % comma)) > anchors_r[append_<&event_decl::anchors>] >
    body_r[set_<&event_decl::body>] > aid_p<&event_decl::aid>() > -semi;
auto const event_r_def =
    spanned[(WP_KW("event") > (card_event_tail | (name_r[set_<&event_decl::id>] > -params_r[set_<&event_decl::params>] >
                                                   anchors_r[set_<&event_decl::anchors>] > semi))) |
            // `events outrank rules [§…] [except c, …];` (a card's event takes precedence over the rules)
            (WP_KW("events")[const_<&event_decl::outrank, true>] > WP_KW("outrank") > WP_KW("rules") >
             anchors_r[set_<&event_decl::anchors>] > -(WP_KW("except") > (name_r[push_<&event_decl::names>] % comma)) > semi)];
auto const procedure_r_def =
    spanned[WP_KW("procedure") > name_r[set_<&procedure_decl::id>] > -params_r[set_<&procedure_decl::params>] >
            anchors_r[set_<&procedure_decl::anchors>] > body_r[set_<&procedure_decl::body>] >
            aid_p<&procedure_decl::aid>()] >
    -semi;
auto const sequence_r_def = spanned[WP_KW("sequence") > name_r[set_<&sequence_decl::id>] >
                                    anchors_r[set_<&sequence_decl::anchors>] > body_r[set_<&sequence_decl::body>]] >
                            -semi;

// ---- options and missing data
auto const option_value_r_def = sint_lit[move_val] | name_e[move_val];
auto const option_r_def =
    spanned[WP_KW("option") > name_r[set_<&option_decl::id>] > anchors_r[set_<&option_decl::anchors>] > WP_P(":") >
            named("`bool` or the option's values",
                  WP_KW("bool")[const_<&option_decl::is_bool, true>] |
                      (option_value_r[push_<&option_decl::values>] % WP_P("|"))) >
            P("=", "`=` and the default value", "=") > expr_r[set_<&option_decl::default_value>] >
            aid_p<&option_decl::aid>() > semi];
auto const missing_r_def = spanned[WP_KW("missing") > name_r[set_<&missing_decl::id>] >
                                   anchors_r[set_<&missing_decl::anchors>] > string_lit[set_<&missing_decl::what>] > semi];
auto const finding_kind_r_def =
    spanned[raw[lexeme[ident_token >> *(WP_P("-") >> ident_token)]][set_range_<&name::text>]];
auto const accept_r_def =
    spanned[WP_KW("accept") > finding_kind_r[set_<&accept_decl::kind>] >
            named("the finding's subject (a string)", string_lit)[set_<&accept_decl::subject>] >
            -(&(WP_KW("above") | WP_KW("below")) >> name_r[set_<&accept_decl::side>]) >
            -(WP_KW("upto") > named("a layer's name", name_r)[set_<&accept_decl::upto>]) >
            -(WP_KW("if") > WP_KW("option") > P(".", "`.`", ".") > name_r[set_<&accept_decl::if_option>]) > anchors_r[set_<&accept_decl::anchors>] > named("the reason (a string)", string_lit)[set_<&accept_decl::reason>] > semi];

// ---- tables
auto const key_atom_r_def =
    raw[lexeme[(udec_text >> dash >> udec_text) | (sint_text >> -(dash >> sint_text))]][range_to_string] | ident[move_val];
auto const table_key_r_def =
    spanned[((WP_KW("roll") >> dice_lit[set_<&table_key::source>] >> eps[const_<&table_key::kind, table_key_kind::dice>]) |
             (WP_KW("roll") > roll_ref[set_<&table_key::source>] > eps[const_<&table_key::kind, table_key_kind::roll>]) |
             (WP_KW("key")[const_<&table_key::kind, table_key_kind::key>] > name_r[set_<&table_key::var>] > WP_P(":") >
              type_r[set_<&table_key::type>]) |
             expr_r[set_<&table_key::source>][const_<&table_key::kind, table_key_kind::key>]) >>
            *((WP_KW("round") > name_r[set_<&table_key::rounding>]) |
              (WP_KW("shift") > (expr_r[set_<&table_key::shift>] >>
                                 -(WP_KW("clamp") >> !(WP_P("..") | (key_atom_r >> WP_P(".."))))[const_<&table_key::shift_clamp, true>])) |
              (WP_KW("clamp") > -key_atom_r[set_<&table_key::clamp_lo>] > WP_P("..") >
               -key_atom_r[set_<&table_key::clamp_hi>]))];
auto const key_range_r_def =
    spanned[raw[lexeme[(WP_P("..") >> sint_text) | (udec_text >> dash >> udec_text) |
                       (sint_text >> -(WP_P("+") | (dash >> sint_text) | (WP_P("..") >> sint_text)))]][key_text_f{}] |
            name_r[key_value_f{}]];
auto const cell_value_r_def = string_e[move_val] | sint_lit[move_val] | name_e[move_val];
auto const cell_r_def = spanned[(cell_value_r[set_<&table_cell::outcome>] >> -body_r[set_<&table_cell::effects>]) |
                                body_r[set_<&table_cell::effects>]];
auto const block_cell_r_def = spanned[body_r[set_<&table_cell::effects>]];
auto const row_r_def =
    spanned[(-(WP_KW("natural") >> &(sint_text | WP_P("..")))[const_<&table_row::natural, true>] >>
             key_range_r[set_<&table_row::key>]) > -string_lit[set_<&table_row::label>] >
            anchors_r[set_<&table_row::anchors>] >
            named("`:` or a block of effects",
                  block_cell_r[push_<&table_row::cells>] | (WP_P(":") > (cell_r[push_<&table_row::cells>] % comma) > -WP_P(";")))];
auto const table_r_def =
    spanned[WP_KW("table") > name_r[set_<&table_decl::id>] > -params_r[set_<&table_decl::params>] >
            anchors_r[set_<&table_decl::anchors>] >
            -(WP_KW("printing") > named("`of`", WP_KW("of")) > name_r[set_<&table_decl::printing_of>]) >
            standin_p<&table_decl::standin>() > WP_P(":") >
            table_key_r[push_<&table_decl::keys>] > -(comma > table_key_r[push_<&table_decl::keys>]) >
            standin_p<&table_decl::standin>() > WP_P("{") >
            -(WP_KW("columns") > (key_range_r[push_<&table_decl::columns>] % comma) > -WP_P(";")) >
            *row_r[push_<&table_decl::rows>] > P("}", "a table row or `}`") > aid_p<&table_decl::aid>() >
            eps[finish_table_f{}]] >
    -semi;

// ---- rules
inline auto const rule_head = name_r[set_<&rule_decl::id>] > anchors_r[append_<&rule_decl::anchors>] >
                              -(WP_KW("overrides") > (name_r[push_<&rule_decl::overrides>] % comma)) >
                              anchors_r[append_<&rule_decl::anchors>] >
                              -(WP_KW("during") > name_r[set_<&rule_decl::during>]) >
                              anchors_r[append_<&rule_decl::anchors>] > WP_P(":");
inline auto const rule_guard = -(WP_KW("when") > expr_r[set_<&rule_decl::guard>]);
inline auto const rule_tail = aid_p<&rule_decl::aid>() > semi;
auto const modifier_r_def =
    spanned[WP_KW("modifier")[const_<&rule_decl::kind, rule_kind::modifier>] > rule_head >
            ((P("=", "`=`", "=")[const_<&rule_decl::mod, modifier_kind::set>] > expr_r[set_<&rule_decl::amount>]) |
             (WP_KW("at") > named("`most` or `least`", WP_KW("most")[const_<&rule_decl::mod, modifier_kind::at_most>] |
                                                       WP_KW("least")[const_<&rule_decl::mod, modifier_kind::at_least>]) >
              expr_r[set_<&rule_decl::amount>]) |
             signed_term[set_<&rule_decl::amount>]) >
            WP_KW("to") > name_r[set_<&rule_decl::target>] >
            -binders_r[set_<&rule_decl::target_args>] > rule_guard > rule_tail];
auto const define_r_def =
    spanned[WP_KW("define")[const_<&rule_decl::kind, rule_kind::define>] > rule_head > name_r[set_<&rule_decl::target>] >
            -binders_r[set_<&rule_decl::target_args>] > P("=", "`=`", "=") > expr_r[set_<&rule_decl::value>] >
            rule_guard > rule_tail];
auto const legality_r_def =
    spanned[(WP_KW("forbid")[const_<&rule_decl::kind, rule_kind::forbid>] |
             WP_KW("permit")[const_<&rule_decl::kind, rule_kind::permit>] |
             WP_KW("require")[const_<&rule_decl::kind, rule_kind::require>]) > rule_head >
            name_r[set_<&rule_decl::target>] > -binders_r[set_<&rule_decl::target_args>] > rule_guard > rule_tail];
auto const trigger_r_def =
    spanned[WP_KW("trigger")[const_<&rule_decl::kind, rule_kind::trigger>] > rule_head > WP_KW("on") >
            name_r[set_<&rule_decl::target>] > -binders_r[set_<&rule_decl::target_args>] > rule_guard >
            body_r[set_<&rule_decl::body>] > aid_p<&rule_decl::aid>()] >
    -semi;
auto const invariant_r_def = spanned[WP_KW("invariant")[const_<&rule_decl::kind, rule_kind::invariant>] > rule_head >
                                     expr_r[set_<&rule_decl::value>] > rule_tail];
// `chances name(rows[, columns]) §… : given { … } chance condition;` (docs/language.md §7)
auto const chances_r_def = spanned[WP_KW("chances")[const_<&rule_decl::kind, rule_kind::chances>] > name_r[set_<&rule_decl::id>] >
                                   params_r[set_<&rule_decl::params>] > anchors_r[append_<&rule_decl::anchors>] > WP_P(":") >
                                   WP_KW("given") > body_r[set_<&rule_decl::body>] > WP_KW("chance") >
                                   expr_r[set_<&rule_decl::value>] > rule_tail];
// A designer's query about play: `assert always|never name §… : property;`, `reachable name §… : property;`.
auto const query_r_def =
    spanned[((WP_KW("assert") > named("`always` or `never`", WP_KW("always")[const_<&rule_decl::kind, rule_kind::assert_always>] |
                                                            WP_KW("never")[const_<&rule_decl::kind, rule_kind::assert_never>])) |
             WP_KW("reachable")[const_<&rule_decl::kind, rule_kind::reachable>]) >
            rule_head > expr_r[set_<&rule_decl::value>] > rule_tail];
auto const example_r_def = spanned[WP_KW("example")[const_<&rule_decl::kind, rule_kind::example>] > rule_head >
                                   WP_KW("given") > body_r[set_<&rule_decl::body>] > WP_KW("expect") >
                                   expr_r[set_<&rule_decl::value>] > rule_tail];

// ---- errata
// `rule` names any declaration with a name; the other words name their own kind only.
inline auto const decl_words = words("`rule`, `table`, `map`, `pieces`, `cards`, `procedure`, `decision` or `option`", "rule",
                                     "table", "map", "pieces", "cards", "procedure", "decision", "option");
inline auto const block_words = words("`setup`, `turn`, `phase` or `step`", "setup", "turn", "phase", "step");
// A block path is one lexeme: `game.upkeep` with no spaces around the dots.
auto const block_path_r_def = spanned[raw[lexeme[ident_token >> *(x3::lit('.') >> ident_token)]][set_range_<&name::text>]];
auto const block_stmt_r_def = spanned[block_s[move_val]];
auto const errata_op_r_def = spanned[
    (WP_KW("replace") >
     named("a kind of declaration (`rule`, `table`, `map`, …) or of block (`setup`, `turn`, `phase`, `step`)",
           ((decl_words[set_<&errata_op::decl_word>] >> eps[const_<&errata_op::kind, errata_op_kind::replace>]) > name_r[set_<&errata_op::target>] >
            anchors_r[set_<&errata_op::anchors>] > WP_KW("with") > decl_r[push_<&errata_op::replacement>]) |
               ((block_words[set_<&errata_op::block_word>] >> eps[const_<&errata_op::kind, errata_op_kind::replace_block>]) >
                block_path_r[set_<&errata_op::target>] > anchors_r[set_<&errata_op::anchors>] > WP_KW("with") >
                block_stmt_r[push_<&errata_op::block>]))) |
    (WP_KW("insert")[const_<&errata_op::kind, errata_op_kind::insert_block>] >
     words("`before` or `after`", "before", "after")[set_<&errata_op::position>] >
     block_words[set_<&errata_op::block_word>] > block_path_r[set_<&errata_op::target>] >
     anchors_r[set_<&errata_op::anchors>] > WP_KW("with") > block_stmt_r[push_<&errata_op::block>]) |
    (WP_KW("refine")[const_<&errata_op::kind, errata_op_kind::refine>] > WP_KW("rule") >
     name_r[set_<&errata_op::target>] > anchors_r[set_<&errata_op::anchors>] > WP_KW("when") >
     expr_r[set_<&errata_op::guard>] > semi) |
    (WP_KW("except")[const_<&errata_op::kind, errata_op_kind::except>] > WP_KW("rule") >
     name_r[set_<&errata_op::target>] > anchors_r[set_<&errata_op::anchors>] > WP_KW("with") >
     decl_r[push_<&errata_op::replacement>]) |
    (WP_KW("withdraw")[const_<&errata_op::kind, errata_op_kind::withdraw>] > decl_words[set_<&errata_op::decl_word>] >
     name_r[set_<&errata_op::target>] > anchors_r[set_<&errata_op::anchors>] > semi) |
    (WP_KW("amend")[const_<&errata_op::kind, errata_op_kind::amend>] > WP_KW("table") >
     name_r[set_<&errata_op::target>] > anchors_r[set_<&errata_op::anchors>] > WP_KW("row") >
     row_r[set_<&errata_op::row>]) |
    (WP_KW("add")[const_<&errata_op::kind, errata_op_kind::add>] > decl_r[push_<&errata_op::replacement>])];
auto const errata_r_def =
    spanned[WP_KW("errata") >
            named("`correction`, `clarification` or `addition`",
                  WP_KW("correction")[const_<&errata_decl::kind, errata_kind::correction>] |
                      WP_KW("clarification")[const_<&errata_decl::kind, errata_kind::clarification>] |
                      WP_KW("addition")[const_<&errata_decl::kind, errata_kind::addition>]) >
            string_lit[set_<&errata_decl::title>] > anchors_r[set_<&errata_decl::anchors>] > WP_P("{") >
            *(errata_op_r[push_<&errata_decl::ops>] >> -semi) > P("}", "an errata operation or `}`")] >
    -semi;

// ---- declarations and the file
auto const decl_r_def =
    ruleset_r[to_decl] | outline_r[to_decl] | enum_r[to_decl] | type_decl_r[to_decl] | record_r[to_decl] |
    state_r[to_decl] | entities_r[to_decl] | zone_r[to_decl] | map_r[to_decl] | roll_r[to_decl] | quantity_r[to_decl] |
    predicate_r[to_decl] | decision_r[to_decl] | action_r[to_decl] | event_r[to_decl] | procedure_r[to_decl] |
    sequence_r[to_decl] | option_r[to_decl] | missing_r[to_decl] | accept_r[to_decl] | table_r[to_decl] | modifier_r[to_decl] |
    define_r[to_decl] | legality_r[to_decl] | trigger_r[to_decl] | invariant_r[to_decl] | query_r[to_decl] | example_r[to_decl] | chances_r[to_decl] |
    deeper[errata_r][to_decl];
auto const file_r_def = *decl_r[push_<&wp::dsl::file::decls>] > named("a declaration", x3::eoi);

BOOST_SPIRIT_DEFINE(ident, name_r, ename_r, hexnum_r, node_ref, status_r, string_lit, string_name, section_r, anchor_r,
                    anchors_r)
BOOST_SPIRIT_DEFINE(expr_r, or_e, and_e, not_e, cmp_e, add_e, mul_e, neg_e, postfix_e, primary_e, cmp_op, add_op, mul_op,
                    int_lit, sint_lit, dice_lit, string_e, name_e, call_or_name_e, roll_ref, args_r, aggregate_e, set_r,
                    conditional_e, signed_term)
BOOST_SPIRIT_DEFINE(type_r, base_type, param_r, params_r, binders_r)
BOOST_SPIRIT_DEFINE(body_r, stmt_r, block_s, let_s, if_s, for_s, repeat_s, while_s, zone_s, choose_s, may_s, invoke_s,
                    end_s, card_event_s, secret_s, expr_s, assign_op)
BOOST_SPIRIT_DEFINE(decl_r, file_r, ruleset_r, layer_r, outline_r, outline_entry_r, enum_r, enum_member_r, type_decl_r,
                    field_r, field_value_r, data_mark_r, record_r, state_r, entities_r, entity_r, zone_r, map_r, area_r, hex_r,
                    edge_r, hexside_r)
BOOST_SPIRIT_DEFINE(roll_r, quantity_r, predicate_r, decision_r, action_r, event_r, procedure_r, sequence_r, option_r,
                    option_value_r, missing_r, accept_r, finding_kind_r, table_r, table_key_r, key_range_r, key_atom_r, row_r, cell_r, block_cell_r,
                    cell_value_r, modifier_r, define_r, legality_r, trigger_r, invariant_r, query_r, example_r, chances_r, errata_r,
                    errata_op_r, block_path_r, block_stmt_r)


}  // namespace wp::dsl::grammar
