#include <gtest/gtest.h>

#include "aptus/config/config.hpp"
#include "aptus/config/dump.hpp"
#include "aptus/config/values.hpp"

namespace {

using aptus::config::Config;

TEST(ConfigTree, SetFindExistsClear) {
    Config c;
    EXPECT_FALSE(c.exists("A"));
    c.set("A::B", "1");
    EXPECT_TRUE(c.exists("A"));
    EXPECT_TRUE(c.exists("a::b"));
    EXPECT_EQ(c.find("A::B"), "1");
    EXPECT_EQ(c.find("A::missing", "dflt"), "dflt");
    c.set_default("A::B", "2");
    EXPECT_EQ(c.find("A::B"), "1");
    c.set_default("A::C", "3");
    EXPECT_EQ(c.find("A::C"), "3");
    c.clear("A");
    EXPECT_TRUE(c.exists("A"));
    EXPECT_FALSE(c.exists("A::B"));
}

TEST(ConfigTree, ListsAndAppend) {
    Config c;
    c.set("L::", "x");
    c.set("L::", "y");
    EXPECT_EQ(c.find_list("L"), (std::vector<std::string>{"x", "y"}));
    c.set("Commas", "a,b,c");
    EXPECT_EQ(c.find_list("Commas"), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_TRUE(c.find_list("Missing").empty());
}

TEST(ConfigTree, TypedFinds) {
    Config c;
    c.set("B1", "yes");
    c.set("B2", "Off");
    c.set("B3", "maybe");
    c.set("I1", "0x10");
    c.set("I2", " 12 ");
    c.set("I3", "true");
    EXPECT_TRUE(c.find_bool("B1"));
    EXPECT_FALSE(c.find_bool("B2", true));
    EXPECT_TRUE(c.find_bool("B3", true));
    EXPECT_FALSE(c.find_bool("B3", false));
    EXPECT_TRUE(c.find_bool("missing", true));
    EXPECT_EQ(c.find_int("I1"), 16);
    EXPECT_EQ(c.find_int("I2"), 12);
    EXPECT_EQ(c.find_int("I3"), 1);
    EXPECT_EQ(c.find_int("B3", 7), 7);
}

TEST(ConfigValues, BoolSpellings) {
    using aptus::config::parse_bool;
    for (const char* t : {"yes", "TRUE", "with", "on", "Enable", "1", "42"}) EXPECT_EQ(parse_bool(t), true) << t;
    for (const char* f : {"no", "False", "without", "OFF", "disable", "0"}) EXPECT_EQ(parse_bool(f), false) << f;
    EXPECT_FALSE(parse_bool("maybe").has_value());
    EXPECT_FALSE(parse_bool("").has_value());
}

TEST(ConfigValues, Ints) {
    using aptus::config::parse_int;
    EXPECT_EQ(parse_int("10"), 10);
    EXPECT_EQ(parse_int("-3"), -3);
    EXPECT_EQ(parse_int("010"), 8);
    EXPECT_EQ(parse_int("7abc"), 7);
    EXPECT_EQ(parse_int("no"), 0);
    EXPECT_FALSE(parse_int("abc").has_value());
}

TEST(ConfigDump, FormatsAndEmpty) {
    Config c;
    c.set("A::B", "x y");
    c.set("A::C", "");
    EXPECT_EQ(aptus::config::dump(c, "%f=%v%n", false), "A::B=x y\n");
    EXPECT_EQ(aptus::config::dump(c, "[%t|%T|%V|%N|%%|%x]%n", true),
              "[A|A||\t|%|%x]\n[B|B|x%20y|\t|%|%x]\n[C|C||\t|%|%x]\n");
    EXPECT_EQ(aptus::config::quote_value("a\"b%c=d\xc3\xa4~"), "a%22b%25c%3dd%c3%a4~");
}

}  // namespace

// apt-config dump KEY: the node and what is below it, names without case;
// a sibling whose name only starts the same (APT::Architectures for
// APT::Architecture) is not below it.
TEST(ConfigDump, Subtree) {
    aptus::config::Config c;
    c.set("APT::Architecture", "amd64");
    c.set("APT::Architectures::", "amd64");
    c.set("APT::Architectures::", "i386");
    c.set("APT::Other", "x");
    EXPECT_EQ(aptus::config::dump(c, "%v%n", false, "apt::architecture"), "amd64\n");
    EXPECT_EQ(aptus::config::dump(c, "%f=%v%n", true, "APT::Architectures"),
              "APT::Architectures=\nAPT::Architectures::=amd64\nAPT::Architectures::=i386\n");
    EXPECT_EQ(aptus::config::dump(c, "%v%n", false, "APT::Architectures"), "amd64\ni386\n");
    EXPECT_EQ(aptus::config::dump(c, "%v%n", false, "Nothing"), "");
}
