#include "support/test_support.hpp"
#include "aptus/config/parser.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/config/dump.hpp"

namespace {

using aptus::config::Config;
using aptus::Diagnostics;
using aptus::Level;

Config parse(const std::string& text, Diagnostics* diags = nullptr) {
    Config c;
    Diagnostics local;
    aptus::config::read_config_text(c, text, "test.conf", diags ? *diags : local);
    return c;
}

std::string error_of(const std::string& text) {
    try {
        parse(text);
    } catch (const aptus::Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(ConfigParser, ScopedAndFlatKeys) {
    Config c = parse("A::B \"x\";\nA { C \"y\"; D { E \"z\"; }; };\n");
    EXPECT_EQ(c.find("A::B"), "x");
    EXPECT_EQ(c.find("A::C"), "y");
    EXPECT_EQ(c.find("A::D::E"), "z");
    EXPECT_EQ(aptus::config::dump(c), "A \"\";\nA::B \"x\";\nA::C \"y\";\nA::D \"\";\nA::D::E \"z\";\n");
}

TEST(ConfigParser, Lists) {
    Config c = parse("L:: \"1\"; L:: \"2\";\nM { \"a\"; \"b\"; };\n");
    EXPECT_EQ(c.find_list("L"), (std::vector<std::string>{"1", "2"}));
    EXPECT_EQ(c.find_list("M"), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(aptus::config::dump(c), "L \"\";\nL:: \"1\";\nL:: \"2\";\nM \"\";\nM:: \"a\";\nM:: \"b\";\n");
}

TEST(ConfigParser, CaseInsensitiveKeysKeepFirstSpelling) {
    Config c = parse("Foo::Bar \"1\"; foo::BAR \"2\";");
    EXPECT_EQ(c.find("FOO::bar"), "2");
    EXPECT_EQ(aptus::config::dump(c), "Foo \"\";\nFoo::Bar \"2\";\n");
}

TEST(ConfigParser, Quoting) {
    Config c = parse(
        "N x;\nO \"a b\"  \"c\";\nP \"%41\";\nQ %41%42;\n\"R::S\" \"r\";\nT::\"u\" \"t\";\nV x\"y z\"w;\n"
        "W [a b];\nX \"a//b\" \"/*c*/\";\nY \"#h\";\nZ \"t\tab\";\n");
    EXPECT_EQ(c.find("N"), "x");
    EXPECT_EQ(c.find("O"), "a b c");
    EXPECT_EQ(c.find("P"), "%41");  // no escapes in quoted values
    EXPECT_EQ(c.find("Q"), "AB");   // %XX decoded in unquoted words
    EXPECT_EQ(c.find("R::S"), "r");
    EXPECT_EQ(c.find("T::u"), "t");
    EXPECT_EQ(c.find("V"), "xy zw");
    EXPECT_EQ(c.find("W"), "[a b]");
    EXPECT_EQ(c.find("X"), "a//b /*c*/");
    EXPECT_EQ(c.find("Y"), "#h");
    EXPECT_EQ(c.find("Z"), "t        ab");  // apt reads a tab as eight spaces
}

TEST(ConfigParser, Comments) {
    Config c = parse(
        "// line\n# hash\n  # indented\nA \"1\"; # trailing\nB \"2\"; // trailing\n/* block\n still */ C \"3\";\n"
        "D /* inline */ \"4\";\n");
    EXPECT_EQ(c.find("A"), "1");
    EXPECT_EQ(c.find("B"), "2");
    EXPECT_EQ(c.find("C"), "3");
    EXPECT_EQ(c.find("D"), "4");
    EXPECT_EQ(aptus::config::dump(c), "A \"1\";\nB \"2\";\nC \"3\";\nD \"4\";\n");
}

TEST(ConfigParser, StatementsSpanLines) {
    Config c = parse("A::B\n  \"x\";\nC \"y\"\n;\n");
    EXPECT_EQ(c.find("A::B"), "x");
    EXPECT_EQ(c.find("C"), "y");
}

TEST(ConfigParser, BlockWithValueAndEmptyStatements) {
    Config c = parse("A \"x\" { B \"y\"; };\n;;\nEmpty { };\nD::E { F \"1\"; }\nG \"2\";\n");
    EXPECT_EQ(c.find("A"), "x");
    EXPECT_EQ(c.find("A::B"), "y");
    EXPECT_FALSE(c.exists("Empty"));
    EXPECT_EQ(c.find("D::E::F"), "1");
    EXPECT_EQ(c.find("G"), "2");
}

TEST(ConfigParser, Clear) {
    Config c = parse("A::B \"1\"; A::C \"2\"; Z \"z\";\n#clear A;\nA::D \"3\";\n");
    EXPECT_FALSE(c.exists("A::B"));
    EXPECT_EQ(c.find("A::D"), "3");
    // A keeps its place before Z.
    EXPECT_EQ(aptus::config::dump(c), "A \"\";\nA::D \"3\";\nZ \"z\";\n");
}

TEST(ConfigParser, IncludeFileAndDirectory) {
    aptus::test::TempDir tmp("config-test");
    const std::string& dir = tmp.path();
    tmp.write("inc.conf", "Inc::File \"1\";\n");
    std::string sub = tmp.mkdir("inc.d");
    tmp.write("inc.d/b.conf", "Inc::Dir:: \"b\";\n");
    tmp.write("inc.d/a", "Inc::Dir:: \"a\";\n");
    tmp.write("inc.d/c.disabled", "Inc::Dir:: \"c\";\n");
    tmp.write("inc.d/d.list", "Inc::Dir:: \"d\";\n");
    Diagnostics diags;
    Config c;
    c.set("Dir::Ignore-Files-Silently::", "\\.disabled$");
    aptus::config::read_config_text(c, "#include \"" + dir + "/inc.conf\";\n#include \"" + sub + "/\";\n", "t", diags);
    EXPECT_EQ(c.find("Inc::File"), "1");
    EXPECT_EQ(c.find_list("Inc::Dir"), (std::vector<std::string>{"a", "b"}));
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].level, Level::Notice);
    EXPECT_EQ(diags[0].message,
              "Ignoring file 'd.list' in directory '" + sub + "/' as it has an invalid filename extension");
}

TEST(ConfigParser, IncludeErrorNamesBothFiles) {
    std::string msg = error_of("\n#include \"/nonexistent/aptus.conf\";\n");
    EXPECT_NE(msg.find("test.conf:2: in the file included from here"), std::string::npos) << msg;
    EXPECT_NE(msg.find("/nonexistent/aptus.conf"), std::string::npos) << msg;
}

TEST(ConfigParser, Errors) {
    EXPECT_EQ(error_of("A \"x\" y;\n"), "test.conf:1: Syntax error: extra junk after value");
    EXPECT_EQ(error_of("A \"x\"\nB \"y\";\n"), "test.conf:2: Syntax error: extra junk after value");
    EXPECT_EQ(error_of("A \"x\"\n"), "test.conf:2: Syntax error: extra junk at end of file");
    EXPECT_EQ(error_of("A \"unterminated;\n"), "test.conf:2: Syntax error: extra junk at end of file");
    EXPECT_EQ(error_of("S \"multi\nline\";\n"), "test.conf:3: Syntax error: extra junk at end of file");
    EXPECT_EQ(error_of("\n{ B \"x\"; };\n"), "test.conf:2: Syntax error: block starts with no name");
    EXPECT_EQ(error_of("A { #clear B; };\n"), "test.conf:1: Syntax error: directives can only be done at the top level");
    EXPECT_EQ(error_of("#clear;\n"), "test.conf:1: Syntax error: clear directive requires an option tree as argument");
    EXPECT_EQ(error_of("\"#foo\" \"x\";\n"), "test.conf:1: Syntax error: unsupported directive 'foo'");
    EXPECT_EQ(error_of("[x;\n"), "test.conf:1: Syntax error: malformed tag");
}

TEST(ConfigParser, AcceptedWithWarnings) {
    Diagnostics diags;
    Config c = parse("A { B \"x\";\n", &diags);
    EXPECT_EQ(c.find("A::B"), "x");
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].level, Level::Warning);
    EXPECT_EQ(diags[0].message, "test.conf:2: scope 'A' is not closed with '}'");

    diags.clear();
    c = parse("A \"x\"; };\nB \"y\"; /* open\n", &diags);
    EXPECT_EQ(c.find("B"), "y");
    ASSERT_EQ(diags.size(), 2u);
    EXPECT_EQ(diags[0].message, "test.conf:1: '}' without a matching '{'");
    EXPECT_EQ(diags[1].message, "test.conf:3: unterminated '/*' comment");
}

TEST(ConfigParser, RootListItems) {
    Config c = parse("\"b\";\n");
    EXPECT_EQ(aptus::config::dump(c), " \"b\";\n");
}

}  // namespace
