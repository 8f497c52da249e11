// The canonical text of relations, and the checks that need more than syntax
// (versions, build profiles).
#include <algorithm>

#include "aptus/deb/relation.hpp"
#include "aptus/deb/version.hpp"

namespace aptus::deb {

void append_relation(const RelationList& list, const Relation& r, std::string& out) {
    out += r.name;
    if (!r.arch_qualifier.empty()) {
        out += ':';
        out += r.arch_qualifier;
    }
    if (r.op != RelationOp::None) {
        out += " (";
        out += relation_op_text(r.op);
        out += ' ';
        out += r.version;
        out += ')';
    }
    std::span<const ArchRestriction> arches = list.arch_restrictions(r);
    if (!arches.empty()) {
        out += " [";
        for (size_t i = 0; i < arches.size(); ++i) {
            if (i) out += ' ';
            if (arches[i].negated) out += '!';
            out += arches[i].arch;
        }
        out += ']';
    }
    for (size_t g = 0; g < list.profile_group_count(r); ++g) {
        out += " <";
        std::span<const ProfileTerm> terms = list.profile_group(r, g);
        for (size_t i = 0; i < terms.size(); ++i) {
            if (i) out += ' ';
            if (terms[i].negated) out += '!';
            out += terms[i].name;
        }
        out += '>';
    }
}

void append_relations(const RelationList& list, std::string& out) {
    for (size_t g = 0; g < list.group_count(); ++g) {
        if (g) out += ", ";
        std::span<const Relation> alts = list.group(g);
        for (size_t i = 0; i < alts.size(); ++i) {
            if (i) out += " | ";
            append_relation(list, alts[i], out);
        }
    }
}

std::string format_relations(const RelationList& list) {
    std::string out;
    append_relations(list, out);
    return out;
}

bool relation_satisfied_by(RelationOp op, std::string_view version, std::string_view target) {
    if (op == RelationOp::None) return true;
    int c = compare_versions(target, version);
    switch (op) {
        case RelationOp::Less: return c < 0;
        case RelationOp::LessEq: return c <= 0;
        case RelationOp::Equal: return c == 0;
        case RelationOp::GreaterEq: return c >= 0;
        case RelationOp::Greater: return c > 0;
        case RelationOp::None: break;
    }
    return true;
}

bool profiles_match(const RelationList& list, const Relation& r, std::span<const std::string_view> active) {
    size_t groups = list.profile_group_count(r);
    if (groups == 0) return true;
    for (size_t g = 0; g < groups; ++g) {
        bool all = true;
        for (const ProfileTerm& t : list.profile_group(r, g)) {
            bool on = std::find(active.begin(), active.end(), t.name) != active.end();
            if (on == t.negated) {
                all = false;
                break;
            }
        }
        if (all) return true;
    }
    return false;
}

}  // namespace aptus::deb
