// Where apt finds the machine id and how the configuration turns into the
// phasing rule: APT::Machine-ID, the machine-id file under the root, the
// include/exclude switches and the chroot check.
#include "aptus/system/phased_updates.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "support/test_support.hpp"

using namespace aptus;

namespace {

constexpr const char* kMachine = "912e43bd1c1d4ba481f9f8ccab25f9ee";
const policy::Phase kOut{"phased2", "50", 50};  // this machine's draw leaves it out

config::Config root_config(const test::TempDir& root) {
    config::Config c;
    c.set("Dir", root.path() + "/");
    c.set("Dir::Etc", "etc/apt/");
    c.set("Dir::Bin::ischroot", "/bin/false");
    return c;
}

}  // namespace

TEST(PhasedUpdates, MachineIdFromTheConfigurationThenTheFile) {
    test::TempDir root("phased");
    config::Config c = root_config(root);
    EXPECT_EQ(system::machine_id(c), "");  // no file: no id
    root.mkdir("etc/apt");  // the path goes through it, as apt's does
    root.write("etc/machine-id", std::string(kMachine) + "\n");
    EXPECT_EQ(system::machine_id(c), kMachine);  // <Dir::Etc>/../machine-id
    root.write("other-id", "0123\nignored\n");
    c.set("Dir::Etc::machine-id", root.file("other-id"));
    EXPECT_EQ(system::machine_id(c), "0123");
    c.set("Dir::Etc::machine-id", "/dev/null");
    EXPECT_EQ(system::machine_id(c), "");
    c.set("APT::Machine-ID", "abc");
    EXPECT_EQ(system::machine_id(c), "abc");
}

TEST(PhasedUpdates, TheRulesInAptsOrder) {
    ::unsetenv("SOURCE_DATE_EPOCH");
    test::TempDir root("phased");
    config::Config c = root_config(root);
    c.set("APT::Machine-ID", kMachine);
    EXPECT_TRUE(system::phasing_from_config(c).excludes(kOut));
    EXPECT_FALSE(system::phasing_from_config(c).by_policy());

    config::Config always = c;
    always.set("Update-Manager::Always-Include-Phased-Updates", "true");
    EXPECT_FALSE(system::phasing_from_config(always).excludes(kOut));
    always.set("APT::Get::Always-Include-Phased-Updates", "false");  // apt's own key decides
    EXPECT_TRUE(system::phasing_from_config(always).excludes(kOut));

    config::Config never = c;
    never.set("APT::Machine-ID", "");
    never.set("Dir::Etc::machine-id", "/dev/null");
    EXPECT_FALSE(system::phasing_from_config(never).excludes(kOut));  // no machine id: everyone
    never.set("APT::Get::Never-Include-Phased-Updates", "1");
    EXPECT_TRUE(system::phasing_from_config(never).excludes(kOut));   // ... but never wins

    config::Config chroot = c;
    chroot.set("Dir::Bin::ischroot", "/bin/true");
    EXPECT_FALSE(system::phasing_from_config(chroot).excludes(kOut));
    chroot.set("Dir::Bin::ischroot", root.file("no-such-program"));
    EXPECT_TRUE(system::phasing_from_config(chroot).excludes(kOut));

    ::setenv("SOURCE_DATE_EPOCH", "0", 1);
    EXPECT_FALSE(system::phasing_from_config(c).excludes(kOut));
    ::unsetenv("SOURCE_DATE_EPOCH");

    c.set("APT::Get::Phase-Policy", "1");
    EXPECT_TRUE(system::phasing_from_config(c).by_policy());
}
