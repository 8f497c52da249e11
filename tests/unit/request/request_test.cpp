// The words of install/remove as apt-get reads them: modifiers, globs,
// pkg=version, pkg/release, pkg:arch, and apt's messages for what names
// nothing — on the real server sandbox (bookworm installed, trixie listed).
#include "aptus/request/request.hpp"

#include <gtest/gtest.h>

#include <optional>

#include <algorithm>

#include "aptus/config/init.hpp"
#include "aptus/system/system.hpp"
#include "unit/cli/sandbox_session.hpp"
#include "support/test_support.hpp"

using namespace aptus;
using request::RequestAction;

TEST(RequestWord, ModifiersApplyOnlyWhenTheWholeWordNamesNothing) {
    auto w = request::classify_word("hello-", RequestAction::Install, false);
    EXPECT_EQ(w.text, "hello");
    EXPECT_EQ(w.action, RequestAction::Remove);
    w = request::classify_word("hello+", RequestAction::Remove, false);
    EXPECT_EQ(w.text, "hello");
    EXPECT_EQ(w.action, RequestAction::Install);
    w = request::classify_word("g++", RequestAction::Install, true);  // a real package name
    EXPECT_EQ(w.text, "g++");
    EXPECT_EQ(w.action, RequestAction::Install);
    w = request::classify_word("hello=2.10-3-", RequestAction::Install, false);
    EXPECT_EQ(w.text, "hello=2.10-3");
    EXPECT_EQ(w.action, RequestAction::Remove);
    w = request::classify_word("-", RequestAction::Install, false);
    EXPECT_EQ(w.text, "-");
}

TEST(RequestWord, GlobsAreNamesWithShellMetacharacters) {
    EXPECT_TRUE(request::classify_word("python3-*", RequestAction::Install, false).glob);
    EXPECT_TRUE(request::classify_word("lib?oo", RequestAction::Install, false).glob);
    EXPECT_TRUE(request::classify_word("lib[ab]", RequestAction::Install, false).glob);
    EXPECT_FALSE(request::classify_word("hello", RequestAction::Install, true).glob);
    EXPECT_FALSE(request::classify_word("hello/trixie", RequestAction::Install, true).glob);
}

namespace {

struct Session : test::SandboxSession {
    system::SystemUniverse su;

    explicit Session(const std::string& root) : SandboxSession(root, "request") {
        su = system::system_universe(opened->cache, *candidates);
    }
    request::CommandRequest read(std::vector<std::string> words, RequestAction a = RequestAction::Install) {
        return request::read_request(su, opened->cache, *candidates, config, a, words);
    }
    std::string name(uint32_t package) const { return su.universe.package_name(package); }
    // The version the universe now calls the candidate of a package.
    std::string candidate(uint32_t package) const {
        for (uint32_t v : su.universe.packages[package].versions)
            if (su.universe.versions[v].candidate) return su.universe.versions[v].version;
        return "";
    }
};

}  // namespace

TEST(Request, VersionsReleasesAndModifiersInOneCommand) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Session s(root);
    request::CommandRequest r = s.read({"hello=2.10-3", "nginx-", "cowsay/bookworm", "bash:amd64"});
    ASSERT_EQ(r.errors, std::vector<std::string>{});
    ASSERT_EQ(r.request.install.size(), 3u);
    EXPECT_EQ(s.name(r.request.install[0]), "hello:amd64");
    EXPECT_EQ(s.candidate(r.request.install[0]), "2.10-3");  // bookworm's, not trixie's 2.10-5
    EXPECT_EQ(s.name(r.request.install[1]), "cowsay:amd64");
    EXPECT_EQ(s.name(r.request.install[2]), "bash:amd64");
    ASSERT_EQ(r.request.remove.size(), 1u);
    EXPECT_EQ(s.name(r.request.remove[0]), "nginx:amd64");
    // apt's note for a release selection, with the release text of the Inst lines.
    EXPECT_NE(std::find_if(r.notes.begin(), r.notes.end(),
                           [](const std::string& n) { return n.rfind("Selected version '", 0) == 0 &&
                                                             n.find("for 'cowsay'") != std::string::npos; }),
              r.notes.end());
    // bash is installed at bookworm's version and named: already there is not newest here.
    // Named packages become manual.
    EXPECT_FALSE(s.su.universe.packages[r.request.install[2]].automatic);
}

