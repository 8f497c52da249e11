#include "aptus/deb/tagfile.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "aptus/base/error.hpp"

using aptus::deb::field_text;
using aptus::deb::Stanza;
using aptus::deb::TagFileOptions;
using aptus::deb::TagFileReader;

namespace {

std::vector<Stanza> read_all(std::string_view text, TagFileOptions options = {}) {
    TagFileReader reader(text, "test", options);
    std::vector<Stanza> out;
    Stanza s;
    while (reader.next(s)) out.push_back(s);
    return out;
}

// The message of the error reading `text` throws, or "" when it throws none.
std::string error_of(std::string_view text, TagFileOptions options = {}, std::string name = "bad-file") {
    try {
        TagFileReader reader(text, name, options);
        Stanza s;
        while (reader.next(s)) {
        }
    } catch (const aptus::Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(TagFileReader, TwoStanzasWithLinesAndRaw) {
    std::string text = "Package: a\nVersion: 1\n\nPackage: b\nVersion: 2\n";
    auto st = read_all(text);
    ASSERT_EQ(st.size(), 2u);
    ASSERT_EQ(st[0].fields.size(), 2u);
    EXPECT_EQ(st[0].fields[0].name, "Package");
    EXPECT_EQ(st[0].fields[0].value, "a");
    EXPECT_EQ(st[0].fields[1].line, 2u);
    EXPECT_EQ(st[0].line, 1u);
    EXPECT_EQ(st[0].raw, "Package: a\nVersion: 1\n");
    EXPECT_EQ(st[1].line, 4u);
    EXPECT_EQ(st[1].fields[1].line, 5u);
    EXPECT_EQ(st[1].value_or_empty("Version"), "2");
}

TEST(TagFileReader, EmptyAndBlankOnlyInput) {
    EXPECT_TRUE(read_all("").empty());
    EXPECT_TRUE(read_all("\n\n \t\n\r\n").empty());
}

TEST(TagFileReader, CaseInsensitiveLookup) {
    auto st = read_all("Package: a\nMulti-Arch: foreign\n");
    ASSERT_EQ(st.size(), 1u);
    EXPECT_EQ(st[0].value_or_empty("multi-arch"), "foreign");
    EXPECT_EQ(st[0].value_or_empty("PACKAGE"), "a");
    ASSERT_NE(st[0].find("MULTI-ARCH"), nullptr);
    EXPECT_EQ(st[0].find("multi-arch")->name, "Multi-Arch");
    EXPECT_EQ(st[0].get("Depends"), std::nullopt);
    EXPECT_EQ(st[0].value_or_empty("Depends"), "");
    EXPECT_EQ(st[0].get("package"), std::optional<std::string_view>("a"));
}

TEST(TagFileReader, ValuesAreTrimmed) {
    auto st = read_all("A:value  \nB:\t x y \t\nC:\nD:   \n");
    ASSERT_EQ(st.size(), 1u);
    EXPECT_EQ(st[0].value_or_empty("A"), "value");
    EXPECT_EQ(st[0].value_or_empty("B"), "x y");
    ASSERT_NE(st[0].find("C"), nullptr);
    EXPECT_EQ(st[0].value_or_empty("C"), "");
    EXPECT_EQ(st[0].value_or_empty("D"), "");
}

TEST(TagFileReader, ValueMayContainColons) {
    auto st = read_all("Homepage: https://example.org:8080/x\n");
    ASSERT_EQ(st.size(), 1u);
    EXPECT_EQ(st[0].fields[0].name, "Homepage");
    EXPECT_EQ(st[0].fields[0].value, "https://example.org:8080/x");
}

TEST(TagFileReader, ContinuationLines) {
    std::string text =
        "Package: a\n"
        "Description: short\n"
        " long line one\n"
        " .\n"
        "\tline three\n"
        "Conffiles:\n"
        " /etc/a 123\n"
        " /etc/b 456\n"
        "Version: 1\n";
    auto st = read_all(text);
    ASSERT_EQ(st.size(), 1u);
    ASSERT_EQ(st[0].fields.size(), 4u);
    EXPECT_EQ(st[0].value_or_empty("Description"), "short\n long line one\n .\n\tline three");
    EXPECT_EQ(field_text(st[0].value_or_empty("Description")), "short\nlong line one\n\nline three");
    EXPECT_EQ(st[0].value_or_empty("Conffiles"), "\n /etc/a 123\n /etc/b 456");
    EXPECT_EQ(field_text(st[0].value_or_empty("Conffiles")), "\n/etc/a 123\n/etc/b 456");
    EXPECT_EQ(st[0].find("Version")->line, 9u);
}

TEST(TagFileReader, ManyBlankLinesBetweenStanzas) {
    auto st = read_all("\n\n\nA: 1\n\n\n\n\nA: 2\n\n\n");
    ASSERT_EQ(st.size(), 2u);
    EXPECT_EQ(st[0].line, 4u);
    EXPECT_EQ(st[1].line, 9u);
    EXPECT_EQ(st[1].value_or_empty("A"), "2");
}

TEST(TagFileReader, WhitespaceOnlyLineSeparatesStanzas) {
    // Policy 5.1: a line of spaces and tabs is blank, even after a value.
    auto st = read_all("A: 1\n \t \nB: 2\n\t\nC: 3\n");
    ASSERT_EQ(st.size(), 3u);
    EXPECT_EQ(st[0].value_or_empty("A"), "1");
    EXPECT_EQ(st[1].value_or_empty("B"), "2");
    EXPECT_EQ(st[2].value_or_empty("C"), "3");
    EXPECT_EQ(st[2].line, 5u);
}

TEST(TagFileReader, CrLf) {
    std::string text = "Package: a\r\nDescription: x\r\n more\r\n\r\nPackage: b\r\n";
    auto st = read_all(text);
    ASSERT_EQ(st.size(), 2u);
    EXPECT_EQ(st[0].value_or_empty("Package"), "a");
    EXPECT_EQ(st[0].value_or_empty("Description"), "x\r\n more");
    EXPECT_EQ(field_text(st[0].value_or_empty("Description")), "x\nmore");
    EXPECT_EQ(st[1].value_or_empty("Package"), "b");
    EXPECT_EQ(st[1].line, 5u);
}

TEST(TagFileReader, MissingFinalNewline) {
    auto st = read_all("A: 1\n\nB: 2\nC: three");
    ASSERT_EQ(st.size(), 2u);
    EXPECT_EQ(st[1].value_or_empty("C"), "three");
    EXPECT_EQ(st[1].raw, "B: 2\nC: three");
    auto st2 = read_all("A: 1\n more");
    ASSERT_EQ(st2.size(), 1u);
    EXPECT_EQ(st2[0].value_or_empty("A"), "1\n more");
}

TEST(TagFileReader, CommentsWhereAllowed) {
    TagFileOptions opts;
    opts.allow_comments = true;
    std::string text =
        "# leading comment\n"
        "Types: deb\n"
        "# between fields\n"
        "URIs: http://mirror.example/debian\n"
        "Signed-By:\n"
        " line1\n"
        "# inside a value\n"
        " line2\n"
        "#Suites: disabled\n"
        "Suites: bookworm\n"
        "\n"
        "# between stanzas\n"
        "\n"
        "Types: deb-src\n";
    auto st = read_all(text, opts);
    ASSERT_EQ(st.size(), 2u);
    ASSERT_EQ(st[0].fields.size(), 4u);
    EXPECT_EQ(st[0].line, 2u);
    EXPECT_EQ(st[0].value_or_empty("URIs"), "http://mirror.example/debian");
    EXPECT_EQ(st[0].find("URIs")->line, 4u);
    EXPECT_EQ(field_text(st[0].value_or_empty("Signed-By")), "\nline1\nline2");
    EXPECT_EQ(st[0].value_or_empty("Suites"), "bookworm");
    EXPECT_EQ(st[0].find("Suites")->line, 10u);
    EXPECT_EQ(st[1].value_or_empty("Types"), "deb-src");
    EXPECT_EQ(st[1].line, 14u);
}

TEST(TagFileReader, CommentsRejectedWhereNotAllowed) {
    std::string msg = error_of("Package: a\n# no\n", {}, "Packages");
    EXPECT_NE(msg.find("Packages:2:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("comment"), std::string::npos) << msg;
    msg = error_of("# no\nPackage: a\n", {}, "Packages");
    EXPECT_NE(msg.find("Packages:1:"), std::string::npos) << msg;
}

TEST(TagFileReader, StanzaVectorIsReused) {
    std::string text;
    for (int i = 0; i < 100; ++i) text += "A: 1\nB: 2\nC: 3\n\n";
    TagFileReader reader(text, "t");
    Stanza s;
    ASSERT_TRUE(reader.next(s));
    const auto* data = s.fields.data();
    size_t cap = s.fields.capacity();
    int n = 1;
    while (reader.next(s)) {
        ++n;
        EXPECT_EQ(s.fields.data(), data);
        EXPECT_EQ(s.fields.capacity(), cap);
        EXPECT_EQ(s.fields.size(), 3u);
    }
    EXPECT_EQ(n, 100);
    EXPECT_FALSE(reader.next(s));
    EXPECT_TRUE(s.fields.empty());
}

TEST(TagFileReader, ValuesPointIntoTheBuffer) {
    std::string text = "Package: zzz\n";
    TagFileReader reader(text, "t");
    Stanza s;
    ASSERT_TRUE(reader.next(s));
    EXPECT_EQ(s.fields[0].value.data(), text.data() + 9);
    EXPECT_EQ(s.raw.data(), text.data());
}

TEST(TagFileErrors, ContinuationBeforeFirstField) {
    std::string msg = error_of(" leading continuation\nA: 1\n", {}, "status");
    EXPECT_NE(msg.find("status:1:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("continuation line before the first field"), std::string::npos) << msg;
    msg = error_of("A: 1\n\n\n\tcontinued\n", {}, "status");
    EXPECT_NE(msg.find("status:4:"), std::string::npos) << msg;
}

TEST(TagFileErrors, LineWithoutColon) {
    std::string msg = error_of("Package: a\nVersion 1.0\n", {}, "/var/lib/dpkg/status");
    EXPECT_NE(msg.find("/var/lib/dpkg/status:2:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("no ':'"), std::string::npos) << msg;
    msg = error_of("A: 1\n\nnocolon", {}, "f");
    EXPECT_NE(msg.find("f:3:"), std::string::npos) << msg;
}

TEST(TagFileErrors, ValidStanzasBeforeAnErrorAreReturned) {
    std::string text = "A: 1\n\nbroken\n";
    TagFileReader reader(text, "f");
    Stanza s;
    ASSERT_TRUE(reader.next(s));
    EXPECT_EQ(s.value_or_empty("A"), "1");
    EXPECT_THROW(reader.next(s), aptus::Error);
}

TEST(TagFileErrors, NulByte) {
    std::string text = "A: 1\nB: x";
    text += '\0';
    text += "y\n";
    std::string msg = error_of(text, {}, "Packages");
    EXPECT_NE(msg.find("Packages:2:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("NUL"), std::string::npos) << msg;
    // Far from the start, in a continuation line, past the look-ahead chunk.
    std::string big;
    for (int i = 0; i < 20000; ++i) big += "Package: p\nDescription: d\n more\n\n";
    big += "Package: q\nDescription: d\n mo";
    big += '\0';
    big += "re\n";
    msg = error_of(big, {}, "Packages");
    EXPECT_NE(msg.find("Packages:80003:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("NUL"), std::string::npos) << msg;
}

TEST(TagFileErrors, BadFieldNames) {
    std::string msg = error_of("Package: a\nBad Name: x\n", {}, "f");
    EXPECT_NE(msg.find("f:2:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("space"), std::string::npos) << msg;
    msg = error_of("Package: a\n: x\n", {}, "f");
    EXPECT_NE(msg.find("f:2: empty field name"), std::string::npos) << msg;
    msg = error_of("Package\t: a\n", {}, "f");
    EXPECT_NE(msg.find("f:1:"), std::string::npos) << msg;
    msg = error_of("A: 1\n-----BEGIN PGP SIGNATURE-----: x\n", {}, "f");
    EXPECT_NE(msg.find("f:2:"), std::string::npos) << msg;
}

TEST(TagFileErrors, HundredMegabyteLine) {
    // Rule: one line may hold at most max_line_length bytes (16 MiB by
    // default); the reader looks no further than that for the line's end.
    std::string text = "Package: a\nDescription: ";
    text.append(100u << 20, 'x');
    text += "\n";
    auto start = std::chrono::steady_clock::now();
    std::string msg = error_of(text, {}, "Packages");
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    EXPECT_NE(msg.find("Packages:2: line longer than 16777216 bytes"), std::string::npos) << msg;
    EXPECT_LT(ms.count(), 5000);
    // The same line without a line ending, and as a field name.
    std::string bare(100u << 20, 'y');
    msg = error_of(bare, {}, "Packages");
    EXPECT_NE(msg.find("Packages:1: line longer than"), std::string::npos) << msg;
}

TEST(TagFileErrors, LineLengthLimitIsExact) {
    TagFileOptions opts;
    opts.max_line_length = 10;
    EXPECT_EQ(error_of("A: 1234567\n", opts), "");    // 10 bytes
    EXPECT_EQ(error_of("A: 1234567", opts), "");      // 10 bytes, no newline
    std::string msg = error_of("A: 1\n 123456789\n", opts, "f");  // 10 bytes
    EXPECT_EQ(msg, "");
    msg = error_of("A: 1\n 1234567890\n", opts, "f");  // 11 bytes
    EXPECT_EQ(msg, "f:2: line longer than 10 bytes");
}

TEST(TagFileErrors, ManyShortLinesStayLinear) {
    // 2 million one-byte continuation lines in one value: quadratic work
    // would take minutes.
    std::string text = "A: 1\n";
    for (int i = 0; i < 2000000; ++i) text += " x\n";
    auto start = std::chrono::steady_clock::now();
    auto st = read_all(text);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    ASSERT_EQ(st.size(), 1u);
    EXPECT_EQ(st[0].value_or_empty("A").size(), 1u + 3u * 2000000u);
    EXPECT_LT(ms.count(), 5000);
}

TEST(TagFileFieldText, Unfolds) {
    EXPECT_EQ(field_text("single"), "single");
    EXPECT_EQ(field_text(""), "");
    EXPECT_EQ(field_text("a\n b\n .\n c"), "a\nb\n\nc");
    EXPECT_EQ(field_text("a\r\n b\r\n .\r\n c"), "a\nb\n\nc");
    EXPECT_EQ(field_text("a\n  indented"), "a\n indented");
}

TEST(TagFileReader, EndIsSticky) {
    TagFileReader reader("A: 1\n", "t");
    Stanza s;
    EXPECT_TRUE(reader.next(s));
    EXPECT_FALSE(reader.next(s));
    EXPECT_FALSE(reader.next(s));
    EXPECT_EQ(reader.line(), 2u);
}

TEST(TagFileErrors, HashFieldNameWithoutComments) {
    std::string msg = error_of("A: 1\n#B: 2\n", {}, "f");
    EXPECT_EQ(msg, "f:2: '#' comment lines are not allowed in this file");
}

TEST(TagFileErrors, RandomInputNeverCrashes) {
    // Random lines over the bytes that matter to the grammar: every outcome
    // must be stanzas whose views lie inside the buffer, or an aptus::Error
    // with a file and line.
    const char alphabet[] = {'A', 'b', ':', ' ', '\t', '\n', '\n', '\r', '#', '-', '.', '\0'};
    uint32_t seed = 12345;
    auto rnd = [&seed] { return seed = seed * 1103515245u + 12345u, (seed >> 16) & 0x7fff; };
    int errors = 0, parsed = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string text;
        size_t len = rnd() % 200;
        for (size_t i = 0; i < len; ++i) text += alphabet[rnd() % sizeof(alphabet)];
        TagFileOptions opts;
        opts.allow_comments = round % 2;
        opts.max_line_length = 1 + rnd() % 50;
        try {
            TagFileReader reader(text, "fuzz", opts);
            Stanza s;
            while (reader.next(s)) {
                ++parsed;
                ASSERT_FALSE(s.fields.empty());
                for (const auto& f : s.fields) {
                    ASSERT_GE(f.value.data(), text.data());
                    ASSERT_LE(f.value.data() + f.value.size(), text.data() + text.size());
                    ASSERT_FALSE(f.name.empty());
                    ASSERT_EQ(f.name.find_first_of(": \t\r\n"), std::string_view::npos);
                    (void)field_text(f.value);
                }
            }
        } catch (const aptus::Error& e) {
            ++errors;
            ASSERT_EQ(std::string(e.what()).rfind("fuzz:", 0), 0u) << e.what();
        }
    }
    EXPECT_GT(errors, 0);
    EXPECT_GT(parsed, 0);
}

// skip_malformed: what apt and dpkg do with a damaged index or status file,
// with one problem recorded for each stanza.
namespace {

struct Tolerant {
    std::vector<Stanza> stanzas;
    std::vector<aptus::deb::TagFileProblem> problems;
    size_t count = 0;
    uint32_t last_line = 0;
};

Tolerant read_tolerant(std::string_view text, uint32_t first_line = 1) {
    TagFileOptions options;
    options.skip_malformed = true;
    options.first_line = first_line;
    TagFileReader reader(text, "Packages", options);
    Tolerant out;
    Stanza s;
    while (reader.next(s)) out.stanzas.push_back(s);
    out.problems = reader.problems();
    out.count = reader.problem_count();
    out.last_line = reader.line();
    return out;
}

std::string names(const Tolerant& t) {
    std::string out;
    for (const Stanza& s : t.stanzas) out += std::string(s.value_or_empty("Package")) + " ";
    return out;
}

}  // namespace

TEST(TagFileTolerant, BrokenLineSkipsItsStanzaOnly) {
    std::string text = "Package: a\nVersion: 1\n\nPackage: b\nthis line is broken\nVersion: 1\n\nPackage: c\nVersion: 1\n";
    Tolerant t = read_tolerant(text);
    EXPECT_EQ(names(t), "a c ");
    ASSERT_EQ(t.problems.size(), 1u);
    EXPECT_EQ(t.problems[0].line, 5u);
    EXPECT_TRUE(t.problems[0].skipped);
    EXPECT_NE(t.problems[0].what.find("no ':'"), std::string::npos) << t.problems[0].what;
    EXPECT_NE(t.problems[0].what.find("stanza was skipped"), std::string::npos) << t.problems[0].what;
    EXPECT_EQ(t.stanzas[1].line, 8u);
    EXPECT_EQ(t.stanzas[1].value_or_empty("Version"), "1");
    EXPECT_EQ(t.last_line, 10u);
}

// apt's values are C strings: a NUL ends the value it is in, the stanza is
// kept (apt-cache 2.6 lists "del" for "Package: del\0ta"). One problem per
// stanza, however many NULs it has.
TEST(TagFileTolerant, NulEndsTheValue) {
    std::string text = "Package: a\nMaintainer: T";
    text += '\0';
    text += "X <t@e.org>\nDescription: d\n long";
    text += '\0';
    text += "er\n more\n\nPackage: b\nVersion: 2\n";
    Tolerant t = read_tolerant(text);
    ASSERT_EQ(t.stanzas.size(), 2u);
    EXPECT_EQ(t.stanzas[0].value_or_empty("Maintainer"), "T");
    EXPECT_EQ(t.stanzas[0].value_or_empty("Description"), "d\n long");
    EXPECT_EQ(t.stanzas[0].fields.size(), 3u);
    EXPECT_EQ(t.stanzas[1].value_or_empty("Version"), "2");
    EXPECT_EQ(t.stanzas[1].line, 7u);
    ASSERT_EQ(t.count, 1u);
    EXPECT_EQ(t.problems[0].line, 2u);
    EXPECT_FALSE(t.problems[0].skipped);
    EXPECT_NE(t.problems[0].what.find("NUL byte in field 'Maintainer'"), std::string::npos) << t.problems[0].what;
    // Re-read from its own bytes (show reads the stanza from the cache so):
    // the same values.
    Tolerant again = read_tolerant(t.stanzas[0].raw);
    ASSERT_EQ(again.stanzas.size(), 1u);
    EXPECT_EQ(again.stanzas[0].value_or_empty("Maintainer"), "T");
}

// A NUL where a field name is, or starting a line: the stanza is malformed.
TEST(TagFileTolerant, NulInANameSkipsTheStanza) {
    std::string text = "Package: a\nVer";
    text += '\0';
    text += "sion: 1\n\nPackage: b\n";
    text += '\0';
    text += "garbage\n\nPackage: c\nVersion: 3\n";
    Tolerant t = read_tolerant(text);
    EXPECT_EQ(names(t), "c ");
    ASSERT_EQ(t.problems.size(), 2u);
    EXPECT_EQ(t.problems[0].line, 2u);
    EXPECT_EQ(t.problems[1].line, 5u);
    for (const auto& p : t.problems) {
        EXPECT_TRUE(p.skipped);
        EXPECT_NE(p.what.find("NUL byte in line"), std::string::npos) << p.what;
    }
}

// Every kind of malformed stanza, at the start, in the middle and at the end
// (no final newline), with lines counted from first_line.
TEST(TagFileTolerant, EveryMalformationAndTheLines) {
    std::string text =
        " continuation first\nPackage: x\n\n"      // 1-2
        "Package: a\n\n"                            // 4
        "Package: y\n# comment\n\n"                 // 6-7
        "Package: z\n: empty\n\n"                   // 9-10
        "Package: w\n-Dash: 1\n\n"                  // 12-13
        "Package: b\n\n"                            // 15
        "Package: v\nBad Name: 1";                  // 17-18
    Tolerant t = read_tolerant(text, 101);
    EXPECT_EQ(names(t), "a b ");
    ASSERT_EQ(t.count, 5u);
    std::vector<uint32_t> lines;
    for (const auto& p : t.problems) lines.push_back(p.line);
    EXPECT_EQ(lines, (std::vector<uint32_t>{101, 107, 110, 113, 118}));
    EXPECT_EQ(t.stanzas[0].line, 104u);
    EXPECT_EQ(t.stanzas[1].line, 115u);
}

// A line over the limit skips its stanza; its real end is found, so the
// stanzas after it and their lines are right.
TEST(TagFileTolerant, OverlongLineSkipsItsStanza) {
    TagFileOptions options;
    options.skip_malformed = true;
    options.max_line_length = 64;
    std::string text = "Package: a\nDescription: " + std::string(200, 'x') + "\n more\n\nPackage: b\nVersion: 1\n";
    TagFileReader reader(text, "f", options);
    Stanza s;
    ASSERT_TRUE(reader.next(s));
    EXPECT_EQ(s.value_or_empty("Package"), "b");
    EXPECT_EQ(s.line, 5u);
    EXPECT_FALSE(reader.next(s));
    ASSERT_EQ(reader.problem_count(), 1u);
    EXPECT_EQ(reader.problems()[0].line, 2u);
    EXPECT_NE(reader.problems()[0].what.find("longer than 64"), std::string::npos);
}

// A flood of bad stanzas: all counted, the first few kept, linear time.
TEST(TagFileTolerant, ManyProblemsAreCountedNotAllKept) {
    std::string text;
    for (int i = 0; i < 200000; ++i) text += "Package: p\nbroken\n\n";
    text += "Package: last\n";
    auto start = std::chrono::steady_clock::now();
    Tolerant t = read_tolerant(text);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    EXPECT_EQ(names(t), "last ");
    EXPECT_EQ(t.count, 200000u);
    EXPECT_EQ(t.problems.size(), TagFileReader::kMaxKeptProblems);
    EXPECT_EQ(t.stanzas[0].line, 600001u);
}

// Without skip_malformed nothing changes: the first problem is an error.
TEST(TagFileTolerant, StrictStillThrows) {
    std::string text = "Package: a\nMaintainer: T";
    text += '\0';
    text += "\n";
    EXPECT_NE(error_of(text).find("NUL"), std::string::npos);
    EXPECT_NE(error_of("Package: b\nbroken\n").find("bad-file:2:"), std::string::npos);
}
