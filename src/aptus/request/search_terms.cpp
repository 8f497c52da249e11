#include "aptus/request/search_terms.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "aptus/base/error.hpp"

namespace aptus::request {

struct SearchTerm::Impl {
    pcre2_code* code = nullptr;
    pcre2_match_data* data = nullptr;
    ~Impl() {
        if (data) pcre2_match_data_free(data);
        if (code) pcre2_code_free(code);
    }
};

SearchTerm::SearchTerm(const std::string& pattern) : impl_(std::make_unique<Impl>()) {
    int err = 0;
    PCRE2_SIZE offset = 0;
    impl_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                PCRE2_CASELESS | PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY, &err, &offset, nullptr);
    if (!impl_->code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        throw Error("Regex compilation error: " + pattern + ": " + reinterpret_cast<const char*>(msg));
    }
    // Without JIT (some platforms) matching still works, only slower.
    pcre2_jit_compile(impl_->code, PCRE2_JIT_COMPLETE);
    impl_->data = pcre2_match_data_create_from_pattern(impl_->code, nullptr);
}

SearchTerm::SearchTerm(SearchTerm&&) noexcept = default;
SearchTerm& SearchTerm::operator=(SearchTerm&&) noexcept = default;
SearchTerm::~SearchTerm() = default;

bool SearchTerm::matches(std::string_view text) const {
    int rc = pcre2_match(impl_->code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0, impl_->data,
                         nullptr);
    return rc >= 0;
}

}  // namespace aptus::request
