// apt's search patterns: the grammar (every long and short form, implicit
// and/or/not, groups, quoting, precedence), apt's error messages with their
// spans, and matching on the real server sandbox's cache (bookworm
// installed, trixie the candidate).
#include "cli/package_pattern.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "aptus/config/init.hpp"
#include "aptus/system/installed_system.hpp"
#include "aptus/system/system.hpp"
#include "unit/cli/sandbox_session.hpp"
#include "support/test_support.hpp"

using namespace aptus;
using cli::PackagePattern;

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

}  // namespace

TEST(PatternWord, OnlyQuestionMarkOrTildeFirst) {
    EXPECT_TRUE(cli::is_pattern_word("?installed"));
    EXPECT_TRUE(cli::is_pattern_word("~i"));
    EXPECT_FALSE(cli::is_pattern_word("lib?oo"));
    EXPECT_FALSE(cli::is_pattern_word("!~i"));
    EXPECT_FALSE(cli::is_pattern_word(""));
}

TEST(PatternParse, EveryLongFormWithoutArguments) {
    for (const char* t : {"?installed", "?upgradable", "?automatic", "?essential", "?obsolete", "?garbage", "?broken",
                          "?config-files", "?virtual", "?true", "?false"})
        EXPECT_EQ(tree(t), t);
}

TEST(PatternParse, EveryShortForm) {
    EXPECT_EQ(tree("~i"), "?installed");
    EXPECT_EQ(tree("~U"), "?upgradable");
    EXPECT_EQ(tree("~M"), "?automatic");
    EXPECT_EQ(tree("~E"), "?essential");
    EXPECT_EQ(tree("~o"), "?obsolete");
    EXPECT_EQ(tree("~g"), "?garbage");
    EXPECT_EQ(tree("~b"), "?broken");
    EXPECT_EQ(tree("~c"), "?config-files");
    EXPECT_EQ(tree("~v"), "?virtual");
    EXPECT_EQ(tree("~T"), "?true");
    EXPECT_EQ(tree("~F"), "?false");
    EXPECT_EQ(tree("~nfoo"), "?name(foo)");
    EXPECT_EQ(tree("~slibs"), "?section(libs)");
    EXPECT_EQ(tree("~prequired"), "?priority(required)");
    EXPECT_EQ(tree("~ebash"), "?source-package(bash)");
    EXPECT_EQ(tree("~V2.0"), "?version(2.0)");
    EXPECT_EQ(tree("~ODebian"), "?origin(Debian)");
    EXPECT_EQ(tree("~Astable"), "?archive(stable)");
    EXPECT_EQ(tree("~ramd64"), "?architecture(amd64)");
    EXPECT_EQ(tree("~D~nlibc6"), "?depends(?name(libc6))");
    EXPECT_EQ(tree("~DRecommends:~nfoo"), "?recommends(?name(foo))");
    EXPECT_EQ(tree("~RDepends:~nbash"), "?reverse-depends(?name(bash))");
    EXPECT_EQ(tree("~RBreaks:~i"), "?reverse-breaks(?installed)");
}

TEST(PatternParse, LongFormsWithArguments) {
    EXPECT_EQ(tree("?name(^foo$)"), "?name(^foo$)");
    EXPECT_EQ(tree("?exact-name(foo)"), "?exact-name(foo)");
    EXPECT_EQ(tree("?section(libs)"), "?section(libs)");
    EXPECT_EQ(tree("?source-version(1\\.2)"), "?source-version(1\\.2)");
    EXPECT_EQ(tree("?codename(trixie)"), "?codename(trixie)");
    EXPECT_EQ(tree("?x-name-fnmatch(lib*)"), "?x-name-fnmatch(lib*)");
    EXPECT_EQ(tree("?any-version(?archive(now))"), "?any-version(?archive(now))");
    EXPECT_EQ(tree("?all-versions(~i)"), "?all-versions(?installed)");
    EXPECT_EQ(tree("?narrow(~V1,~Astable)"), "?any-version(?and(?version(1),?archive(stable)))");
    EXPECT_EQ(tree("?not(~i)"), "?not(?installed)");
    EXPECT_EQ(tree("?and(~i, ~M)"), "?and(?installed,?automatic)");
    EXPECT_EQ(tree("?or(~i,~M,)"), "?or(?installed,?automatic)");  // a trailing comma is allowed
    EXPECT_EQ(tree("?and()"), "?and()");
    EXPECT_EQ(tree("?name (foo)"), "?name(foo)");  // space before the list
    EXPECT_EQ(tree("  ?installed  "), "?installed");
    // apt's quirk: a short form ends before the spaces after it.
    EXPECT_EQ(error_of("  ~i  ").rfind("input:4-6: error: Expected end of file", 0), 0u);
}

