// The cache built from small hand-written inputs, with exact assertions on
// every kind of record.
#include <gtest/gtest.h>

#include <algorithm>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/cache/build.hpp"
#include "aptus/deb/tagfile.hpp"
#include "support/test_support.hpp"

using namespace aptus::cache;

namespace {

const char* kPackagesA =
    "Package: foo\n"
    "Version: 1.0-1\n"
    "Architecture: amd64\n"
    "Source: foo-src (1.0-0)\n"
    "Section: utils\n"
    "Priority: optional\n"
    "Installed-Size: 120\n"
    "Size: 5000000000\n"
    "Multi-Arch: foreign\n"
    "Maintainer: A <a@example.org>\n"
    "Depends: libc6 (>= 2.36), bar | baz:any, virt\n"
    "Recommends: qux\n"
    "Provides: foo-virt (= 1.0), other\n"
    "Description: the foo tool\n"
    "Description-md5: 0123456789abcdef0123456789abcdef\n"
    "Filename: pool/main/f/foo/foo_1.0-1_amd64.deb\n"
    "MD5sum: aa\n"
    "SHA256: bb\n"
    "\n"
    "Package: bar\n"
    "Version: 2\n"
    "Architecture: all\n"
    "Essential: yes\n"
    "Priority: required\n"
    "Protected: yes\n"
    "Description: bar\n"
    " Long bar text.\n"
    " .\n"
    " More.\n"
    "\n"
    "Package: libc6\n"
    "Version: 2.36-9\n"
    "Architecture: amd64\n"
    "Multi-Arch: same\n"
    "Provides: virt\n"
    "Description: C library\n";

const char* kPackagesB =
    "Package: foo\n"
    "Version: 1.0-1\n"
    "Architecture: amd64\n"
    "Installed-Size: 120\n"
    "Multi-Arch: foreign\n"
    "Depends: libc6 (>=2.36), bar|baz:any, virt\n"
    "Recommends: ignored-because-merged\n"
    "\n"
    "Package: foo\n"
    "Version: 1.1-1\n"
    "Architecture: amd64\n"
    "Phased-Update-Percentage: 30\n"
    "Depends: libc6 (>= 2.40)\n"
    "Description: the foo tool, newer\n"
    "\n"
    "Package: broken\n"
    "Version: 1\n"
    "Depends: a (>= \n";

const char* kTranslation =
    "Package: foo\n"
    "Description-md5: 0123456789abcdef0123456789abcdef\n"
    "Description-en: the foo tool\n"
    " Foo does things.\n"
    "\n"
    "Package: zzz\n"
    "Description-md5: ffffffffffffffffffffffffffffffff\n"
    "Description-en: unrelated\n";

const char* kStatus =
    "Package: foo\n"
    "Status: install ok installed\n"
    "Architecture: amd64\n"
    "Version: 1.0-1\n"
    "Installed-Size: 120\n"
    "Multi-Arch: foreign\n"
    "Depends: libc6 (>= 2.36), bar | baz:any, virt\n"
    "Description: the foo tool\n"
    " Installed long text.\n"
    "\n"
    "Package: local-only\n"
    "Status: hold ok installed\n"
    "Architecture: amd64\n"
    "Version: 0.1\n"
    "Description: a local package\n"
    "\n"
    "Package: gone\n"
    "Status: deinstall ok config-files\n"
    "Architecture: amd64\n"
    "Version: 3\n"
    "\n"
    "Package: bar\n"
    "Status: install ok installed\n"
    "Architecture: all\n"
    "Version: 2\n";

const char* kExtended =
    "Package: local-only\n"
    "Architecture: amd64\n"
    "Auto-Installed: 1\n"
    "\n"
    "Package: unknown\n"
    "Architecture: amd64\n"
    "Auto-Installed: 1\n";

const char* kSources =
    "Package: foo-src\n"
    "Binary: foo, foo-doc\n"
    "Version: 1.0-0\n"
    "Directory: pool/main/f/foo-src\n"
    "\n"
    "Package: foo-src\n"
    "Binary: foo\n"
    "Version: 1.1-0\n";

const char* kRelease =
    "Origin: Example\nLabel: Ex\nSuite: stable\nCodename: one\nVersion: 1.0\nNotAutomatic: yes\n"
    "Architectures: amd64 all\nComponents: main\n";

class CacheBuild : public ::testing::Test {
protected:
    void SetUp() override {
        inputs.native_architecture = "amd64";
        inputs.releases.push_back({dir.write("lists/r1_Release", kRelease)});
        inputs.indices.push_back({dir.write("lists/a_Packages", kPackagesA), IndexKind::Packages, 0, "main", "amd64",
                                  "", "example.org", ""});
        inputs.indices.push_back({dir.write("lists/b_Packages", kPackagesB), IndexKind::Packages, kNone, "contrib",
                                  "amd64", "", "local", ""});
        inputs.indices.push_back({dir.write("lists/a_Translation-en", kTranslation), IndexKind::Translation, 0,
                                  "main", "", "en", "example.org", ""});
        inputs.indices.push_back({dir.write("lists/a_Sources", kSources), IndexKind::Sources, 0, "main", "", "",
                                  "example.org", ""});
        inputs.status_path = dir.write("status", kStatus);
        inputs.extended_states_path = dir.write("extended_states", kExtended);
        inputs.fingerprint = "test";
        BuildResult r = build_cache(inputs);
        diagnostics = r.diagnostics;
        cache.emplace(Cache::from_image(std::move(r.image)));
    }

