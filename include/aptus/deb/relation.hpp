// Package relation fields (Depends, Provides, Build-Depends, ...): parsing
// into a reusable flat structure, printing the canonical form, and checking a
// version against a relation's operator.
//
// Syntax accepted (Debian Policy 7.1, deb-control(5), deb-src-control(5)):
//   groups separated by ',', alternatives by '|';
//   name[:archqual] [(op version)] [[arch !arch ...]] [<profile !profile ...> ...]
// with any whitespace (continuation lines included) between tokens.
// Decisions, each tested:
//   - A trailing comma (and empty value) is accepted, as apt and dpkg-source
//     do; an empty entry elsewhere (`a,,b`, `a | | b`, leading ',') is an error.
//   - The obsolete `<` and `>` are read as apt reads them: `<=` and `>=`.
//   - Architecture restrictions and build profiles are only valid in the
//     Build-* fields (apt and dpkg reject them in binary packages). A list
//     mixing `arch` and `!arch` breaks Policy 7.1 but parses, as in apt and
//     dpkg; see arch_restrictions_match() for how it is evaluated.
//   - Provides takes only `=`; Provides, Conflicts, Breaks and Replaces take
//     no alternatives (dpkg refuses them).
// Errors throw aptus::Error "<Field>: bad relation '<text>': <reason>"; the
// caller adds the file and line.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "aptus/deb/architecture.hpp"

namespace aptus::deb {

enum class RelationOp : uint8_t { None, Less, LessEq, Equal, GreaterEq, Greater };

enum class RelationField : uint8_t {
    Depends, PreDepends, Recommends, Suggests, Enhances, Breaks, Conflicts, Replaces, Provides,
    BuiltUsing, StaticBuiltUsing,
    BuildDepends, BuildDependsIndep, BuildDependsArch, BuildConflicts, BuildConflictsIndep, BuildConflictsArch,
};

// "Pre-Depends" for RelationField::PreDepends, and back (case-insensitive).
std::string_view relation_field_name(RelationField f);
std::optional<RelationField> relation_field_from_name(std::string_view name);
// The Build-* fields of source packages.
bool is_source_relation_field(RelationField f);

// "<<", "<=", "=", ">=", ">>"; "" for None.
std::string_view relation_op_text(RelationOp op);

// One alternative. Views point into the parsed text; `version` is empty iff op
// is None; `arch_qualifier` is empty when there is no ":arch".
struct Relation {
    std::string_view name;
    std::string_view arch_qualifier;
    std::string_view version;
    RelationOp op = RelationOp::None;
    // Ranges into the RelationList's side arrays; use its accessors.
    uint32_t arch_begin = 0, arch_end = 0;
    uint32_t profile_group_begin = 0, profile_group_end = 0;
};

struct ProfileTerm {
    std::string_view name;  // without the '!'
    bool negated = false;
    friend bool operator==(const ProfileTerm&, const ProfileTerm&) = default;
};

// All groups of one field value. Reuse one object: parse_relations() clears
// it and the vectors keep their capacity, so a warm parse allocates nothing.
class RelationList {
public:
    void clear();

    size_t group_count() const { return group_ends_.size(); }
    // The alternatives of group i (a|b|c), in order.
    std::span<const Relation> group(size_t i) const {
        uint32_t begin = i == 0 ? 0 : group_ends_[i - 1];
        return {relations_.data() + begin, group_ends_[i] - begin};
    }
    // Every alternative of every group, flat.
    std::span<const Relation> relations() const { return relations_; }

    std::span<const ArchRestriction> arch_restrictions(const Relation& r) const {
        return {arch_terms_.data() + r.arch_begin, r.arch_end - r.arch_begin};
    }
    // `<a b> <c>` is two groups; a relation applies when every term of one
    // group holds (an OR of ANDs).
    size_t profile_group_count(const Relation& r) const { return r.profile_group_end - r.profile_group_begin; }
    std::span<const ProfileTerm> profile_group(const Relation& r, size_t i) const {
        uint32_t g = r.profile_group_begin + uint32_t(i);
        uint32_t begin = g == 0 ? 0 : profile_group_ends_[g - 1];
        return {profile_terms_.data() + begin, profile_group_ends_[g] - begin};
    }

    // Range-for over groups: `for (std::span<const Relation> alts : list.groups())`.
    class GroupIterator {
    public:
        GroupIterator(const RelationList* l, size_t i) : list_(l), i_(i) {}
        std::span<const Relation> operator*() const { return list_->group(i_); }
        GroupIterator& operator++() { ++i_; return *this; }
        bool operator==(const GroupIterator& o) const { return i_ == o.i_; }
    private:
        const RelationList* list_;
        size_t i_;
    };
    struct Groups {
        const RelationList* list;
        GroupIterator begin() const { return {list, 0}; }
        GroupIterator end() const { return {list, list->group_count()}; }
    };
    Groups groups() const { return {this}; }

private:
    friend class RelationParser;
    std::vector<Relation> relations_;
    std::vector<uint32_t> group_ends_;          // exclusive end index in relations_
    std::vector<ArchRestriction> arch_terms_;
    std::vector<ProfileTerm> profile_terms_;
    std::vector<uint32_t> profile_group_ends_;  // exclusive end index in profile_terms_
};

// Parse a field value (as stored, continuation lines included) into `out`.
// `out` views `text`, which must outlive it. Throws aptus::Error.
void parse_relations(std::string_view text, RelationField field, RelationList& out);

// Canonical text: "a (>= 1.0) | b:any [amd64 !i386] <!nocheck> <cross>, c".
// append_* add to `out` without clearing it.
void append_relation(const RelationList& list, const Relation& r, std::string& out);
void append_relations(const RelationList& list, std::string& out);
std::string format_relations(const RelationList& list);

// Does a package at version `target` satisfy "(op version)"? None: always.
bool relation_satisfied_by(RelationOp op, std::string_view version, std::string_view target);

// Does the relation apply with these build profiles active? No profile
// formula: always.
bool profiles_match(const RelationList& list, const Relation& r, std::span<const std::string_view> active);

}  // namespace aptus::deb
