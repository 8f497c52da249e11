#include "aptus/policy/pin_match.hpp"

#include <fnmatch.h>
#include <regex.h>

#include "aptus/base/error.hpp"

namespace aptus::policy {

struct Pattern::Regex {
    regex_t re;
    ~Regex() { regfree(&re); }
};

Pattern::Pattern(std::string text) : text_(std::move(text)) {
    if (text_.size() > 2 && text_.front() == '/' && text_.back() == '/') {
        auto rx = std::make_shared<Regex>();
        std::string body = text_.substr(1, text_.size() - 2);
        // apt's words for it (it says them as a warning and the pattern
        // matches nothing); parse_preferences names the file and line.
        if (regcomp(&rx->re, body.c_str(), REG_EXTENDED | REG_NOSUB) != 0)
            throw Error("Invalid regular expression: " + body);
        regex_ = std::move(rx);
    } else {
        glob_ = text_.find_first_of("*?[") != std::string::npos;
    }
}

bool Pattern::matches(std::string_view value) const {
    std::string v(value);
    if (regex_) return regexec(&regex_->re, v.c_str(), 0, nullptr, 0) == 0;
    if (glob_) return fnmatch(text_.c_str(), v.c_str(), 0) == 0;
    return text_ == value;
}

PinMatcher::PinMatcher(const PinRecord& record) : record_(record) {
    for (const std::string& written : record.packages) {
        PackagePattern p;
        std::string_view text = written;
        if (text.substr(0, 4) == "src:") {
            p.source = true;
            text.remove_prefix(4);
        }
        // A trailing ":any" or ":ARCH" selects architectures; a regex may
        // itself contain ':' so only look after its closing slash.
        size_t search_from = (!text.empty() && text.front() == '/') ? text.rfind('/') : 0;
        size_t colon = text.find(':', search_from == std::string_view::npos ? 0 : search_from);
        if (colon != std::string_view::npos) {
            p.arch = std::string(text.substr(colon + 1));
            text = text.substr(0, colon);
        }
        p.name = Pattern(std::string(text));
        packages_.push_back(std::move(p));
    }
    const ReleaseConditions& r = record.release;
    if (record.kind == PinRecord::Kind::Version || record.kind == PinRecord::Kind::SourceVersion)
        version_ = Pattern(record.version);
    archive_ = Pattern(r.archive);
    codename_ = Pattern(r.codename);
    release_version_ = Pattern(r.version);
    component_ = Pattern(r.component);
    origin_ = Pattern(r.origin);
    label_ = Pattern(r.label);
    architecture_ = Pattern(r.architecture);
    archive_or_codename_ = Pattern(r.archive_or_codename);
    matches_all_ = r.archive_or_codename == "*" && r.archive.empty() && r.codename.empty() && r.version.empty() &&
                   r.component.empty() && r.origin.empty() && r.label.empty() && r.architecture.empty();
}

bool PinMatcher::matches_package(const PackageFacts& package) const {
    if (record_.general) return true;
    for (const PackagePattern& p : packages_) {
        if (!p.name.matches(p.source ? package.source_name : package.name)) continue;
        if (p.arch == "any") return true;
        std::string_view arch = package.architecture == "all" ? package.native_architecture : package.architecture;
        if (p.arch.empty() ? arch == package.native_architecture : arch == p.arch) return true;
    }
    return false;
}

bool PinMatcher::matches_file(const PackageFileFacts& file) const {
    // apt's "Pin: release *" matches every package file, the dpkg status
    // too: such a pin decides the installed version's priority as well.
    if (record_.kind == PinRecord::Kind::Release && matches_all_) return true;
    // The status file is a release too, apt's "a=now" and nothing else:
    // release pins may name it (-t now), origin and version pins do not.
    if (file.is_status && record_.kind != PinRecord::Kind::Release) return false;
    switch (record_.kind) {
        case PinRecord::Kind::Version:
        case PinRecord::Kind::SourceVersion:
            return true;
        case PinRecord::Kind::Origin:
            return file.site == record_.site;
        case PinRecord::Kind::Release:
            break;
    }
    auto ok = [](const Pattern& p, std::string_view value) { return p.empty() || p.matches(value); };
    if (!archive_or_codename_.empty() && !archive_or_codename_.matches(file.archive) &&
        !archive_or_codename_.matches(file.codename))
        return false;
    return ok(archive_, file.archive) && ok(codename_, file.codename) && ok(release_version_, file.version) &&
           ok(component_, file.component) && ok(origin_, file.origin) && ok(label_, file.label) &&
           ok(architecture_, file.architecture);
}

bool PinMatcher::matches_version(std::string_view version, std::string_view source_version) const {
    if (record_.kind == PinRecord::Kind::SourceVersion)
        return version_.matches(source_version.empty() ? version : source_version);
    return record_.kind != PinRecord::Kind::Version || version_.matches(version);
}

}  // namespace aptus::policy