    const Package& pkg(std::string_view name, std::string_view arch = "amd64") {
        const Package* p = cache->find_package(name, arch);
        EXPECT_NE(p, nullptr) << name << ":" << arch;
        return *p;
    }
    std::string s(StringId id) { return std::string(cache->str(id)); }

    aptus::test::TempDir dir{"cache-build"};
    CacheInputs inputs;
    aptus::Diagnostics diagnostics;
    std::optional<Cache> cache;
};

TEST_F(CacheBuild, Counts) {
    // foo (2 versions), bar, libc6, broken, local-only, gone
    EXPECT_EQ(cache->packages().size(), 6u);
    EXPECT_EQ(cache->versions().size(), 7u);
    EXPECT_TRUE(cache->in_memory());
    EXPECT_EQ(cache->native_architecture(), "amd64");
    // The broken Depends is reported with its file and line, the stanza kept.
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("b_Packages:18"), std::string::npos) << diagnostics[0].message;
    EXPECT_EQ(pkg("broken").version_count, 1u);
    EXPECT_EQ(cache->versions_of(pkg("broken"))[0].dependency_count, 0u);
}

TEST_F(CacheBuild, VersionFields) {
    const Package& foo = pkg("foo");
    ASSERT_EQ(foo.version_count, 2u);
    auto vs = cache->versions_of(foo);
    EXPECT_EQ(s(vs[0].version), "1.1-1");  // newest first
    const Version& v = vs[1];
    EXPECT_EQ(s(v.version), "1.0-1");
    EXPECT_EQ(s(v.architecture), "amd64");
    EXPECT_EQ(s(v.section), "utils");
    EXPECT_EQ(v.priority, Priority::Optional);
    EXPECT_EQ(v.installed_size, 120u);
    EXPECT_EQ(cache->size_of(v), 5000000000ull);
    EXPECT_EQ(v.multi_arch, MultiArch::Foreign);
    EXPECT_EQ(s(v.source_name), "foo-src");
    EXPECT_EQ(s(v.source_version), "1.0-0");
    // Per-version text the pool does not copy is read from the stanza.
    ASSERT_GE(v.file_count, 1u);
    aptus::deb::TagFileReader r(cache->stanza(cache->files_of(v)[0]), "stanza");
    aptus::deb::Stanza st;
    ASSERT_TRUE(r.next(st));
    EXPECT_EQ(st.value_or_empty("Maintainer"), "A <a@example.org>");
    EXPECT_EQ(st.value_or_empty("Filename"), "pool/main/f/foo/foo_1.0-1_amd64.deb");
    EXPECT_EQ(st.value_or_empty("MD5sum"), "aa");
    EXPECT_EQ(st.value_or_empty("SHA256"), "bb");
    EXPECT_EQ(s(v.short_description), "the foo tool");
    // The long description comes from the Translation file (the first file
    // listed wins over the status's own copy).
    EXPECT_EQ(aptus::deb::field_text(cache->long_description(v)), "the foo tool\nFoo does things.");
    EXPECT_TRUE(v.flags & kVersionInStatus);
    EXPECT_EQ(s(vs[0].source_name), "foo");
    EXPECT_EQ(s(vs[0].source_version), "1.1-1");
    EXPECT_EQ(cache->long_description(vs[0]), "the foo tool, newer");  // no translation: its own short line
    EXPECT_EQ(phased_percentage(vs[0].flags), 30u);
    EXPECT_EQ(phased_percentage(v.flags), 100u);  // no field: not phased

    const Version& bar = cache->versions_of(pkg("bar"))[0];
    EXPECT_EQ(s(bar.architecture), "all");  // filed under amd64
    EXPECT_EQ(bar.flags & (kVersionEssential | kVersionProtected), kVersionEssential | kVersionProtected);
    EXPECT_EQ(bar.priority, Priority::Required);
    EXPECT_EQ(aptus::deb::field_text(cache->long_description(bar)), "bar\nLong bar text.\n\nMore.");
    EXPECT_EQ(cache->versions_of(pkg("libc6"))[0].multi_arch, MultiArch::Same);
}

