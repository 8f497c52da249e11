// The CLI's option parser is plain code over the library; it is compiled in
// here directly because the aptus program is not a library.
#include "cli/options.cpp"

#include <gtest/gtest.h>

namespace {

using aptus::cli::parse_args;
using aptus::config::CommandLineItem;
using Kind = CommandLineItem::Kind;

constexpr aptus::cli::OptionSpec extra[] = {
    {0, "empty", "APT::Config::Dump::EmptyValue", aptus::cli::ArgKind::Flag},
    {0, "format", "APT::Config::Dump::Format", aptus::cli::ArgKind::Value},
};

std::vector<aptus::cli::OptionSpec> table() {
    auto g = aptus::cli::general_options();
    std::vector<aptus::cli::OptionSpec> all(g.begin(), g.end());
    all.insert(all.end(), std::begin(extra), std::end(extra));
    return all;
}

aptus::cli::ParsedArgs parse(std::vector<std::string> args) { return parse_args(args, table()); }

std::string error_of(std::vector<std::string> args) {
    try {
        parse(args);
    } catch (const aptus::Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(ConfigOptions, ConfigItemsInEveryForm) {
    auto p = parse({"-o", "A=1", "-oB=2", "config", "--option", "C=3", "--option=D::=4", "-o=E=", "dump"});
    EXPECT_EQ(p.words, (std::vector<std::string>{"config", "dump"}));
    ASSERT_EQ(p.items.size(), 5u);
    EXPECT_EQ(p.items[0].key, "A");
    EXPECT_EQ(p.items[0].value, "1");
    EXPECT_EQ(p.items[1].key, "B");
    EXPECT_EQ(p.items[2].key, "C");
    EXPECT_EQ(p.items[3].key, "D::");
    EXPECT_EQ(p.items[3].value, "4");
    EXPECT_EQ(p.items[4].key, "E");
    EXPECT_EQ(p.items[4].value, "");
}

TEST(ConfigOptions, ConfigFiles) {
    auto p = parse({"-c", "/a", "-c=/b", "-c/c", "--config-file", "/d", "--config-file=/e"});
    ASSERT_EQ(p.items.size(), 5u);
    for (const auto& i : p.items) EXPECT_EQ(i.kind, Kind::File);
    EXPECT_EQ(p.items[0].value, "/a");
    EXPECT_EQ(p.items[1].value, "/b");
    EXPECT_EQ(p.items[2].value, "/c");
    EXPECT_EQ(p.items[3].value, "/d");
    EXPECT_EQ(p.items[4].value, "/e");
}

TEST(ConfigOptions, QuietLevels) {
    auto p = parse({"-q", "-qq", "-q=5", "--quiet", "3", "--quiet=2"});
    std::vector<std::pair<Kind, std::string>> got;
    for (const auto& i : p.items) got.emplace_back(i.kind, i.value);
    EXPECT_EQ(got, (std::vector<std::pair<Kind, std::string>>{{Kind::Increment, ""},
                                                                {Kind::Increment, ""},
                                                                {Kind::Increment, ""},
                                                                {Kind::Set, "5"},
                                                                {Kind::Set, "3"},
                                                                {Kind::Set, "2"}}));
    EXPECT_TRUE(p.words.empty());
}

TEST(ConfigOptions, FlagsAndValues) {
    auto p = parse({"-y", "-s", "--no-empty", "--empty=yes", "--format", "%f", "--format=%v", "-h", "-v"});
    ASSERT_EQ(p.items.size(), 6u);
    EXPECT_EQ(p.items[0].key, "APT::Get::Assume-Yes");
    EXPECT_EQ(p.items[0].value, "1");
    EXPECT_EQ(p.items[1].key, "APT::Get::Simulate");
    EXPECT_EQ(p.items[2].value, "0");
    EXPECT_EQ(p.items[3].value, "1");
    EXPECT_EQ(p.items[4].value, "%f");
    EXPECT_EQ(p.items[5].value, "%v");
    EXPECT_TRUE(p.help);
    EXPECT_TRUE(p.version);
}

TEST(ConfigOptions, DoubleDashEndsOptions) {
    auto p = parse({"config", "--", "shell", "-o"});
    EXPECT_EQ(p.words, (std::vector<std::string>{"config", "shell", "-o"}));
}

TEST(ConfigOptions, ScanWordsSkipsOptionArguments) {
    std::vector<std::string> args{"-o", "A=1", "--quiet", "2", "-c", "f", "--format", "x", "config", "dump"};
    EXPECT_EQ(aptus::cli::scan_words(args, table()), (std::vector<std::string>{"config", "dump"}));
}

TEST(ConfigOptions, Errors) {
    EXPECT_EQ(error_of({"-o", "Foo"}), "Option Foo: Configuration item specification must have an =<val>.");
    EXPECT_EQ(error_of({"-o"}), "Option -o requires an argument.");
    EXPECT_EQ(error_of({"--option"}), "Option --option requires an argument.");
    EXPECT_EQ(error_of({"-x"}),
              "Command line option 'x' [from -x] is not understood in combination with the other options.");
    EXPECT_EQ(error_of({"-qx"}),
              "Command line option 'x' [from -qx] is not understood in combination with the other options.");
    EXPECT_EQ(error_of({"--foo"}), "Command line option --foo is not understood in combination with the other options");
    EXPECT_EQ(error_of({"--empty=maybe"}), "Sense maybe is not understood, try true or false.");
}

}  // namespace
