// Relation fields (Depends, Build-Depends, ...): parse, print, and parse the
// print again, which must give the same text. First byte: which field.
#include <cstdint>
#include <string_view>
#include <vector>

#include "aptus/base/error.hpp"
#include "aptus/deb/relation.hpp"
#include "fuzz/fuzz_util.hpp"

using namespace aptus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    auto field = deb::RelationField(data[0] % (uint8_t(deb::RelationField::BuildConflictsArch) + 1));
    std::string_view in = fuzz::text(data + 1, size - 1);
    deb::RelationList list;
    try {
        deb::parse_relations(in, field, list);
    } catch (const Error&) {
        return 0;
    }
    std::vector<std::string_view> active = {"nocheck", "stage1"};
    for (const deb::Relation& r : list.relations()) {
        if (r.name.empty()) fuzz::broken("relation without a name");
        if (!fuzz::within(r.name, in) || !fuzz::within(r.version, in) || !fuzz::within(r.arch_qualifier, in))
            fuzz::broken("relation outside the text");
        (void)list.arch_restrictions(r);
        for (size_t g = 0; g < list.profile_group_count(r); ++g) (void)list.profile_group(r, g);
        (void)deb::profiles_match(list, r, active);
        if (r.op != deb::RelationOp::None) (void)deb::relation_satisfied_by(r.op, "1.0-1", r.version);
    }
    std::string printed = deb::format_relations(list);
    deb::RelationList again;
    try {
        deb::parse_relations(printed, field, again);
    } catch (const Error&) {
        fuzz::broken("the printed relations do not parse");
    }
    if (deb::format_relations(again) != printed) fuzz::broken("printing the reparsed relations differs");
    return 0;
}