TEST(PatternParse, WordsAndQuotes) {
    // A long form's word runs to one of "|,()": spaces and '!' are in it.
    EXPECT_EQ(tree("?name(a b!c)"), "?name(a b!c)");
    // After a short form a word also stops at space and "!?~".
    EXPECT_EQ(tree("~nfoo~i"), "?and(?name(foo),?installed)");
    EXPECT_EQ(tree("~nfoo!~i"), "?and(?name(foo),?not(?installed))");
    // Quotes keep the separators.
    EXPECT_EQ(tree("?name(\"a,b)\")"), "?name(a,b))");
    EXPECT_EQ(tree("~n\"x y\""), "?name(x y)");
}

TEST(PatternParse, PrecedenceNotThenAndThenOr) {
    EXPECT_EQ(tree("~i ~M | ~c"), "?or(?and(?installed,?automatic),?config-files)");
    EXPECT_EQ(tree("~c | ~i ~M"), "?or(?config-files,?and(?installed,?automatic))");
    EXPECT_EQ(tree("!~i ~M"), "?and(?not(?installed),?automatic)");
    EXPECT_EQ(tree("!(~i ~M)"), "?not(?and(?installed,?automatic))");
    EXPECT_EQ(tree("(~ramd64|~ri386)~nfoo"), "?and(?or(?architecture(amd64),?architecture(i386)),?name(foo))");
    EXPECT_EQ(tree("~i|~M|~c"), "?or(?installed,?automatic,?config-files)");
    EXPECT_EQ(tree("~i !~M (~slibs|~sperl|~spython)"),
              "?and(?installed,?not(?automatic),?or(?section(libs),?section(perl),?section(python)))");
}

