#include "aptus/deb/relation.hpp"

#include <array>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"

namespace aptus::deb {
namespace {

// Character classes as one table lookup each: this loop runs over every
// relation of every stanza when the cache is built.
enum : uint8_t { kSpace = 1, kNameStart = 2, kName = 4, kArch = 8, kProfile = 16, kVersionStop = 32 };

constexpr std::array<uint8_t, 256> make_classes() {
    std::array<uint8_t, 256> t{};
    for (int c = 0; c < 256; ++c) {
        bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        uint8_t v = 0;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') v |= kSpace | kVersionStop;
        if (alnum) v |= kNameStart | kName | kArch | kProfile;
        if (c == '+' || c == '-' || c == '.') v |= kName | kProfile;
        if (c == '-') v |= kArch;
        if (c == ')' || c == '(' || c == ',' || c == '|' || c == '[' || c == ']' || c == '<' || c == '>')
            v |= kVersionStop;
        t[size_t(c)] = v;
    }
    return t;
}
constexpr std::array<uint8_t, 256> kClasses = make_classes();

inline bool has(char c, uint8_t cls) { return (kClasses[uint8_t(c)] & cls) != 0; }

struct FieldInfo {
    RelationField field;
    std::string_view name;
};
constexpr FieldInfo kFields[] = {
    {RelationField::Depends, "Depends"},
    {RelationField::PreDepends, "Pre-Depends"},
    {RelationField::Recommends, "Recommends"},
    {RelationField::Suggests, "Suggests"},
    {RelationField::Enhances, "Enhances"},
    {RelationField::Breaks, "Breaks"},
    {RelationField::Conflicts, "Conflicts"},
    {RelationField::Replaces, "Replaces"},
    {RelationField::Provides, "Provides"},
    {RelationField::BuiltUsing, "Built-Using"},
    {RelationField::StaticBuiltUsing, "Static-Built-Using"},
    {RelationField::BuildDepends, "Build-Depends"},
    {RelationField::BuildDependsIndep, "Build-Depends-Indep"},
    {RelationField::BuildDependsArch, "Build-Depends-Arch"},
    {RelationField::BuildConflicts, "Build-Conflicts"},
    {RelationField::BuildConflictsIndep, "Build-Conflicts-Indep"},
    {RelationField::BuildConflictsArch, "Build-Conflicts-Arch"},
};

bool allows_alternatives(RelationField f) {
    return f != RelationField::Provides && f != RelationField::Conflicts && f != RelationField::Breaks &&
           f != RelationField::Replaces;
}

}  // namespace

std::string_view relation_field_name(RelationField f) { return kFields[size_t(f)].name; }

std::optional<RelationField> relation_field_from_name(std::string_view name) {
    for (const FieldInfo& f : kFields)
        if (iequals(f.name, name)) return f.field;
    return std::nullopt;
}

bool is_source_relation_field(RelationField f) { return f >= RelationField::BuildDepends; }

std::string_view relation_op_text(RelationOp op) {
    switch (op) {
        case RelationOp::None: return "";
        case RelationOp::Less: return "<<";
        case RelationOp::LessEq: return "<=";
        case RelationOp::Equal: return "=";
        case RelationOp::GreaterEq: return ">=";
        case RelationOp::Greater: return ">>";
    }
    return "";
}

void RelationList::clear() {
    relations_.clear();
    group_ends_.clear();
    arch_terms_.clear();
    profile_terms_.clear();
    profile_group_ends_.clear();
}

// Recursive descent over one field value; a class so the error path can see
// where the current group and alternative started.
class RelationParser {
public:
    RelationParser(std::string_view text, RelationField field, RelationList& out)
        : s_(text), field_(field), source_(is_source_relation_field(field)), out_(out) {}

    void run() {
        out_.clear();
        skip_space();
        if (at_end()) return;
        while (true) {
            group_start_ = pos_;
            while (true) {
                alt_start_ = pos_;
                parse_alternative();
                skip_space();
                if (at_end() || s_[pos_] != '|') break;
                if (!allows_alternatives(field_)) fail(pos_, "alternatives ('|') are not allowed here", true);
                ++pos_;
                skip_space();
            }
            out_.group_ends_.push_back(uint32_t(out_.relations_.size()));
            if (at_end()) return;
            if (s_[pos_] != ',') fail(pos_, unexpected(pos_));
            ++pos_;
            skip_space();
            if (at_end()) return;  // a trailing comma, as apt and dpkg-source accept
        }
    }

private:
    bool at_end() const { return pos_ >= s_.size(); }
    void skip_space() {
        while (pos_ < s_.size() && has(s_[pos_], kSpace)) ++pos_;
    }
    // Skips characters of class `cls`; returns the view of them.
    std::string_view take(uint8_t cls) {
        size_t b = pos_;
        while (pos_ < s_.size() && has(s_[pos_], cls)) ++pos_;
        return s_.substr(b, pos_ - b);
    }

    void parse_alternative() {
        Relation r;
        if (at_end() || !has(s_[pos_], kNameStart)) fail(pos_, "missing package name");
        r.name = take(kName);
        if (!at_end() && s_[pos_] == ':') {
            ++pos_;
            if (at_end() || !has(s_[pos_], kNameStart)) fail(pos_, "missing architecture after ':'");
            r.arch_qualifier = take(kArch);
        }
        skip_space();
        if (!at_end() && s_[pos_] == '(') parse_version(r);
        if (!at_end() && s_[pos_] == '[') parse_arches(r);
        r.profile_group_begin = r.profile_group_end = uint32_t(out_.profile_group_ends_.size());
        while (!at_end() && s_[pos_] == '<') parse_profile_group(r);
        if (!at_end() && s_[pos_] != ',' && s_[pos_] != '|') fail(pos_, unexpected(pos_));
        out_.relations_.push_back(r);
    }

