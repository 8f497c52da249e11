// Which automatic packages nothing keeps any more, on a small dpkg status.
#include "aptus/system/installed_system.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "aptus/cache/build.hpp"
#include "support/test_support.hpp"

namespace aptus::system {
namespace {

std::string stanza(std::string_view name, std::string_view extra = "") {
    return "Package: " + std::string(name) + "\nStatus: install ok installed\nVersion: 1\nArchitecture: amd64\n" +
           std::string(extra) + "\n";
}

std::vector<std::string> removable_names(const std::string& status, const std::string& auto_names,
                                         const config::Config& config = config::Config()) {
    test::TempDir dir;
    cache::CacheInputs in;
    in.native_architecture = "amd64";
    in.status_path = dir.write("status", status);
    std::string states;
    for (size_t pos = 0; pos < auto_names.size();) {
        size_t end = auto_names.find(' ', pos);
        if (end == std::string::npos) end = auto_names.size();
        states += "Package: " + auto_names.substr(pos, end - pos) + "\nArchitecture: amd64\nAuto-Installed: 1\n\n";
        pos = end + 1;
    }
    in.extended_states_path = dir.write("extended_states", states);
    cache::Cache c = cache::Cache::from_image(cache::build_cache(in).image);
    std::vector<std::string> out;
    for (uint32_t p : auto_removable_packages(c, config)) out.emplace_back(c.name_of(c.packages()[p]));
    std::sort(out.begin(), out.end());
    return out;
}

using Names = std::vector<std::string>;

TEST(InstalledSystem, AutomaticPackagesNothingNeedsAreRemovable) {
    std::string status = stanza("app", "Depends: libfoo | libbar\n") + stanza("libfoo", "Depends: libbase\n") +
                         stanza("libbase") + stanza("orphan") + stanza("libbar");
    // Every installed alternative of an or-group is kept, as apt keeps them.
    EXPECT_EQ(removable_names(status, "libfoo libbase orphan libbar"), Names{"orphan"});
    // Manual packages are never proposed, even when nothing needs them.
    EXPECT_EQ(removable_names(status, "libfoo libbase"), Names{});
}

TEST(InstalledSystem, ProvidesEssentialRecommendsAndNeverAutoRemove) {
    std::string status = stanza("app", "Depends: virtual-x\nRecommends: helper\n") +
                         stanza("impl", "Provides: virtual-x\n") + stanza("helper") +
                         stanza("base", "Essential: yes\nDepends: libess\n") + stanza("libess") + stanza("kernel-x");
    EXPECT_EQ(removable_names(status, "impl helper libess kernel-x"), Names{"kernel-x"});
    config::Config no_recommends;
    no_recommends.set("APT::AutoRemove::RecommendsImportant", "false");
    EXPECT_EQ(removable_names(status, "impl helper libess kernel-x", no_recommends), (Names{"helper", "kernel-x"}));
    config::Config never;
    never.set("APT::NeverAutoRemove::", "^kernel-.*");
    EXPECT_EQ(removable_names(status, "impl helper libess kernel-x", never), Names{});
}

}  // namespace
}  // namespace aptus::system