TEST(PatternParse, AptsErrorsWithTheirSpans) {
    EXPECT_EQ(error_of("?foo"), "input:0-4: error: Unrecognized pattern '?foo'\n   ?foo\n   ^^^^");
    EXPECT_EQ(error_of("?name"), "input:0-5: error: ?name expects an argument list\n   ?name\n   ^^^^^");
    EXPECT_EQ(error_of("?installed(x)"),
              "input:0-13: error: ?installed does not expect an argument list\n   ?installed(x)\n   ^^^^^^^^^^^^^");
    EXPECT_EQ(error_of("?name(a,b)"),
              "input:0-10: error: ?name expects 1 arguments, but received 2 arguments\n   ?name(a,b)\n   ^^^^^^^^^^");
    EXPECT_EQ(error_of("?not(foo)"), "input:5-8: error: Expected a pattern\n   ?not(foo)\n        ^^^");
    EXPECT_EQ(error_of("?name(?installed)"),
              "input:6-16: error: Expected a word\n   ?name(?installed)\n         ^^^^^^^^^^");
    EXPECT_EQ(error_of("?name("), "input:6-6: error: Expected pattern, quoted word, or word\n   ?name(\n         ");
    EXPECT_EQ(error_of("~n bash"), "input:3-7: error: Expected pattern, quoted word, or word\n   ~n bash\n      ^^^^");
    EXPECT_EQ(error_of("~z"), "input:0-2: error: Unknown short pattern\n   ~z\n   ^^");
    EXPECT_EQ(error_of("?and(?installed"),
              "input:5-15: error: Expected closing parenthesis or comma after last argument, received \n"
              "   ?and(?installed\n        ^^^^^^^^^^");
    EXPECT_EQ(error_of("?installed foo"), "input:11-14: error: Expected end of file\n   ?installed foo\n              ^^^");
    EXPECT_EQ(error_of("~i||~M"), "input:3-6: error: Expected pattern after |\n   ~i||~M\n      ^^^");
    EXPECT_EQ(error_of("(~nbash"), "input:7-7: error: Expected closing parenthesis\n   (~nbash\n          ");
    EXPECT_EQ(error_of("()"), "input:1-2: error: Expected pattern after '('\n   ()\n    ^");
    EXPECT_EQ(error_of("!"), "input:1-1: error: Expected pattern\n   !\n    ");
    EXPECT_EQ(error_of("fo?"), "input:0-3: error: Expected pattern\n   fo?\n   ^^^");
    // apt's own quirks: an unterminated string ends at 0, a nameless
    // pattern underlines nothing (and apt drops that empty line).
    EXPECT_EQ(error_of("?name(\"ab"), "input:6-0: error: Could not find end of string\n   ?name(\"ab\n         ");
    EXPECT_EQ(error_of("?("), "input:0-0: error: Pattern must have a term/name\n   ?(");
    EXPECT_EQ(error_of("?name([)").rfind("Regex compilation error - ", 0), 0u);
    EXPECT_EQ(error_of("?obsoletes(~i)"), "input:0-14: error: Unrecognized pattern '?obsoletes'\n   ?obsoletes(~i)\n   ^^^^^^^^^^^^^^");
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
        cli::PatternContext ctx{opened->cache, *candidates, &garbage};
        std::vector<std::string> out;
        for (const auto& m : cli::packages_matching(ctx, PackagePattern::parse(pattern)))
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
    cli::PatternContext ctx{c, *rc.candidates, &rc.garbage};

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
    auto p = [](std::string_view t) { return PackagePattern::parse(t); };
    // At the package level a version pattern asks "any version".
    EXPECT_TRUE(p("?archive(^now$) ?version(^5\\.2\\.37)").matches(ctx, bash));
    // ?any-version binds both to one version: none is both.
    EXPECT_FALSE(p("?any-version(?archive(^now$) ?version(^5\\.2\\.37))").matches(ctx, bash));
    EXPECT_TRUE(p("?narrow(?archive(^now$),?version(^5\\.2\\.15))").matches(ctx, bash));
    // A narrowed ?installed is the installed version only.
    EXPECT_TRUE(p("~i").matches(ctx, bash));
    EXPECT_FALSE(p("~i").matches(ctx, newest));
    EXPECT_TRUE(p("~i").matches(ctx, *installed));
    EXPECT_TRUE(p("~U").matches(ctx, newest));  // a package pattern asked of a version asks its package
    EXPECT_FALSE(p("?any-version(~i)").matches(ctx, newest));
    EXPECT_TRUE(p("?any-version(~i)").matches(ctx, *installed));
    EXPECT_FALSE(p("?all-versions(~i)").matches(ctx, bash));
    EXPECT_TRUE(p("~U ~E ~prequired ~sshells ~ebash").matches(ctx, bash));
    EXPECT_FALSE(p("~pREQUIRED").matches(ctx, bash));  // priority names are exact
    EXPECT_TRUE(p("~ramd64 !~rall ~rany !~ri386").matches(ctx, bash));
    EXPECT_TRUE(p("~D?exact-name(base-files)").matches(ctx, bash));
    EXPECT_TRUE(p("?pre-depends(?exact-name(libc6))").matches(ctx, bash));
    EXPECT_TRUE(p("?predepends(?exact-name(libc6))").matches(ctx, bash));  // apt 2.6's spelling
    EXPECT_TRUE(p("~DPre-Depends:?exact-name(libc6)").matches(ctx, bash));
    EXPECT_FALSE(p("?depends(?exact-name(libc6))").matches(ctx, bash));  // a Pre-Depends, not a Depends
    EXPECT_FALSE(p("~v | ~c | ~o | ~b | ~F").matches(ctx, bash));

    // Virtual names (no package record) are selected as apt's virtual packages.
    auto virtuals = rc.names("~v ~n^hello");
    EXPECT_TRUE(has(virtuals, "hello-debhelper"));
    EXPECT_FALSE(has(virtuals, "hello"));
}