TEST_F(CacheBuild, Dependencies) {
    const Version& v = cache->versions_of(pkg("foo"))[1];
    auto deps = cache->dependencies_of(v);
    ASSERT_EQ(deps.size(), 5u);  // the duplicate stanza in b_Packages added none
    auto name = [&](const Dependency& d) { return s(cache->names()[d.target].name); };
    EXPECT_EQ(name(deps[0]), "libc6");
    EXPECT_EQ(deps[0].op, DepOp::GreaterEq);
    EXPECT_EQ(s(deps[0].version), "2.36");
    EXPECT_EQ(deps[0].type, DepType::Depends);
    EXPECT_EQ(deps[0].flags, 0);
    EXPECT_EQ(name(deps[1]), "bar");
    EXPECT_EQ(deps[1].flags, kDepOrNext);
    EXPECT_EQ(name(deps[2]), "baz");
    EXPECT_EQ(s(deps[2].arch_qualifier), "any");
    EXPECT_EQ(deps[2].flags, 0);
    EXPECT_EQ(name(deps[3]), "virt");
    EXPECT_EQ(name(deps[4]), "qux");
    EXPECT_EQ(deps[4].type, DepType::Recommends);

    auto provides = cache->provides_of(v);
    ASSERT_EQ(provides.size(), 2u);
    EXPECT_EQ(s(cache->names()[provides[0].name].name), "foo-virt");
    EXPECT_EQ(s(provides[0].provided_version), "1.0");
    EXPECT_EQ(provides[1].provided_version, 0u);
}

TEST_F(CacheBuild, ReverseDependenciesAndProviders) {
    auto libc = cache->find_name("libc6");
    ASSERT_TRUE(libc);
    auto rdeps = cache->rdepends(*libc);
    ASSERT_EQ(rdeps.size(), 2u);
    for (const RevDep& r : rdeps) {
        EXPECT_EQ(cache->name_of(cache->package_of(cache->versions()[r.version])), "foo");
        EXPECT_EQ(cache->dependencies()[r.dependency].target, *libc);
    }
    auto virt = cache->find_name("virt");
    ASSERT_TRUE(virt);
    EXPECT_TRUE(cache->packages_of(*virt).empty());  // purely virtual
    auto prov = cache->providers(*virt);
    ASSERT_EQ(prov.size(), 1u);
    const Version& pv = cache->versions()[cache->provides()[prov[0]].version];
    EXPECT_EQ(cache->name_of(cache->package_of(pv)), "libc6");
    EXPECT_EQ(cache->rdepends(*virt).size(), 1u);
    EXPECT_FALSE(cache->find_name("nothing-names-this"));
}

TEST_F(CacheBuild, FilesAndReleases) {
    auto vs = cache->versions_of(pkg("foo"));
    auto files = cache->files_of(vs[1]);
    ASSERT_EQ(files.size(), 3u);  // a_Packages, b_Packages, status
    const IndexFile& a = cache->index_files()[files[0].index_file];
    EXPECT_EQ(cache->str(a.path), inputs.indices[0].path);
    EXPECT_EQ(cache->str(a.component), "main");
    EXPECT_EQ(cache->str(a.site), "example.org");
    ASSERT_NE(a.release, kNone);
    const Release& r = cache->releases()[a.release];
    EXPECT_EQ(s(r.origin), "Example");
    EXPECT_EQ(s(r.label), "Ex");
    EXPECT_EQ(s(r.suite), "stable");
    EXPECT_EQ(s(r.codename), "one");
    EXPECT_EQ(s(r.version), "1.0");
    EXPECT_EQ(s(r.architectures), "amd64 all");
    EXPECT_EQ(r.flags & kReleaseNotAutomatic, kReleaseNotAutomatic);
    EXPECT_EQ(cache->index_files()[files[1].index_file].release, kNone);
    EXPECT_EQ(cache->index_files()[files[2].index_file].kind, IndexKind::Status);
    EXPECT_EQ(cache->stanza(files[0]).substr(0, 13), "Package: foo\n");
    EXPECT_NE(cache->stanza(files[0]).find("SHA256: bb"), std::string_view::npos);
    EXPECT_EQ(cache->stanza(files[0]).find("Package: bar"), std::string_view::npos);
    EXPECT_NE(cache->stanza(files[2]).find("Status: install ok installed"), std::string_view::npos);
}