    void parse_version(Relation& r) {
        ++pos_;
        skip_space();
        size_t op_at = pos_;
        std::string_view rest = s_.substr(pos_);
        if (rest.starts_with("<<")) r.op = RelationOp::Less, pos_ += 2;
        else if (rest.starts_with("<=")) r.op = RelationOp::LessEq, pos_ += 2;
        else if (rest.starts_with(">=")) r.op = RelationOp::GreaterEq, pos_ += 2;
        else if (rest.starts_with(">>")) r.op = RelationOp::Greater, pos_ += 2;
        else if (rest.starts_with("=")) r.op = RelationOp::Equal, pos_ += 1;
        // The obsolete one-character forms mean what apt makes of them.
        else if (rest.starts_with("<")) r.op = RelationOp::LessEq, pos_ += 1;
        else if (rest.starts_with(">")) r.op = RelationOp::GreaterEq, pos_ += 1;
        else fail(op_at, "missing or bad operator");
        if (!at_end() && (s_[pos_] == '<' || s_[pos_] == '>' || s_[pos_] == '=')) fail(pos_, "bad operator");
        skip_space();
        size_t b = pos_;
        while (pos_ < s_.size() && !has(s_[pos_], kVersionStop)) ++pos_;
        r.version = s_.substr(b, pos_ - b);
        if (r.version.empty()) fail(pos_, "missing version");
        skip_space();
        if (at_end() || s_[pos_] == ',' || s_[pos_] == '|') fail(pos_, "missing ')'");
        if (s_[pos_] != ')') fail(pos_, has(s_[pos_ - 1], kSpace) ? "space in version" : "bad character in version");
        ++pos_;
        if (field_ == RelationField::Provides && r.op != RelationOp::Equal)
            fail(op_at, "only '=' is allowed in Provides");
        skip_space();
    }

    void parse_arches(Relation& r) {
        if (!source_) fail(pos_, "architecture restrictions are only allowed in Build-* fields");
        ++pos_;
        r.arch_begin = uint32_t(out_.arch_terms_.size());
        while (true) {
            skip_space();
            if (at_end()) fail(pos_, "missing ']'");
            if (s_[pos_] == ']') break;
            ArchRestriction a;
            if (s_[pos_] == '!') a.negated = true, ++pos_;
            if (at_end() || !has(s_[pos_], kNameStart)) fail(pos_, "bad architecture in restriction list");
            a.arch = take(kArch);
            out_.arch_terms_.push_back(a);
        }
        ++pos_;
        r.arch_end = uint32_t(out_.arch_terms_.size());
        if (r.arch_begin == r.arch_end) fail(pos_, "empty architecture restriction list");
        skip_space();
    }

    void parse_profile_group(Relation& r) {
        if (!source_) fail(pos_, "build profiles are only allowed in Build-* fields");
        ++pos_;
        size_t before = out_.profile_terms_.size();
        while (true) {
            skip_space();
            if (at_end()) fail(pos_, "missing '>'");
            if (s_[pos_] == '>') break;
            ProfileTerm t;
            if (s_[pos_] == '!') t.negated = true, ++pos_;
            if (at_end() || !has(s_[pos_], kNameStart)) fail(pos_, "bad build profile name");
            t.name = take(kProfile);
            out_.profile_terms_.push_back(t);
        }
        ++pos_;
        if (out_.profile_terms_.size() == before) fail(pos_, "empty build profile list");
        out_.profile_group_ends_.push_back(uint32_t(out_.profile_terms_.size()));
        r.profile_group_end = uint32_t(out_.profile_group_ends_.size());
        skip_space();
    }

    std::string unexpected(size_t at) const { return std::string("unexpected '") + s_[at] + "'"; }

    // The message names the alternative (or, for a misplaced '|', the group)
    // where parsing stopped, on one line whatever continuation lines it spans.
    [[noreturn]] void fail(size_t at, std::string_view reason, bool whole_group = false) const {
        size_t begin = whole_group ? group_start_ : alt_start_;
        size_t end = at < s_.size() && (s_[at] == ',' || s_[at] == '|') ? at : s_.find_first_of(",|", at);
        if (whole_group) end = s_.find(',', at);
        std::string_view bad = trim(s_.substr(begin, end == std::string_view::npos ? s_.npos : end - begin));
        if (bad.empty()) bad = s_;  // an empty entry: show the whole value
        std::string msg(relation_field_name(field_));
        msg += ": bad relation '";
        bool in_space = false;
        for (char c : trim(bad)) {
            if (is_space(c)) {
                in_space = true;
                continue;
            }
            if (in_space) msg += ' ';
            in_space = false;
            msg += c;
        }
        msg += "': ";
        msg += reason;
        throw Error(msg);
    }

    std::string_view s_;
    size_t pos_ = 0;
    size_t group_start_ = 0, alt_start_ = 0;
    RelationField field_;
    bool source_;
    RelationList& out_;
};

void parse_relations(std::string_view text, RelationField field, RelationList& out) {
    RelationParser(text, field, out).run();
}

}  // namespace aptus::deb
