// apt's command-line grammar for counters and short options.
#include "cli/options.hpp"

#include <gtest/gtest.h>

#include "aptus/base/error.hpp"

namespace aptus::cli {
namespace {

std::vector<config::CommandLineItem> items_of(std::vector<std::string> args) {
    return parse_args(args, general_options()).items;
}

TEST(Options, QuietForms) {
    using K = config::CommandLineItem::Kind;
    auto one = [](std::vector<std::string> args) {
        auto items = items_of(std::move(args));
        EXPECT_EQ(items.size(), 1u);
        return items.empty() ? config::CommandLineItem{} : items[0];
    };
    // "-q0" and "-q2" set the level, as "-q=0" and "--quiet 2" do (apt-cache -q0 is quiet 0).
    for (auto args : std::vector<std::vector<std::string>>{{"-q0"}, {"-q=0"}, {"--quiet", "0"}, {"--quiet=0"}}) {
        auto item = one(args);
        EXPECT_EQ(item.kind, K::Set) << args[0];
        EXPECT_EQ(item.value, "0") << args[0];
    }
    EXPECT_EQ(one({"-q2"}).value, "2");
    EXPECT_EQ(one({"-q"}).kind, K::Increment);
    auto qq = items_of({"-qq"});
    ASSERT_EQ(qq.size(), 2u);
    EXPECT_EQ(qq[0].kind, K::Increment);
    EXPECT_EQ(qq[1].kind, K::Increment);
    // A word that is not all digits after -q is still an error, as in apt.
    EXPECT_THROW(items_of({"-qx"}), Error);
}

TEST(Options, RootIsDirStatusAndDpkgRoot) {
    for (auto args : std::vector<std::vector<std::string>>{{"--root", "/srv/r"}, {"--root=/srv/r/"}, {"--root=/srv/r//"}}) {
        ParsedArgs parsed = parse_args(args, general_options());
        ASSERT_EQ(parsed.items.size(), 3u) << args[0];
        EXPECT_EQ(parsed.root, "/srv/r/");
        EXPECT_EQ(parsed.items[0].key, "Dir");
        EXPECT_EQ(parsed.items[0].value, "/srv/r/");
        EXPECT_EQ(parsed.items[1].key, "Dir::State::status");
        EXPECT_EQ(parsed.items[1].value, "/srv/r/var/lib/dpkg/status");
        EXPECT_EQ(parsed.items[2].key, "DPkg::Options::");
        EXPECT_EQ(parsed.items[2].value, "--root=/srv/r");
    }
    EXPECT_THROW(parse_args(std::vector<std::string>{"--root"}, general_options()), Error);
    EXPECT_THROW(parse_args(std::vector<std::string>{"--root="}, general_options()), Error);
    // The option's argument is not a command word.
    EXPECT_EQ(scan_words(std::vector<std::string>{"--root", "/srv/r", "update"}, general_options()),
              std::vector<std::string>{"update"});
}

}  // namespace
}  // namespace aptus::cli
