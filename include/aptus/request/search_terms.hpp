// The terms of `search`: each an extended regular expression, matched
// case-insensitively anywhere in a package name or description, as apt's
// regcomp(REG_EXTENDED | REG_ICASE) does. Compiled with PCRE2 (JIT) for
// speed, with the options that keep POSIX's meaning: '.' matches a newline,
// '^' and '$' only at the ends of the whole text.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace aptus::request {

class SearchTerm {
public:
    // Throws aptus::Error ("Regex compilation error ...") for a bad pattern.
    explicit SearchTerm(const std::string& pattern);
    SearchTerm(SearchTerm&&) noexcept;
    SearchTerm& operator=(SearchTerm&&) noexcept;
    ~SearchTerm();

    // Not thread-safe: uses one match-data block per term.
    bool matches(std::string_view text) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Every term must match `name` or, unless names_only, `description`.
// `description` is only asked for when some term misses the name, since
// reading it costs more than matching a name.
template <class DescriptionFn>
bool all_terms_match(const std::vector<SearchTerm>& terms, std::string_view name, bool names_only,
                     DescriptionFn&& description) {
    bool have_desc = false;
    std::string_view desc;
    for (const auto& t : terms) {
        if (t.matches(name)) continue;
        if (names_only) return false;
        if (!have_desc) {
            desc = description();
            have_desc = true;
        }
        if (!t.matches(desc)) return false;
    }
    return true;
}

}  // namespace aptus::request
