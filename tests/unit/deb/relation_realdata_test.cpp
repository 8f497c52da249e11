// Every relation field of real Debian indices parses, and printing then
// re-parsing gives the same structure.
#include <gtest/gtest.h>

#include <string>

#include "aptus/base/compression.hpp"
#include "support/test_support.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/deb/relation.hpp"
#include "aptus/deb/tagfile.hpp"

using namespace aptus::deb;

namespace {


// Field-by-field equality of two parses, reported with the texts involved.
::testing::AssertionResult same_structure(const RelationList& a, const RelationList& b) {
    if (a.group_count() != b.group_count()) return ::testing::AssertionFailure() << "group count differs";
    for (size_t g = 0; g < a.group_count(); ++g) {
        auto ga = a.group(g), gb = b.group(g);
        if (ga.size() != gb.size()) return ::testing::AssertionFailure() << "group " << g << " size differs";
        for (size_t i = 0; i < ga.size(); ++i) {
            const Relation &x = ga[i], &y = gb[i];
            if (x.name != y.name || x.arch_qualifier != y.arch_qualifier || x.op != y.op || x.version != y.version)
                return ::testing::AssertionFailure() << "relation " << x.name << " differs";
            auto ax = a.arch_restrictions(x), ay = b.arch_restrictions(y);
            if (!std::equal(ax.begin(), ax.end(), ay.begin(), ay.end()))
                return ::testing::AssertionFailure() << "arch restrictions of " << x.name << " differ";
            if (a.profile_group_count(x) != b.profile_group_count(y))
                return ::testing::AssertionFailure() << "profile groups of " << x.name << " differ";
            for (size_t p = 0; p < a.profile_group_count(x); ++p) {
                auto px = a.profile_group(x, p), py = b.profile_group(y, p);
                if (!std::equal(px.begin(), px.end(), py.begin(), py.end()))
                    return ::testing::AssertionFailure() << "profiles of " << x.name << " differ";
            }
        }
    }
    return ::testing::AssertionSuccess();
}

struct Counts {
    size_t stanzas = 0, fields = 0, relations = 0, arch_terms = 0, profile_groups = 0, qualifiers = 0;
};

// Parses, prints and re-parses every relation field of `kind` in one index.
Counts check_file(const char* name, bool source) {
    Counts n;
    std::string path = aptus::test::real_data_path(name);
    std::string text = aptus::read_decompressed(path);
    TagFileReader reader(text, path);
    Stanza stanza;
    RelationList first, second;
    std::string printed;
    int failures = 0;
    while (reader.next(stanza)) {
        ++n.stanzas;
        for (const Field& f : stanza.fields) {
            std::optional<RelationField> kind = relation_field_from_name(f.name);
            if (!kind || is_source_relation_field(*kind) != source) continue;
            ++n.fields;
            try {
                parse_relations(f.value, *kind, first);
                printed.clear();
                append_relations(first, printed);
                parse_relations(printed, *kind, second);
            } catch (const aptus::Error& e) {
                ADD_FAILURE() << aptus::file_error(path, f.line, e.what()).what();
                if (++failures > 20) return n;
                continue;
            }
            ::testing::AssertionResult same = same_structure(first, second);
            if (!same) {
                ADD_FAILURE() << path << ":" << f.line << ": " << same.message() << "\n  " << f.value << "\n  "
                              << printed;
                if (++failures > 20) return n;
            }
            n.relations += first.relations().size();
            for (const Relation& r : first.relations()) {
                n.arch_terms += first.arch_restrictions(r).size();
                n.profile_groups += first.profile_group_count(r);
                n.qualifiers += !r.arch_qualifier.empty();
            }
        }
    }
    return n;
}

class RelationRealData : public ::testing::Test {
protected:
    void SetUp() override {
        APTUS_REQUIRE_REAL_DATA(aptus::test::real_data_path("bookworm-main-Sources.xz"));
    }
};

}  // namespace

TEST_F(RelationRealData, BookwormPackages) {
    Counts n = check_file("bookworm-main-amd64-Packages.xz", false);
    RecordProperty("relations", std::to_string(n.relations));
    std::printf("bookworm Packages: %zu stanzas, %zu fields, %zu relations, %zu :arch\n", n.stanzas, n.fields,
                n.relations, n.qualifiers);
    EXPECT_GT(n.stanzas, 60000u);
    EXPECT_GT(n.relations, 300000u);
    EXPECT_GT(n.qualifiers, 1000u);
}

TEST_F(RelationRealData, TrixiePackages) {
    Counts n = check_file("trixie-main-amd64-Packages.xz", false);
    std::printf("trixie Packages: %zu stanzas, %zu fields, %zu relations, %zu :arch\n", n.stanzas, n.fields,
                n.relations, n.qualifiers);
    EXPECT_GT(n.stanzas, 60000u);
    EXPECT_GT(n.relations, 300000u);
}

TEST_F(RelationRealData, BookwormSourcesBuildRelations) {
    Counts n = check_file("bookworm-main-Sources.xz", true);
    std::printf("bookworm Sources: %zu stanzas, %zu fields, %zu relations, %zu [arch] terms, %zu <profile> groups\n",
                n.stanzas, n.fields, n.relations, n.arch_terms, n.profile_groups);
    EXPECT_GT(n.stanzas, 30000u);
    EXPECT_GT(n.relations, 200000u);
    EXPECT_GT(n.arch_terms, 1000u);
    EXPECT_GT(n.profile_groups, 1000u);
}
