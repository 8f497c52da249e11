// apt's search patterns: the grammar (every long and short form, implicit
// and/or/not, groups, quoting, precedence), apt's error messages with their
// spans, and matching on the real server sandbox's cache (bookworm
// installed, trixie the candidate).
#include "aptus/request/package_pattern.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "aptus/config/init.hpp"
#include "aptus/system/installed_system.hpp"
#include "aptus/system/system.hpp"
#include "unit/cli/sandbox_session.hpp"
#include "support/test_support.hpp"

using namespace aptus;
using request::PackagePattern;

namespace {

std::string tree(std::string_view text) { return PackagePattern::parse(text).render(); }

// The message of the aptus::Error parsing `text` throws ("" when none).
std::string error_of(std::string_view text) {
    try {
        PackagePattern::parse(text);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// A pattern and what it must give: its tree as render() writes it, or
// apt's error message.
struct Case {
    const char* pattern;
    const char* expected;
};

void expect_trees(std::initializer_list<Case> cases) {
    for (const Case& c : cases) EXPECT_EQ(tree(c.pattern), c.expected) << "pattern: " << c.pattern;
}

void expect_errors(std::initializer_list<Case> cases) {
    for (const Case& c : cases) EXPECT_EQ(error_of(c.pattern), c.expected) << "pattern: " << c.pattern;
}

}  // namespace

TEST(PatternWord, OnlyQuestionMarkOrTildeFirst) {
    EXPECT_TRUE(request::is_pattern_word("?installed"));
    EXPECT_TRUE(request::is_pattern_word("~i"));
    EXPECT_FALSE(request::is_pattern_word("lib?oo"));
    EXPECT_FALSE(request::is_pattern_word("!~i"));
    EXPECT_FALSE(request::is_pattern_word(""));
}

TEST(PatternParse, EveryLongFormWithoutArguments) {
    for (const char* t : {"?installed", "?upgradable", "?automatic", "?essential", "?obsolete", "?garbage", "?broken",
                          "?config-files", "?virtual", "?true", "?false"})
        EXPECT_EQ(tree(t), t);
}

TEST(PatternParse, EveryShortForm) {
    expect_trees({
        {"~i", "?installed"},
        {"~U", "?upgradable"},
        {"~M", "?automatic"},
        {"~E", "?essential"},
        {"~o", "?obsolete"},
        {"~g", "?garbage"},
        {"~b", "?broken"},
        {"~c", "?config-files"},
        {"~v", "?virtual"},
        {"~T", "?true"},
        {"~F", "?false"},
        {"~nfoo", "?name(foo)"},
        {"~slibs", "?section(libs)"},
        {"~prequired", "?priority(required)"},
        {"~ebash", "?source-package(bash)"},
        {"~V2.0", "?version(2.0)"},
        {"~ODebian", "?origin(Debian)"},
        {"~Astable", "?archive(stable)"},
        {"~ramd64", "?architecture(amd64)"},
        {"~D~nlibc6", "?depends(?name(libc6))"},
        {"~DRecommends:~nfoo", "?recommends(?name(foo))"},
        {"~RDepends:~nbash", "?reverse-depends(?name(bash))"},
        {"~RBreaks:~i", "?reverse-breaks(?installed)"},
    });
}

TEST(PatternParse, LongFormsWithArguments) {
    expect_trees({
        {"?name(^foo$)", "?name(^foo$)"},
        {"?exact-name(foo)", "?exact-name(foo)"},
        {"?section(libs)", "?section(libs)"},
        {"?source-version(1\\.2)", "?source-version(1\\.2)"},
        {"?codename(trixie)", "?codename(trixie)"},
        {"?x-name-fnmatch(lib*)", "?x-name-fnmatch(lib*)"},
        {"?any-version(?archive(now))", "?any-version(?archive(now))"},
        {"?all-versions(~i)", "?all-versions(?installed)"},
        {"?narrow(~V1,~Astable)", "?any-version(?and(?version(1),?archive(stable)))"},
        {"?not(~i)", "?not(?installed)"},
        {"?and(~i, ~M)", "?and(?installed,?automatic)"},
        {"?or(~i,~M,)", "?or(?installed,?automatic)"},  // a trailing comma is allowed
        {"?and()", "?and()"},
        {"?name (foo)", "?name(foo)"},  // space before the list
        {"  ?installed  ", "?installed"},
    });
    // apt's quirk: a short form ends before the spaces after it.
    EXPECT_EQ(error_of("  ~i  ").rfind("input:4-6: error: Expected end of file", 0), 0u);
}

TEST(PatternParse, WordsAndQuotes) {
    expect_trees({
        // A long form's word runs to one of "|,()": spaces and '!' are in it.
        {"?name(a b!c)", "?name(a b!c)"},
        // After a short form a word also stops at space and "!?~".
        {"~nfoo~i", "?and(?name(foo),?installed)"},
        {"~nfoo!~i", "?and(?name(foo),?not(?installed))"},
        // Quotes keep the separators.
        {"?name(\"a,b)\")", "?name(a,b))"},
        {"~n\"x y\"", "?name(x y)"},
    });
}

TEST(PatternParse, PrecedenceNotThenAndThenOr) {
    expect_trees({
        {"~i ~M | ~c", "?or(?and(?installed,?automatic),?config-files)"},
        {"~c | ~i ~M", "?or(?config-files,?and(?installed,?automatic))"},
        {"!~i ~M", "?and(?not(?installed),?automatic)"},
        {"!(~i ~M)", "?not(?and(?installed,?automatic))"},
        {"(~ramd64|~ri386)~nfoo", "?and(?or(?architecture(amd64),?architecture(i386)),?name(foo))"},
        {"~i|~M|~c", "?or(?installed,?automatic,?config-files)"},
        {"~i !~M (~slibs|~sperl|~spython)",
         "?and(?installed,?not(?automatic),?or(?section(libs),?section(perl),?section(python)))"},
    });
}

TEST(PatternParse, AptsErrorsWithTheirSpans) {
    expect_errors({
        {"?foo", "input:0-4: error: Unrecognized pattern '?foo'\n   ?foo\n   ^^^^"},
        {"?name", "input:0-5: error: ?name expects an argument list\n   ?name\n   ^^^^^"},
        {"?installed(x)",
         "input:0-13: error: ?installed does not expect an argument list\n   ?installed(x)\n   ^^^^^^^^^^^^^"},
        {"?name(a,b)",
         "input:0-10: error: ?name expects 1 arguments, but received 2 arguments\n   ?name(a,b)\n   ^^^^^^^^^^"},
        {"?not(foo)", "input:5-8: error: Expected a pattern\n   ?not(foo)\n        ^^^"},
        {"?name(?installed)", "input:6-16: error: Expected a word\n   ?name(?installed)\n         ^^^^^^^^^^"},
        {"?name(", "input:6-6: error: Expected pattern, quoted word, or word\n   ?name(\n         "},
        {"~n bash", "input:3-7: error: Expected pattern, quoted word, or word\n   ~n bash\n      ^^^^"},
        {"~z", "input:0-2: error: Unknown short pattern\n   ~z\n   ^^"},
        {"?and(?installed",
         "input:5-15: error: Expected closing parenthesis or comma after last argument, received \n"
         "   ?and(?installed\n        ^^^^^^^^^^"},
        {"?installed foo", "input:11-14: error: Expected end of file\n   ?installed foo\n              ^^^"},
        {"~i||~M", "input:3-6: error: Expected pattern after |\n   ~i||~M\n      ^^^"},
        {"(~nbash", "input:7-7: error: Expected closing parenthesis\n   (~nbash\n          "},
        {"()", "input:1-2: error: Expected pattern after '('\n   ()\n    ^"},
        {"!", "input:1-1: error: Expected pattern\n   !\n    "},
        {"fo?", "input:0-3: error: Expected pattern\n   fo?\n   ^^^"},
        // apt's own quirks: an unterminated string ends at 0, a nameless
        // pattern underlines nothing (and apt drops that empty line).
        {"?name(\"ab", "input:6-0: error: Could not find end of string\n   ?name(\"ab\n         "},
        {"?(", "input:0-0: error: Pattern must have a term/name\n   ?("},
        {"?obsoletes(~i)",
         "input:0-14: error: Unrecognized pattern '?obsoletes'\n   ?obsoletes(~i)\n   ^^^^^^^^^^^^^^"},
    });
    EXPECT_EQ(error_of("?name([)").rfind("Regex compilation error - ", 0), 0u);
}

TEST(PatternParse, OnlyGarbageNeedsTheAutoremoveSet) {
    EXPECT_TRUE(PackagePattern::parse("~i !~g").uses_garbage());
    EXPECT_TRUE(PackagePattern::parse("?any-version(?garbage)").uses_garbage());
    EXPECT_FALSE(PackagePattern::parse("~i ~M").uses_garbage());
}

namespace {

struct RealCache : test::SandboxSession {
    std::vector<uint32_t> garbage;

    explicit RealCache(const std::string& root) : SandboxSession(root, "pattern") {
        garbage = system::auto_removable_packages(opened->cache, config);
    }
    std::vector<std::string> names(std::string_view pattern) const {
        request::PatternContext ctx{opened->cache, *candidates, &garbage};
        std::vector<std::string> out;
        for (const auto& m : request::packages_matching(ctx, PackagePattern::parse(pattern)))
            out.emplace_back(opened->cache.str(opened->cache.names()[m.name].name));
        return out;
    }
    const cache::Package& package(std::string_view name) const {
        return *opened->cache.find_package(name, opened->cache.native_architecture());
    }
};

bool has(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

TEST(PatternMatch, PackageAndVersionLevelsOnTheRealCache) {
    std::string root = test::real_sandbox("server");
    if (root.empty()) GTEST_SKIP() << "no real sandbox";
    RealCache rc(root);
    const auto& c = rc.opened->cache;
    request::PatternContext ctx{c, *rc.candidates, &rc.garbage};

    EXPECT_EQ(rc.names("?exact-name(bash)"), std::vector<std::string>{"bash"});
    auto installed_bash = rc.names("~i ~n^bash");
    EXPECT_TRUE(has(installed_bash, "bash"));
    EXPECT_FALSE(has(installed_bash, "bash-doc"));

    // bash: 5.2.15 installed (bookworm, "now"), 5.2.37 the candidate (trixie).
    const cache::Package& bash = rc.package("bash");
    auto versions = c.versions_of(bash);
    ASSERT_GE(versions.size(), 2u);
    const cache::Version& newest = versions[0];
    const cache::Version* installed = c.current_version(bash);
    ASSERT_NE(installed, nullptr);
    ASSERT_NE(installed, &newest);
    // What each pattern says of bash's package, or of one of its versions
    // (bash itself where `version` is null).
    struct Match {
        const char* pattern;
        const cache::Version* version;
        bool matches;
    };
    const Match cases[] = {
        // At the package level a version pattern asks "any version".
        {"?archive(^now$) ?version(^5\\.2\\.37)", nullptr, true},
        // ?any-version binds both to one version: none is both.
        {"?any-version(?archive(^now$) ?version(^5\\.2\\.37))", nullptr, false},
        {"?narrow(?archive(^now$),?version(^5\\.2\\.15))", nullptr, true},
        // A narrowed ?installed is the installed version only.
        {"~i", nullptr, true},
        {"~i", &newest, false},
        {"~i", installed, true},
        {"~U", &newest, true},  // a package pattern asked of a version asks its package
        {"?any-version(~i)", &newest, false},
        {"?any-version(~i)", installed, true},
        {"?all-versions(~i)", nullptr, false},
        {"~U ~E ~prequired ~sshells ~ebash", nullptr, true},
        {"~pREQUIRED", nullptr, false},  // priority names are exact
        {"~ramd64 !~rall ~rany !~ri386", nullptr, true},
        {"~D?exact-name(base-files)", nullptr, true},
        {"?pre-depends(?exact-name(libc6))", nullptr, true},
        {"?predepends(?exact-name(libc6))", nullptr, true},  // apt 2.6's spelling
        {"~DPre-Depends:?exact-name(libc6)", nullptr, true},
        {"?depends(?exact-name(libc6))", nullptr, false},  // a Pre-Depends, not a Depends
        {"~v | ~c | ~o | ~b | ~F", nullptr, false},
    };
    for (const Match& m : cases) {
        PackagePattern pattern = PackagePattern::parse(m.pattern);
        bool got = m.version ? pattern.matches(ctx, *m.version) : pattern.matches(ctx, bash);
        EXPECT_EQ(got, m.matches) << m.pattern
                                  << (m.version == &newest ? " (newest version)"
                                      : m.version          ? " (installed version)"
                                                           : "");
    }

    // Virtual names (no package record) are selected as apt's virtual packages.
    auto virtuals = rc.names("~v ~n^hello");
    EXPECT_TRUE(has(virtuals, "hello-debhelper"));
    EXPECT_FALSE(has(virtuals, "hello"));
}