TEST_F(CacheBuild, InstalledStateAndAutoMarks) {
    const Package& foo = pkg("foo");
    ASSERT_NE(cache->current_version(foo), nullptr);
    EXPECT_EQ(s(cache->current_version(foo)->version), "1.0-1");
    EXPECT_EQ(foo.selection, Selection::Install);
    EXPECT_EQ(foo.state, InstallState::Installed);
    EXPECT_FALSE(foo.flags & kPackageAuto);

    const Package& local = pkg("local-only");
    EXPECT_EQ(local.selection, Selection::Hold);
    ASSERT_EQ(local.version_count, 1u);
    const Version& lv = *cache->current_version(local);
    ASSERT_EQ(lv.file_count, 1u);  // only in the status: a local or obsolete version
    EXPECT_EQ(cache->index_files()[cache->files_of(lv)[0].index_file].kind, IndexKind::Status);
    EXPECT_EQ(aptus::deb::field_text(cache->long_description(lv)), "a local package");
    EXPECT_TRUE(local.flags & kPackageAuto);

    const Package& gone = pkg("gone");
    EXPECT_EQ(gone.state, InstallState::ConfigFiles);
    EXPECT_EQ(gone.selection, Selection::Deinstall);
    EXPECT_EQ(cache->current_version(gone), nullptr);
    EXPECT_EQ(gone.version_count, 1u);

    EXPECT_NE(cache->current_version(pkg("bar")), nullptr);  // Architecture: all in status -> native
    EXPECT_EQ(cache->current_version(pkg("libc6")), nullptr);
    EXPECT_EQ(pkg("libc6").state, InstallState::NotInstalled);
    EXPECT_EQ(cache->find_name("unknown"), std::nullopt);
}

TEST_F(CacheBuild, Sources) {
    auto srcs = cache->find_sources("foo-src");
    ASSERT_EQ(srcs.size(), 2u);
    EXPECT_EQ(s(srcs[0].version), "1.1-0");
    EXPECT_EQ(s(srcs[1].binaries), "foo, foo-doc");
    EXPECT_EQ(s(srcs[1].directory), "pool/main/f/foo-src");
    EXPECT_EQ(cache->stanza(srcs[1]).substr(0, 17), "Package: foo-src\n");
    EXPECT_TRUE(cache->find_sources("foo").empty());
}

TEST_F(CacheBuild, NamesSortedAndPackagesGrouped) {
    auto names = cache->names();
    for (size_t i = 1; i < names.size(); ++i) EXPECT_LT(cache->str(names[i - 1].name), cache->str(names[i].name));
    for (uint32_t n = 0; n < names.size(); ++n) {
        EXPECT_EQ(cache->find_name(cache->str(names[n].name)), n);
        for (const Package& p : cache->packages_of(n)) EXPECT_EQ(p.name, n);
    }
}

TEST_F(CacheBuild, SameInputsSameBytes) {
    BuildResult again = build_cache(inputs);
    EXPECT_EQ(again.image, cache->image());
}

TEST_F(CacheBuild, CompressedIndexes) {
    CacheInputs in = inputs;
    for (auto c : {aptus::Compression::Gzip, aptus::Compression::Xz, aptus::Compression::Lz4, aptus::Compression::Zstd,
                   aptus::Compression::Bzip2}) {
        std::string ext(aptus::compression_extension(c));
        std::string tool = c == aptus::Compression::Gzip   ? "gzip"
                           : c == aptus::Compression::Xz   ? "xz"
                           : c == aptus::Compression::Lz4  ? "lz4"
                           : c == aptus::Compression::Zstd ? "zstd"
                                                           : "bzip2";
        std::string src = inputs.indices[0].path;
        std::string dst = src + "." + ext;
        ASSERT_EQ(std::system((tool + " -q -c " + src + " > " + dst).c_str()), 0) << tool;
        in.indices[0].path = dst;
        Cache c2 = Cache::from_image(build_cache(in).image);
        const Version& v = c2.versions_of(*c2.find_package("foo", "amd64"))[1];
        EXPECT_NE(c2.stanza(c2.files_of(v)[0]).find("\nSHA256: bb\n"), std::string_view::npos) << ext;
        EXPECT_EQ(c2.stanza(c2.files_of(v)[0]).substr(0, 13), "Package: foo\n") << ext;
        EXPECT_EQ(aptus::deb::field_text(c2.long_description(c2.versions_of(*c2.find_package("bar", "amd64"))[0])),
                  "bar\nLong bar text.\n\nMore.");
    }
}

