#include "aptus/policy/preferences.hpp"

#include <cerrno>
#include <charconv>
#include <climits>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/config/parser.hpp"
#include "aptus/deb/tagfile.hpp"
#include "aptus/policy/pin_match.hpp"

namespace aptus::policy {
namespace {

// "a=stable, n=trixie": comma means AND; for a repeated key only the last
// one counts (as apt_preferences(5) says). A value without '=' is a version
// when it starts with a digit, else an archive or codename.
ReleaseConditions parse_release(std::string_view text) {
    ReleaseConditions r;
    while (!text.empty()) {
        size_t comma = text.find(',');
        std::string_view term = trim(text.substr(0, comma));
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        if (term.empty()) continue;
        size_t eq = term.find('=');
        if (eq == std::string_view::npos) {
            if (is_digit(term.front()))
                r.version = std::string(term);
            else
                r.archive_or_codename = std::string(term);
            continue;
        }
        std::string_view key = trim(term.substr(0, eq));
        std::string value(trim(term.substr(eq + 1)));
        if (key == "a") r.archive = value;
        else if (key == "n") r.codename = value;
        else if (key == "v") r.version = value;
        else if (key == "c") r.component = value;
        else if (key == "o") r.origin = value;
        else if (key == "l") r.label = value;
        else if (key == "b") r.architecture = value;
        // Unknown keys are ignored, as apt ignores them.
    }
    return r;
}

std::string unquote(std::string_view s) {
    s = trim(s);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return std::string(s);
}

bool parse_priority(std::string_view text, long long& out) {
    text = trim(text);
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::vector<PinRecord> parse_preferences(std::string_view text, const std::string& file, Diagnostics& diags) {
    std::vector<PinRecord> records;
    deb::TagFileReader reader(text, file, deb::TagFileOptions{.allow_comments = true});
    deb::Stanza stanza;
    while (reader.next(stanza)) {
        // A stanza of Explanation lines only is a comment block.
        if (!stanza.find("Package") && !stanza.find("Pin") && !stanza.find("Pin-Priority")) continue;

        auto package = stanza.get("Package");
        if (!package) throw file_error(file, stanza.line, "Invalid record in the preferences file, no Package header");
        auto pin = stanza.get("Pin");
        // apt skips a record with no (or an empty) Pin line without a word.
        if (!pin || trim(*pin).empty()) continue;

        PinRecord rec;
        rec.file = file;
        rec.line = stanza.line;
        for (std::string_view word : split_words(*package)) rec.packages.emplace_back(word);
        rec.general = rec.packages.size() == 1 && rec.packages[0] == "*";

        std::string_view pin_text = trim(*pin);
        size_t space = pin_text.find_first_of(" \t");
        std::string_view type = pin_text.substr(0, space);
        std::string_view data = space == std::string_view::npos ? std::string_view() : trim(pin_text.substr(space));
        if ((type == "version" || type == "source-version") && !rec.general) {
            rec.kind = type == "version" ? PinRecord::Kind::Version : PinRecord::Kind::SourceVersion;
            rec.version = std::string(data);
        } else if (type == "release") {
            rec.kind = PinRecord::Kind::Release;
            rec.release = parse_release(data);
        } else if (type == "origin") {
            rec.kind = PinRecord::Kind::Origin;
            rec.site = unquote(data);
        } else {
            diags.push_back({Level::Warning, file + ":" + std::to_string(stanza.line) +
                                                 ": Did not understand pin type " + std::string(type)});
            continue;
        }

        auto priority = stanza.get("Pin-Priority");
        long long value = 0;
        if (priority && trim(*priority) == "never") {
            if (!rec.general)
                throw file_error(file, 0, "The special 'Pin-Priority: never' can only be used for 'Package: *' records");
            value = -32768;
            rec.never = true;
        } else if (!priority || !parse_priority(*priority, value) || value == 0)
            throw file_error(file, stanza.line, "No priority (or zero) specified for pin")
                .set_apt_text("No priority (or zero) specified for pin");
        // apt keeps priorities in a short; what does not fit is refused, and
        // what does not even fit an int is first refused as a number.
        if (!rec.never && (value < -32768 || value > 32767)) {
            Error range = file_error(file, 0, "Value " + std::to_string(value) +
                                                  " is outside the range of valid pin priorities (-32768 to 32767)");
            if (value < INT_MIN || value > INT_MAX)
                throw Error("Cannot convert " + std::string(trim(*priority)) + " to integer: out of range")
                    .add_followup(range.what());
            throw range;
        }
        rec.priority = int(value);
        // A /regex/ that does not compile (in Package, a version pin or a
        // release condition): apt warns and the record matches nothing, the
        // other pins still apply. Warned once here, with the place, and the
        // record left out.
        try {
            PinMatcher check(rec);
        } catch (const Error& e) {
            diags.push_back({Level::Warning, file + ":" + std::to_string(stanza.line) + ": " + e.what() +
                                                 " (this record is ignored)"});
            continue;
        }
        records.push_back(std::move(rec));
    }
    return records;
}

std::vector<PinRecord> read_preferences(const config::Config& config, Diagnostics& diags) {
    std::vector<PinRecord> records;
    auto read_one = [&](const std::string& path) {
        std::vector<PinRecord> more = parse_preferences(read_file(path), path, diags);
        records.insert(records.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    };
    std::string main_file = config.find_file("Dir::Etc::preferences");
    if (path_exists(main_file)) read_one(main_file);
    std::string parts = config.find_dir("Dir::Etc::preferencesparts");
    if (is_directory(parts))
        for (const std::string& path : config::parts_dir_files(config, parts, {"pref"}, true, diags)) read_one(path);
    return records;
}

}  // namespace aptus::policy