TEST(Request, AptsMessagesForWhatNamesNothing) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Session s(root);
    request::CommandRequest r = s.read({"no-such-package", "bash=9", "bash/nowhere", "no-such-*"});
    EXPECT_EQ(r.errors, (std::vector<std::string>{"Unable to locate package no-such-package",
                                                  "Version '9' for 'bash' was not found",
                                                  "Release 'nowhere' for 'bash' was not found",
                                                  "Couldn't find any package by glob 'no-such-*'"}));
    // Removing what is not installed is a note, not an error.
    request::CommandRequest rm = s.read({"hello"}, RequestAction::Remove);
    EXPECT_EQ(rm.errors, std::vector<std::string>{});
    EXPECT_EQ(rm.notes, std::vector<std::string>{"Package 'hello' is not installed, so not removed"});
    EXPECT_TRUE(rm.request.remove.empty());
}

// apt-get: a modifier after an architecture ends the word ("less:amd64-"
// removes less: the name alone existing does not make "amd64-" an
// architecture), and an architecture the system does not use names nothing.
TEST(Request, ModifiersAfterAnArchitectureAndUnknownArchitectures) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Session s(root);
    request::CommandRequest r = s.read({"less:amd64-", "hello:amd64+"});
    ASSERT_EQ(r.errors, std::vector<std::string>{});
    ASSERT_EQ(r.request.remove.size(), 1u);
    EXPECT_EQ(s.name(r.request.remove[0]), "less:amd64");
    ASSERT_EQ(r.request.install.size(), 1u);
    EXPECT_EQ(s.name(r.request.install[0]), "hello:amd64");
    request::CommandRequest bad = s.read({"less:i386", "hello:i386-"});
    EXPECT_EQ(bad.errors, (std::vector<std::string>{"Unable to locate package less:i386",
                                                    "Unable to locate package hello:i386"}));
    EXPECT_TRUE(bad.request.install.empty());
    EXPECT_TRUE(bad.request.remove.empty());
}

TEST(Request, GlobsSelectEveryMatchingPackageWithACandidate) {
    std::string root = test::real_sandbox("server");
    APTUS_REQUIRE_REAL_DATA(root);
    Session s(root);
    request::CommandRequest r = s.read({"hello*"});
    EXPECT_EQ(r.errors, std::vector<std::string>{});
    std::vector<std::string> names;
    for (uint32_t p : r.request.install) names.push_back(s.name(p));
    EXPECT_NE(std::find(names.begin(), names.end(), "hello:amd64"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "hello-traditional:amd64"), names.end());
    EXPECT_EQ(r.notes.front(), "Note, selecting 'hello' for glob 'hello*'");
}

TEST(Request, SettingsFromTheConfiguration) {
    config::Config c;
    c.set("APT::Install-Recommends", "false");
    c.set("APT::Install-Suggests", "true");
    c.set("APT::Solver::Strict-Pinning", "false");
    c.set("APT::Get::Purge", "true");
    c.set("APT::Get::AutomaticRemove", "true");
    c.set("APT::Get::allow-remove-essential", "true");
    solver::Request r;
    request::apply_request_settings(c, r);
    EXPECT_FALSE(r.install_recommends);
    EXPECT_TRUE(r.install_suggests);
    EXPECT_FALSE(r.strict_pinning);
    EXPECT_TRUE(r.purge);
    EXPECT_TRUE(r.autoremove);
    EXPECT_TRUE(r.allow_remove_essential);
}