bool has_warning(const aptus::Diagnostics& diags, const std::string& text) {
    return std::any_of(diags.begin(), diags.end(), [&](const aptus::Diagnostic& d) {
        return d.level == aptus::Level::Warning && d.message.find(text) != std::string::npos;
    });
}

TEST_F(CacheBuild, MalformedStanzaIsSkippedUnreadableFileThrows) {
    // The Packages files are split into stanzas on another thread: a
    // malformed stanza there is skipped with a warning naming the file and
    // line, whether it comes first or after many good stanzas (a batch or
    // more of them), and the stanzas after it are kept. A file that cannot
    // be read is still an error.
    std::string good;
    for (int i = 0; i < 1000; ++i) good += "Package: p" + std::to_string(i) + "\nVersion: 1\nArchitecture: amd64\n\n";
    for (std::string text : {std::string("Package b\n\nPackage: after\nVersion: 1\n"),
                             good + "Package b\n\nPackage: after\nVersion: 1\n"}) {
        CacheInputs in = inputs;
        in.indices[0].path = dir.write("bad_Packages", text);
        BuildResult r = build_cache(in);
        Cache c = Cache::from_image(std::move(r.image));
        EXPECT_NE(c.find_package("after", "amd64"), nullptr);
        EXPECT_EQ(c.find_package("p999", "amd64") != nullptr, text.size() > good.size());
        uint32_t line = text.size() > good.size() ? 4001 : 1;
        EXPECT_TRUE(has_warning(r.diagnostics, in.indices[0].path + ":" + std::to_string(line) +
                                                   ": line has no ':' (expected \"Field: value\"); the stanza was skipped"));
        // The other files are all there.
        EXPECT_NE(c.find_package("broken", "amd64"), nullptr);
        EXPECT_EQ(c.sources().size(), 2u);
    }
    CacheInputs in = inputs;
    in.indices[0].path = dir.file("missing_Packages");
    EXPECT_THROW(build_cache(in), aptus::Error);
    in = inputs;
    in.indices.push_back({dir.write("bad_Translation-en", good + "Description-md5 x\n"), IndexKind::Translation, kNone,
                          "main", "", "en", "site", ""});
    BuildResult r = build_cache(in);
    EXPECT_TRUE(has_warning(r.diagnostics, "bad_Translation-en:4001: line has no ':'"));
}

// One damaged stanza in each kind of file the build reads: each is skipped
// (or, a NUL in a value, cut there as apt does) with one warning naming the
// file and line, and everything else is in the cache.
TEST_F(CacheBuild, DamagedStanzasInEveryKindOfFile) {
    auto with_nul = [](std::string text, std::string_view after) {
        text.insert(text.find(after) + after.size(), 1, '\0');
        return text;
    };
    CacheInputs in = inputs;
    // Packages: a NUL in bar's Description (line 27), a broken line in libc6's stanza (line 34).
    std::string packages = with_nul(kPackagesA, "Description: bar\n Long");
    packages.insert(packages.find("Multi-Arch: same\n") , "not a field\n");
    in.indices[0].path = dir.write("damaged_Packages", packages);
    // Status: a NUL in a field name of local-only's stanza (line 13), the others kept.
    in.status_path = dir.write("damaged_status", with_nul(kStatus, "Status: hold ok installed\nArch"));
    // extended_states: the first stanza is broken, the second is read.
    in.extended_states_path = dir.write("damaged_extended_states",
                                        "Package: foo\nAuto-Installed 1\n\nPackage: bar\nAuto-Installed: 1\n");
    // Sources: the second stanza is broken.
    in.indices[3].path = dir.write("damaged_Sources", std::string(kSources) + "\n\tcontinuation first\n");
    // Translation: a NUL in the text of foo.
    in.indices[2].path = dir.write("damaged_Translation-en", with_nul(kTranslation, "Foo does"));
    BuildResult r = build_cache(in);
    Cache c = Cache::from_image(std::move(r.image));
    const std::string packages_file = in.indices[0].path;
    EXPECT_TRUE(has_warning(r.diagnostics, packages_file + ":27: NUL byte in field 'Description'; its value ends there"));
    EXPECT_TRUE(has_warning(r.diagnostics, packages_file + ":34: line has no ':' (expected \"Field: value\"); the stanza was skipped"));
    EXPECT_TRUE(has_warning(r.diagnostics, in.status_path + ":13: NUL byte in line; the stanza was skipped"));
    EXPECT_TRUE(has_warning(r.diagnostics, in.extended_states_path + ":2: line has no ':'"));
    EXPECT_TRUE(has_warning(r.diagnostics, in.indices[3].path + ":10: continuation line before the first field"));
    EXPECT_TRUE(has_warning(r.diagnostics, in.indices[2].path + ":4: NUL byte in field 'Description-en'"));
    // Every damaged stanza gives one warning (besides b_Packages' bad Depends).
    EXPECT_EQ(r.diagnostics.size(), 7u);
    for (const auto& d : r.diagnostics) EXPECT_EQ(d.level, aptus::Level::Warning) << d.message;

    EXPECT_NE(c.find_package("foo", "amd64"), nullptr);
    ASSERT_NE(c.find_package("bar", "amd64"), nullptr);
    const Version& bar = c.versions_of(*c.find_package("bar", "amd64"))[0];
    EXPECT_EQ(c.long_description(bar), "bar\n Long");
    // libc6 is only in the skipped stanza; the other files' packages stay.
    EXPECT_EQ(c.find_package("libc6", "amd64"), nullptr);
    EXPECT_NE(c.find_package("broken", "amd64"), nullptr);
    // local-only's status stanza is skipped; foo and bar are still installed,
    // bar is automatic (the readable stanza of extended_states), foo is not.
    EXPECT_EQ(c.find_package("local-only", "amd64"), nullptr);
    EXPECT_NE(c.current_version(*c.find_package("foo", "amd64")), nullptr);
    EXPECT_TRUE(c.find_package("bar", "amd64")->flags & kPackageAuto);
    EXPECT_FALSE(c.find_package("foo", "amd64")->flags & kPackageAuto);
    EXPECT_EQ(c.sources().size(), 2u);
}

