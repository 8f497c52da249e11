// What the CLI's tests read from a real sandbox: its configuration (with
// the cache in a temporary directory), the opened cache, the policy and
// every package's candidate, as the read and install commands start.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "aptus/config/init.hpp"
#include "aptus/system/system.hpp"
#include "support/test_support.hpp"

namespace aptus::test {

struct SandboxSession {
    TempDir tmp;
    config::Config config;
    Diagnostics diags;
    std::optional<cache::OpenResult> opened;
    std::unique_ptr<policy::Policy> policy;
    std::unique_ptr<system::Candidates> candidates;

    SandboxSession(const std::string& root, const std::string& tag) : tmp(tag) {
        config::LoadRequest req;
        req.apt_config = root + "/apt.conf";
        req.items = {{config::CommandLineItem::Kind::Set, "Dir::Cache", tmp.path() + "/"}};
        config = config::load(req, diags);
        opened.emplace(system::open_cache(config, diags));
        policy = std::make_unique<policy::Policy>(system::make_policy(config, opened->cache, diags));
        candidates = std::make_unique<system::Candidates>(opened->cache, *policy);
    }
};

}  // namespace aptus::test
