#include <gtest/gtest.h>

#include "support/test_support.hpp"
#include "aptus/config/config.hpp"
#include "aptus/config/init.hpp"

namespace {

using aptus::config::Config;

Config defaults() {
    Config c;
    aptus::config::set_builtin_defaults(c);
    return c;
}

TEST(ConfigDirs, RelativeValuesNestUnderParents) {
    Config c = defaults();
    EXPECT_EQ(c.find_dir("Dir::State::lists"), "/var/lib/apt/lists/");
    EXPECT_EQ(c.find_file("Dir::Etc::main"), "/etc/apt/apt.conf");
    EXPECT_EQ(c.find_dir("Dir::Etc::parts"), "/etc/apt/apt.conf.d/");
    EXPECT_EQ(c.find_dir("Dir::Cache::archives"), "/var/cache/apt/archives/");
    EXPECT_EQ(c.find_file("Dir::Log::History"), "/var/log/apt/history.log");
    EXPECT_EQ(c.find_dir("Dir::Bin::methods"), "/usr/lib/apt/methods/");
}

TEST(ConfigDirs, DirRelocatesEverything) {
    Config c = defaults();
    c.set("Dir", "/sandbox");
    c.set("Dir::State", "/st");
    c.set("Dir::Cache", "ca");
    EXPECT_EQ(c.find_dir("Dir::State::lists"), "/st/lists/");
    EXPECT_EQ(c.find_dir("Dir::Cache::archives"), "/sandbox/ca/archives/");
    EXPECT_EQ(c.find_file("Dir::Etc::main"), "/sandbox/etc/apt/apt.conf");
    EXPECT_EQ(c.find_dir("Dir::Log"), "/sandbox/var/log/apt/");
    EXPECT_EQ(c.find_dir("Dir::Bin::methods"), "/usr/lib/apt/methods/");  // absolute stays
}

TEST(ConfigDirs, SpecialPrefixesAndNormalisation) {
    Config c = defaults();
    c.set("Dir", "/s//x/./y/");
    c.set("Dir::Etc", "./e");
    c.set("Dir::State::lists", "~/x");
    c.set("Dir::Cache", "../c");
    c.set("Dir::Etc::parts", "/dev/null/x");
    EXPECT_EQ(c.find_file("Dir::Etc::main"), "./e/apt.conf");
    EXPECT_EQ(c.find_dir("Dir::State::lists"), "~/x/");
    EXPECT_EQ(c.find_dir("Dir::Cache::archives"), "../c/archives/");
    EXPECT_EQ(c.find_dir("Dir::Etc::parts"), "/dev/null");
    EXPECT_EQ(c.find_dir("Dir::Log"), "/s/x/y/var/log/apt/");
}

TEST(ConfigDirs, RootDirPrefixesAbsolutePaths) {
    Config c = defaults();
    c.set("RootDir", "/r");
    EXPECT_EQ(c.find_file("Dir::Etc::main"), "/r/etc/apt/apt.conf");
    EXPECT_EQ(c.find_dir("Dir::Bin::methods"), "/r/usr/lib/apt/methods/");
}

TEST(ConfigDirs, MissingKeysUseFallback) {
    Config c = defaults();
    EXPECT_EQ(c.find_file("Nope", "/dev/null"), "/dev/null");
    EXPECT_EQ(c.find_dir("Nope", "/dev/null"), "/dev/null");
    EXPECT_EQ(c.find_dir("Nope", "/x"), "/x/");
}

TEST(ConfigLoad, DerivedDefaultsFollowDir) {
    Config c = defaults();
    c.set("Dir", "/nonexistent-sandbox/");
    aptus::config::set_derived_defaults(c);
    EXPECT_EQ(c.find("Dir::State::status"), "/nonexistent-sandbox/var/lib/dpkg/status");
    EXPECT_EQ(c.find_list("APT::Architectures"), std::vector<std::string>{aptus::config::native_architecture()});
    EXPECT_EQ(c.find("APT::Compressor::gzip::Extension"), ".gz");
    EXPECT_EQ(c.find("Acquire::CompressionTypes::zst"), "zstd");
}

TEST(ConfigLoad, OrderOfSources) {
    aptus::test::TempDir tmp("config-load");
    const std::string& dir = tmp.path();
    tmp.write("apt-config.conf", "Dir \"" + dir + "/\"; Order:: \"APT_CONFIG\"; quiet \"2\";\n");
    tmp.write("etc/apt/apt.conf.d/10part", "Order:: \"part\";\n");
    tmp.write("etc/apt/apt.conf", "Order:: \"main\";\n");

    aptus::config::LoadRequest req;
    req.apt_config = dir + "/apt-config.conf";
    using Item = aptus::config::CommandLineItem;
    req.items = {{Item::Kind::Set, "Order::", "option"}, {Item::Kind::Increment, "quiet", ""}};
    req.command_line = "aptus config dump";
    aptus::Diagnostics diags;
    Config c = aptus::config::load(req, diags);
    EXPECT_EQ(c.find_list("Order"), (std::vector<std::string>{"APT_CONFIG", "part", "main", "option"}));
    EXPECT_EQ(c.find_int("quiet"), 3);
    EXPECT_EQ(c.find("Binary"), "aptus");
    EXPECT_EQ(c.find("CommandLine::AsString"), "aptus config dump");
    EXPECT_TRUE(diags.empty());
}

}  // namespace