// A file of nothing but damaged stanzas does not flood the terminal: the
// first ten are named, one more line counts the rest.
TEST_F(CacheBuild, ManyDamagedStanzasGiveTenWarningsAndACount) {
    std::string text;
    for (int i = 0; i < 50000; ++i) text += "Package: p" + std::to_string(i) + "\nbroken\n\n";
    text += "Package: last\nVersion: 1\n";
    CacheInputs in = inputs;
    in.indices[0].path = dir.write("flood_Packages", text);
    BuildResult r = build_cache(in);
    Cache c = Cache::from_image(std::move(r.image));
    EXPECT_NE(c.find_package("last", "amd64"), nullptr);
    size_t named = 0;
    for (const auto& d : r.diagnostics) named += d.message.rfind(in.indices[0].path + ":", 0) == 0;
    EXPECT_EQ(named, 11u);
    EXPECT_TRUE(has_warning(r.diagnostics, in.indices[0].path + ": 49990 more malformed stanzas or NUL bytes not shown"));
    EXPECT_TRUE(has_warning(r.diagnostics, in.indices[0].path + ":2: line has no ':'"));
}

TEST_F(CacheBuild, BigPackagesFileReadInChunksLosesNothingAndNamesTheRightLines) {
    // Packages files are cut into chunks of ~200 kB prepared on two threads,
    // each chunk counting its lines from 1: every stanza must arrive once,
    // and warnings and errors must name the line in the whole file.
    std::string text;
    constexpr int kStanzas = 30000, kBroken = 25000;  // ~1.3 MB: several chunks
    for (int i = 0; i < kStanzas; ++i) {
        text += "Package: p" + std::to_string(i) + "\nVersion: 1\nArchitecture: amd64\n";
        text += i == kBroken ? "Depends: a (>= \n" : "Depends: p" + std::to_string(i + 1) + "\n";
        text += "\n";
    }
    CacheInputs in = inputs;
    in.indices[0].path = dir.write("big_Packages", text);
    BuildResult r = build_cache(in);
    Cache c = Cache::from_image(std::move(r.image));
    for (int i = 0; i < kStanzas; i += 997) EXPECT_NE(c.find_package("p" + std::to_string(i), "amd64"), nullptr) << i;
    EXPECT_NE(c.find_package("p" + std::to_string(kStanzas - 1), "amd64"), nullptr);
    // 5 lines per stanza; Depends is the 4th line of its stanza.
    std::string where = in.indices[0].path + ":" + std::to_string(kBroken * 5 + 4) + ": ";
    bool warned = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                              [&](const aptus::Diagnostic& d) { return d.message.rfind(where, 0) == 0; });
    EXPECT_TRUE(warned) << where;

    // A line without ':' at the end, and a NUL in a value of a stanza in a
    // later chunk than the first: skipped and cut, named at their lines in
    // the whole file, the other stanzas all there.
    std::string bad = text.substr(0, text.size() - 1) + "Package b\n";
    const size_t nul_stanza = 17000;
    bad.insert(bad.find("Package: p" + std::to_string(nul_stanza) + "\nVersion: 1") + 26, 1, '\0');
    in.indices[0].path = dir.write("bad_big_Packages", bad);
    r = build_cache(in);
    Cache c2 = Cache::from_image(std::move(r.image));
    EXPECT_TRUE(has_warning(r.diagnostics, in.indices[0].path + ":" + std::to_string(kStanzas * 5) + ": line has no ':'"));
    EXPECT_TRUE(has_warning(r.diagnostics, in.indices[0].path + ":" + std::to_string(nul_stanza * 5 + 2) +
                                               ": NUL byte in field 'Version'"));
    for (int i = 0; i < kStanzas; i += 997) EXPECT_NE(c2.find_package("p" + std::to_string(i), "amd64"), nullptr) << i;
    ASSERT_NE(c2.find_package("p" + std::to_string(nul_stanza), "amd64"), nullptr);
    EXPECT_EQ(c2.str(c2.versions_of(*c2.find_package("p" + std::to_string(nul_stanza), "amd64"))[0].version), "1");
}

