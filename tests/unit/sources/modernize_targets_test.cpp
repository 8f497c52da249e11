// modernize-sources must not change what the sources mean: aptus's own index
// targets before and after the conversion are the same set.
#include <gtest/gtest.h>

#include <algorithm>

#include "aptus/config/init.hpp"
#include "aptus/sources/index_targets.hpp"
#include "aptus/sources/modernize.hpp"
#include "aptus/sources/source_list.hpp"
#include "modernize_sandbox.hpp"

namespace {

using aptus::test::ModernizeSandbox;

// Every target as apt-get indextargets prints it, without the line naming
// the file it came from (that is what changes), sorted.
std::vector<std::string> targets(ModernizeSandbox& sb) {
    aptus::Diagnostics diags;
    auto entries = aptus::sources::read_sources(sb.config, diags);
    std::vector<std::string> out;
    for (const auto& t : aptus::sources::index_targets(entries, sb.config, diags)) {
        std::string record = aptus::sources::format_index_target(t), kept;
        size_t pos = 0;
        while (pos < record.size()) {
            size_t nl = record.find('\n', pos);
            std::string line = record.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos + 1);
            if (line.rfind("Sourcesentry:", 0) != 0) kept += line;
            pos = nl == std::string::npos ? record.size() : nl + 1;
        }
        out.push_back(kept);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

struct Case {
    const char* name;
    std::vector<std::pair<std::string, std::string>> files;  // path under the root, content
};

class ModernizeTargets : public testing::TestWithParam<Case> {};

TEST_P(ModernizeTargets, SameIndexTargetsBeforeAndAfter) {
    ModernizeSandbox sb;
    sb.config.set("APT::Architecture", "amd64");
    sb.config.set("APT::Architectures::", "amd64");
    sb.config.set("APT::Architectures::", "i386");
    sb.config.set("Acquire::Languages::", "en");
    sb.config.set("Acquire::Languages::", "de");
    aptus::config::set_derived_defaults(sb.config);
    for (const auto& [path, content] : GetParam().files) sb.dir.write(path, content);

    auto before = targets(sb);
    ASSERT_FALSE(before.empty());
    aptus::sources::commit_modernize(sb.plan());
    aptus::Diagnostics diags;
    ASSERT_TRUE(aptus::sources::find_source_files(sb.config, diags).list_files.empty());
    EXPECT_EQ(targets(sb), before);
    EXPECT_TRUE(sb.plan().empty());
}

const std::string d = "etc/apt/sources.list.d/";
// Not here: allow-insecure, allow-weak, allow-downgrade-to-insecure and
// inrelease-path, which apt (and so aptus's index targets) reads only from
// one-line entries; modernize keeps them as fields and warns (modernize_test).

INSTANTIATE_TEST_SUITE_P(
    Modernize, ModernizeTargets,
    testing::Values(
        Case{"plain", {{"etc/apt/sources.list", "deb http://deb.example.org/debian bookworm main contrib\n"
                                                "deb-src http://deb.example.org/debian bookworm main\n"}}},
        Case{"options",
             {{d + "o.list",
               "deb [arch=amd64,i386 lang=de target=Packages] http://a.example/debian s main\n"
               "deb [arch+=armhf arch-=i386 lang+=fr lang-=de target+=Contents-deb target-=Translations] "
               "http://b.example/debian s main contrib\n"
               "deb [check-valid-until=no valid-until-min=1 valid-until-max=2 date-max-future=3 by-hash=force "
               "pdiffs=no trusted=yes "
               "snapshot=enable check-date=no signed-by=/k.gpg] http://c.example/debian s main\n"
               "deb-src [arch=amd64] http://a.example/debian s main\n"}}},
        Case{"disabled and comments",
             {{d + "c.list", "# head\n#deb http://x.example/ s main\ndeb http://y.example/ s main # tail\n"
                             "# deb-src http://y.example/ s main\n# end\n"}}},
        Case{"flat", {{d + "f.list", "deb http://f.example/repo ./\ndeb-src http://f.example/repo ./\n"
                                     "deb [arch=i386] http://f.example/other sub/\n"}}},
        Case{"duplicates and folding",
             {{"etc/apt/sources.list", "deb http://a.example/debian s main\n"
                                       "deb http://a.example/debian/ s main contrib\n"
                                       "deb http://a.example/debian s main\n"
                                       "deb-src http://a.example/debian s contrib\n"
                                       "deb http://a.example/debian t main\n"
                                       "deb [lang=de] http://a.example/debian s non-free\n"}}},
        Case{"several files",
             {{"etc/apt/sources.list", "deb http://deb.example.org/debian bookworm main\n"},
              {d + "a.list", "deb http://a.example/ s main\n"},
              {d + "b.list", "deb-src http://b.example/ s main\n"},
              {d + "keep.sources", "Types: deb\nURIs: http://k.example/\nSuites: s\nComponents: main\n"},
              {"var/lib/apt/lists/deb.example.org_debian_dists_bookworm_Release", "Origin: Debian\n"}}}),
    [](const testing::TestParamInfo<Case>& info) {
        std::string name = info.param.name;
        std::replace(name.begin(), name.end(), ' ', '_');
        return name;
    });

}  // namespace
