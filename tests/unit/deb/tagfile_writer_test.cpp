#include "aptus/deb/tagfile_writer.hpp"

#include <gtest/gtest.h>

#include <string>

#include "aptus/base/error.hpp"

using aptus::deb::field_text;
using aptus::deb::Stanza;
using aptus::deb::StanzaEdits;
using aptus::deb::TagFileOptions;
using aptus::deb::TagFileReader;
using aptus::deb::TagFileWriter;

namespace {

// Reads every stanza of `text` and writes it back through `edit_for(index)`.
template <typename EditFor>
std::string rewrite(std::string_view text, EditFor edit_for, TagFileOptions options = {}) {
    TagFileReader reader(text, "t", options);
    TagFileWriter writer;
    Stanza s;
    for (int i = 0; reader.next(s); ++i) writer.write_stanza(s, edit_for(i));
    return writer.take();
}

const char* const kStatus =
    "Package: adduser\n"
    "Status: install ok installed\n"
    "Priority: important\n"
    "Conffiles:\n"
    " /etc/adduser.conf cc34\n"
    " /etc/deluser.conf 11a0\n"
    "Description: add and remove users\n"
    " This package includes.\n"
    " .\n"
    " More.\n"
    "Homepage: https://x\n"
    "\n"
    "Package: apt\n"
    "Status: install ok installed\n"
    "\n";

}  // namespace

TEST(TagFileWriter, FromPairs) {
    TagFileWriter w;
    w.write_stanza({{"Package", "libc6"}, {"Architecture", "amd64"}, {"Auto-Installed", "1"}});
    w.write_stanza({{"Package", "b"}});
    EXPECT_EQ(w.str(), "Package: libc6\nArchitecture: amd64\nAuto-Installed: 1\n\nPackage: b\n\n");
}

TEST(TagFileWriter, MultiLineValues) {
    TagFileWriter w;
    w.write_stanza({{"Description", "short\nline one\n\nline three\n \t"},
                    {"Conffiles", "\n/etc/a 1\n/etc/b 2"},
                    {"Empty", ""}});
    EXPECT_EQ(w.str(),
              "Description: short\n line one\n .\n line three\n .\n"
              "Conffiles:\n /etc/a 1\n /etc/b 2\n"
              "Empty:\n\n");
}

TEST(TagFileWriter, TextRoundTripsThroughReader) {
    std::string text = "first\nsecond\n\n  indented\nlast";
    TagFileWriter w;
    w.write_stanza({{"X", text}, {"Y", "\na\nb"}});
    TagFileReader r(w.str(), "t");
    Stanza s;
    ASSERT_TRUE(r.next(s));
    EXPECT_EQ(field_text(s.value_or_empty("X")), text);
    EXPECT_EQ(field_text(s.value_or_empty("Y")), "\na\nb");
    EXPECT_FALSE(r.next(s));
}

TEST(TagFileWriter, InvalidNameThrows) {
    TagFileWriter w;
    EXPECT_THROW(w.write_stanza({{"Bad Name", "x"}}), aptus::Error);
    EXPECT_THROW(w.write_stanza({{"", "x"}}), aptus::Error);
    EXPECT_THROW(w.write_stanza({{"A:B", "x"}}), aptus::Error);
    try {
        StanzaEdits().set("has space", "x");
        FAIL() << "no error";
    } catch (const aptus::Error& e) {
        EXPECT_NE(std::string(e.what()).find("'has space'"), std::string::npos) << e.what();
    }
}

TEST(TagFileWriter, UnchangedStanzasKeepTheirBytes) {
    EXPECT_EQ(rewrite(kStatus, [](int) { return StanzaEdits(); }), kStatus);
    TagFileReader reader(kStatus, "t");
    TagFileWriter writer;
    Stanza s;
    while (reader.next(s)) writer.write_stanza(s);
    EXPECT_EQ(writer.str(), kStatus);
}

TEST(TagFileWriter, SetReplacesInPlace) {
    std::string out = rewrite(kStatus, [](int i) {
        StanzaEdits e;
        if (i == 0) e.set("status", "deinstall ok config-files");
        return e;
    });
    std::string expected = kStatus;
    expected.replace(expected.find("install ok installed"), 20, "deinstall ok config-files");
    EXPECT_EQ(out, expected);
}

TEST(TagFileWriter, SetMultiLineFieldReplacesAllItsLines) {
    std::string out = rewrite(kStatus, [](int i) {
        StanzaEdits e;
        if (i == 0) e.set("Conffiles", "\n/etc/new 9");
        return e;
    });
    std::string expected = kStatus;
    size_t from = expected.find(" /etc/adduser");
    expected.replace(from, expected.find("Description:") - from, " /etc/new 9\n");
    EXPECT_EQ(out, expected);
}

TEST(TagFileWriter, SetAppendsMissingFieldAndRemoveDrops) {
    std::string out = rewrite(kStatus, [](int i) {
        StanzaEdits e;
        if (i == 0) e.remove("description").remove("Not-There");
        if (i == 1) e.set("Auto-Installed", "1").set("Version", "2.6").remove("Status");
        return e;
    });
    std::string expected = kStatus;
    size_t d = expected.find("Description:");
    expected.erase(d, expected.find("Homepage:") - d);
    expected.replace(expected.find("Package: apt\nStatus: install ok installed\n"), 42,
                     "Package: apt\nAuto-Installed: 1\nVersion: 2.6\n");
    EXPECT_EQ(out, expected);
}

TEST(TagFileWriter, CommentsAndCrLfKeptInRewrite) {
    TagFileOptions opts;
    opts.allow_comments = true;
    std::string text = "Types: deb\r\n# keep me\r\nURIs: http://a\r\nSuites: x\r\n\r\n";
    std::string out = rewrite(text, [](int) { return StanzaEdits().set("Types", "deb deb-src"); }, opts);
    EXPECT_EQ(out, "Types: deb deb-src\n# keep me\r\nURIs: http://a\r\nSuites: x\r\n\n");
}

TEST(TagFileWriter, MissingFinalNewlineIsAdded) {
    EXPECT_EQ(rewrite("A: 1\nB: 2", [](int) { return StanzaEdits(); }), "A: 1\nB: 2\n\n");
    EXPECT_EQ(rewrite("A: 1\nB: 2", [](int) { return StanzaEdits().set("B", "3"); }), "A: 1\nB: 3\n\n");
}

TEST(TagFileWriter, CommentsAndExactlyOneBlankLineBetweenStanzas) {
    TagFileWriter w;
    w.write_comment("Modernized from /etc/apt/sources.list\n\nsecond");
    w.write_stanza({{"Types", "deb"}});
    w.write_stanza({{"Types", "deb-src"}});
    EXPECT_EQ(w.str(), "# Modernized from /etc/apt/sources.list\n#\n# second\nTypes: deb\n\nTypes: deb-src\n\n");
    TagFileOptions opts;
    opts.allow_comments = true;
    TagFileReader r(w.str(), "t", opts);
    Stanza s;
    int n = 0;
    while (r.next(s)) ++n;
    EXPECT_EQ(n, 2);
}