TEST_F(CacheBuild, StanzasBiggerThanAReadAndRunsOfBlankLinesKeepEveryStanzaWhereItIs) {
    // Index files are read a piece at a time (Packages in ~200 kB chunks on
    // two threads, the rest in ~256 kB pieces), cut at blank lines: a stanza
    // bigger than a piece, runs of blank lines and stanzas across the cut
    // points must all arrive once, with their offsets in the whole file (the
    // cache reads the stanza and the long description back from there).
    constexpr int kStanzas = 4000;
    auto md5 = [](int i) {
        std::string h = std::to_string(i);
        return std::string(32 - h.size(), 'a') + h;
    };
    auto huge = [](int i) { return i == 700 || i == 3100; };
    std::string packages, translation;
    for (int i = 0; i < kStanzas; ++i) {
        std::string name = "s" + std::to_string(i);
        packages += "Package: " + name + "\nVersion: 1\nArchitecture: amd64\nDescription: short " + name + "\n";
        if (huge(i))
            for (int l = 0; l < 30000; ++l) packages += " packages line " + std::to_string(l) + "\n";
        packages += "Description-md5: " + md5(i) + "\n";
        packages += i % 7 == 0 ? "\n\n\n" : "\n";
        translation += "Package: " + name + "\nDescription-md5: " + md5(i) + "\nDescription-en: short " + name +
                       "\n translated " + name + "\n";
        if (huge(i))
            for (int l = 0; l < 30000; ++l) translation += " translated line " + std::to_string(l) + "\n";
        translation += i % 5 == 0 ? "\n \t\n\n" : "\n";
    }
    ASSERT_GT(packages.size(), size_t(1) << 20);
    CacheInputs in = inputs;
    in.indices[0].path = dir.write("pieces_Packages", packages);
    in.indices[2].path = dir.write("pieces_Translation-en", translation);
    BuildResult r = build_cache(in);
    Cache c = Cache::from_image(std::move(r.image));
    for (int i = 0; i < kStanzas; ++i) {
        std::string name = "s" + std::to_string(i);
        const Package* p = c.find_package(name, "amd64");
        ASSERT_NE(p, nullptr) << name;
        ASSERT_EQ(p->version_count, 1u) << name;
        const Version& v = c.versions_of(*p)[0];
        std::string_view stanza = c.stanza(c.files_of(v)[0]);
        ASSERT_EQ(stanza.substr(0, 10 + name.size()), "Package: " + name + "\n") << name;
        std::string_view desc = c.long_description(v);
        ASSERT_EQ(desc.substr(0, 19 + 2 * name.size()), "short " + name + "\n translated " + name) << name;
        if (huge(i)) EXPECT_TRUE(desc.ends_with("\n translated line 29999")) << name;
    }
}

}  // namespace

