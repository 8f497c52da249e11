#include "aptus/deb/version.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aptus/base/error.hpp"

namespace {

using aptus::deb::compare_versions;
using aptus::deb::parse_version;
using aptus::deb::Version;
using aptus::deb::VersionCheck;
using aptus::deb::version_warning;

int sign(int x) { return (x > 0) - (x < 0); }

struct Case {
    std::string a;
    std::string b;
    // Sign of compare(a, b). Every row was checked with dpkg --compare-versions,
    // except those dpkg will not take (empty, not starting with a digit, an
    // epoch too big), which were checked with python3-apt's version_compare.
    int expected;
};

std::vector<Case> cases() {
    std::string long_run(150, '7');
    return {
        // Policy's examples and the usual suspects.
        {"1.0~rc1", "1.0", -1},
        {"1.0", "1.0+b1", -1},
        {"1.0~~", "1.0~~a", -1},
        {"1.0~~a", "1.0~", -1},
        {"1.0~", "1.0", -1},
        {"1.0", "1.0a", -1},
        {"~~", "~~a", -1},
        {"~", "", -1},
        {"", "a", -1},
        {"1.0~rc1-1", "1.0-1", -1},
        {"1.0-1~bpo12+1", "1.0-1", -1},
        {"1.0-1+deb12u1", "1.0-1", 1},
        // Letters sort before every other non-digit; case matters.
        {"1.0a", "1.0+", -1},
        {"1.0a", "1.0.", -1},
        {"1.0A", "1.0a", -1},
        {"1.0+", "1.0.", -1},
        {"1.0z", "1.0~", 1},
        {"1a", "1", 1},
        // Digit runs are numbers.
        {"1.2.3", "1.2.10", -1},
        {"2.0", "10.0", -1},
        {"1.01", "1.1", 0},
        {"1.001", "1.1", 0},
        {"1.010", "1.9", 1},
        {"0001", "1", 0},
        {"1.00", "1.0", 0},
        {"1.0", "1.0.0", -1},
        {"1.0", "1.0.1", -1},
        {"1.0", "1.0.", -1},
        // Epochs beat everything; a zero or empty-looking epoch is no epoch.
        {"1:0.1", "9.9", 1},
        {"1:1.0", "2:0.1", -1},
        {"10:1", "9:99", 1},
        {"0:1.0", "1.0", 0},
        {"00:1.0-1", "1.0-1", 0},
        {"1:1.0~rc1", "0:99", 1},
        // Revisions: absent equals "0", compared only after upstream.
        {"1.0-1", "1.0", 1},
        {"1.0-0", "1.0", 0},
        {"1.0-1", "1.0-1.1", -1},
        {"1.0-2", "1.0-10", -1},
        {"1.1-1", "1.0-99", 1},
        // The last '-' starts the revision; earlier ones belong to upstream.
        {"1.0-2-1", "1.0-10", 1},
        {"1.0-2-1", "1.0-2-2", -1},
        {"1-2-3", "1-2.5-1", -1},
        // Shared prefixes that end inside a digit run or at a '-' of one side's
        // upstream part (the comparison skips common prefixes).
        {"1.0-1", "1.0-1-2", -1},
        {"1-1-1", "1-1", 1},
        {"1.0~rc1-1", "1.0~rc1-1-1", -1},
        {"10.1", "100.1", -1},
        {"1.0007", "1.07", 0},
        {"1.0007", "1.08", -1},
        {"1.2-3", "1.2-20~", -1},
        {"1.2-3", "1.2-3.0.1", -1},
        {"2:1.0-1", "2:1.0-1.1", -1},
        {"1.0+dfsg-1", "1.0-1", 1},
        {"1.0.dfsg-1", "1.0+dfsg-1", 1},
        // With an epoch, colons may appear in upstream.
        {"1:2:3-1", "1:2.3-1", 1},  // ':' sorts after '.'
        {"1:2:3", "1:2:3", 0},
        {"1:2:3-1", "1:2:3-1", 0},
        // Digit runs longer than any integer type.
        {"1." + long_run, "1." + long_run, 0},
        {"1." + long_run, "1." + long_run.substr(1), 1},
        {"1." + long_run + "6", "1." + long_run + "8", -1},
        {"1." + std::string(200, '0') + "1", "1.1", 0},
        {"1." + std::string(120, '9'), "1.1" + std::string(120, '0'), -1},
        {long_run + ":1", "1:" + long_run, 1},
    };
}

TEST(VersionCompare, PolicyCases) {
    for (const Case& c : cases()) {
        EXPECT_EQ(sign(compare_versions(c.a, c.b)), c.expected) << "'" << c.a << "' vs '" << c.b << "'";
        EXPECT_EQ(sign(compare_versions(c.b, c.a)), -c.expected) << "'" << c.b << "' vs '" << c.a << "'";
        EXPECT_EQ(compare_versions(c.a, c.a), 0) << c.a;
    }
}

TEST(VersionCompare, ReturnsMinusOneZeroOne) {
    EXPECT_EQ(compare_versions("1.0", "1.9"), -1);
    EXPECT_EQ(compare_versions("1.z", "1.a"), 1);
    EXPECT_EQ(compare_versions("1.1", "1.01"), 0);
}

TEST(VersionCompare, ParsedFormAgreesWithText) {
    int compared = 0;
    for (const Case& c : cases()) {
        Version a, b;
        try {
            a = parse_version(c.a, VersionCheck::Errors);
            b = parse_version(c.b, VersionCheck::Errors);
        } catch (const aptus::Error&) {
            continue;  // rows that only the text form can take: "", a huge epoch
        }
        EXPECT_EQ(sign(compare_versions(a, b)), c.expected) << "'" << c.a << "' vs '" << c.b << "'";
        ++compared;
    }
    EXPECT_GT(compared, 40);
}

TEST(VersionCompare, NonAsciiBytesSortBetweenLettersAndPunctuation) {
    // dpkg on amd64 (plain char is signed); checked with dpkg --compare-versions.
    EXPECT_GT(compare_versions("1\xc3", "1z"), 0);
    EXPECT_LT(compare_versions("1\xc3", "1."), 0);
    EXPECT_GT(compare_versions("1\xc3", "1~"), 0);
}

TEST(VersionParse, SplitsParts) {
    Version v = parse_version("2:1.0-rc-3+b1");
    EXPECT_EQ(v.epoch, 2u);
    EXPECT_EQ(v.upstream, "1.0-rc");
    EXPECT_EQ(v.revision, "3+b1");

    v = parse_version("1.0");
    EXPECT_EQ(v.epoch, 0u);
    EXPECT_EQ(v.upstream, "1.0");
    EXPECT_EQ(v.revision, "");

    v = parse_version("1:2:3");
    EXPECT_EQ(v.epoch, 1u);
    EXPECT_EQ(v.upstream, "2:3");

    v = parse_version("2147483647:1");
    EXPECT_EQ(v.epoch, 2147483647u);
    v = parse_version("000000000000000000007:1");
    EXPECT_EQ(v.epoch, 7u);
}

TEST(VersionParse, IgnoresSurroundingWhitespaceLikeDpkg) {
    Version v = parse_version("  1.0-1\t");
    EXPECT_EQ(v.upstream, "1.0");
    EXPECT_EQ(v.revision, "1");
}

std::string error_of(std::string_view text, VersionCheck check = VersionCheck::Strict) {
    try {
        parse_version(text, check);
    } catch (const aptus::Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(VersionParse, RejectsWhatDpkgRejects) {
    const std::pair<std::string, std::string> bad[] = {
        {"", "invalid version '': it is empty"},
        {"   ", "invalid version '   ': it is empty"},
        {"1.0 1", "invalid version '1.0 1': it contains whitespace"},
        {":1.0", "invalid version ':1.0': the epoch before ':' is empty"},
        {"x:1.0", "invalid version 'x:1.0': the epoch 'x' is not a number"},
        {"-1:1.0", "invalid version '-1:1.0': the epoch '-1' is not a number"},
        {"1.0-1:2", "invalid version '1.0-1:2': the epoch '1.0-1' is not a number"},
        {"2147483648:1", "invalid version '2147483648:1': the epoch '2147483648' is too big (the largest is 2147483647)"},
        {"99999999999999999999999:1",
         "invalid version '99999999999999999999999:1': the epoch '99999999999999999999999' is too big (the largest "
         "is 2147483647)"},
        {"1:", "invalid version '1:': nothing follows the epoch's ':'"},
        {"1.0-", "invalid version '1.0-': the revision after the last '-' is empty"},
        {"1.0-1-", "invalid version '1.0-1-': the revision after the last '-' is empty"},
        {"-1", "invalid version '-1': the upstream version is empty"},
        {"1:-1", "invalid version '1:-1': the upstream version is empty"},
    };
    for (const auto& [text, message] : bad) {
        EXPECT_EQ(error_of(text, VersionCheck::Errors), message);
        EXPECT_EQ(error_of(text, VersionCheck::Strict), message);
        EXPECT_EQ(version_warning(text), "") << text;
    }
}

TEST(VersionParse, StrictRejectsWhatDpkgWarnsAbout) {
    const std::pair<std::string, std::string> doubtful[] = {
        {"a1.0", "the upstream version 'a1.0' does not start with a digit"},
        {"1:~1", "the upstream version '~1' does not start with a digit"},
        {"1_0", "'_' is not allowed in the upstream version"},
        {"1.0-a_b", "'_' is not allowed in the revision"},
        {"1:1.0-1:2", "':' is not allowed in the revision"},
        {"1.0\xc3\xa9", "byte 0xc3 is not allowed in the upstream version"},
    };
    for (const auto& [text, what] : doubtful) {
        EXPECT_EQ(error_of(text), "invalid version '" + text + "': " + what);
        EXPECT_EQ(error_of(text, VersionCheck::Errors), "(no error)") << text;
        EXPECT_EQ(version_warning(text), "version '" + text + "' breaks Debian Policy: " + what);
    }
    // Control bytes are escaped, so a message never hides its own end.
    EXPECT_EQ(error_of(std::string("1.0\0", 4)),
              "invalid version '1.0\\x00': byte 0x00 is not allowed in the upstream version");
    EXPECT_EQ(error_of("1.0\x1b[m"), "invalid version '1.0\\x1b[m': byte 0x1b is not allowed in the upstream version");
    EXPECT_EQ(parse_version("a1.0-x", VersionCheck::Errors).upstream, "a1.0");
}

TEST(VersionParse, AcceptsPolicyCharacters) {
    for (const char* ok : {"1.0+dfsg~rc1-1+deb12u1~bpo11+1", "1:2.3-4-5", "1:2:3", "0:0", "9.9.9a+B~c"}) {
        EXPECT_NO_THROW(parse_version(ok)) << ok;
        EXPECT_EQ(version_warning(ok), "") << ok;
    }
}

}  // namespace