TEST_F(CacheBuild, NamesAreCaseInsensitiveAsApts) {
    // An index's "WorldOfGoo" is the installed "worldofgoo": one name, in
    // lower case, found by either spelling, its versions together.
    CacheInputs in = inputs;
    in.indices[0].path = dir.write("mixed_Packages", "Package: WorldOfGoo\nVersion: 2\nArchitecture: all\n\n"
                                                     "Package: other\nVersion: 1\nArchitecture: amd64\n"
                                                     "Depends: WORLDOFGOO\n");
    in.status_path = dir.write("mixed_status", "Package: worldofgoo\nStatus: install ok installed\nVersion: 1\n"
                                               "Architecture: all\n");
    Cache c = Cache::from_image(build_cache(in).image);
    const Package* p = c.find_package("worldofgoo", "amd64");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(c.name_of(*p), "worldofgoo");
    EXPECT_EQ(c.find_package("WorldOfGoo", "amd64"), p);
    EXPECT_EQ(c.versions_of(*p).size(), 2u);
    auto n = c.find_name("WorldofGoo");
    ASSERT_TRUE(n.has_value());
    EXPECT_EQ(c.str(c.names()[*n].name), "worldofgoo");
}

TEST_F(CacheBuild, SameVersionWithOtherRelationsIsAnotherVersionAsInApt) {
    // apt keeps one version per version string only while the stanzas agree
    // on Installed-Size, Depends, Pre-Depends, Conflicts, Breaks, Replaces
    // (its version hash), Size and Multi-Arch; another Depends makes a
    // second version, read after the first and sorted after it, with its own
    // Provides. Provides or Recommends alone do not.
    CacheInputs in = inputs;
    in.indices.resize(1);
    in.indices[0].path = dir.write("dup_Packages",
                                   "Package: extra\nVersion: 1\nArchitecture: all\nInstalled-Size: 4\n"
                                   "Provides: abi-1\n\n"
                                   "Package: extra\nVersion: 1\nArchitecture: all\nInstalled-Size: 4\n"
                                   "Depends: missing\nProvides: abi-2\n\n"
                                   "Package: extra\nVersion: 1\nArchitecture: all\nInstalled-Size: 4\n"
                                   "Recommends: other\nProvides: abi-3\n\n");
    in.status_path = dir.write("dup_status", "");
    Cache c = Cache::from_image(build_cache(in).image);
    const Package* p = c.find_package("extra", "amd64");
    ASSERT_NE(p, nullptr);
    auto vs = c.versions_of(*p);
    ASSERT_EQ(vs.size(), 2u);
    EXPECT_EQ(vs[0].dependency_count, 0u);
    EXPECT_EQ(c.files_of(vs[0]).size(), 2u);  // the first and the third stanza
    EXPECT_EQ(vs[1].dependency_count, 1u);
    EXPECT_EQ(c.files_of(vs[1]).size(), 1u);
    auto n = c.find_name("abi-2");
    ASSERT_TRUE(n.has_value());
    EXPECT_EQ(c.providers(*n).size(), 1u);
    ASSERT_EQ(c.provides_of(vs[1]).size(), 1u);
    EXPECT_EQ(c.str(c.names()[c.provides_of(vs[1])[0].name].name), "abi-2");
}

TEST_F(CacheBuild, InstalledStanzaWithOtherRelationsIsAnotherVersionUnlessHalfInstalled) {
    // dpkg's record of an installed version whose Breaks the archive changed
    // is a version of its own (apt upgrades it to the archive's); a
    // half-installed one, whose fields dpkg may not have written yet, is the
    // archive's version (a run again fetches it).
    CacheInputs in = inputs;
    in.indices.resize(1);
    in.indices[0].path = dir.write("st_Packages",
                                   "Package: core\nVersion: 2\nArchitecture: all\nBreaks: video-6\n\n"
                                   "Package: lib\nVersion: 1\nArchitecture: all\nDepends: core\n\n");
    in.status_path = dir.write("st_status",
                               "Package: core\nStatus: install ok installed\nVersion: 2\nArchitecture: all\n"
                               "Breaks: video-5\n\n"
                               "Package: lib\nStatus: install reinstreq half-installed\nVersion: 1\n"
                               "Architecture: all\n\n");
    Cache c = Cache::from_image(build_cache(in).image);
    const Package* core = c.find_package("core", "amd64");
    ASSERT_NE(core, nullptr);
    ASSERT_EQ(c.versions_of(*core).size(), 2u);
    EXPECT_EQ(c.current_version(*core), &c.versions_of(*core)[1]);  // the archive's is listed first
    const Package* lib = c.find_package("lib", "amd64");
    ASSERT_NE(lib, nullptr);
    ASSERT_EQ(c.versions_of(*lib).size(), 1u);
    EXPECT_EQ(c.current_version(*lib), &c.versions_of(*lib)[0]);
}
