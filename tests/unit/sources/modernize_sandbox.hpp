// A root directory for modernize tests: Dir points at it, so every path the
// planner reads (sources, lists, keyrings) lives inside it.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"
#include "aptus/config/init.hpp"
#include "aptus/sources/modernize.hpp"
#include "support/test_support.hpp"

namespace aptus::test {

struct ModernizeSandbox {
    TempDir dir{"modernize"};
    config::Config config;
    Diagnostics diags;

    ModernizeSandbox() {
        config::set_builtin_defaults(config);
        config.set("Dir", dir.path() + "/");
        dir.mkdir("etc/apt/sources.list.d");
        dir.mkdir("var/lib/apt/lists");
    }
    std::string root() const { return dir.path() + "/"; }
    std::string parts() const { return root() + "etc/apt/sources.list.d/"; }
    sources::ModernizePlan plan() { return sources::plan_modernize(config, diags); }

    // Every file and directory under the root with its content ("<dir>" for
    // directories), to prove that nothing changed.
    std::map<std::string, std::string> snapshot() const {
        std::map<std::string, std::string> out;
        for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path())) {
            std::string rel = e.path().string().substr(dir.path().size());
            if (e.is_directory()) {
                out[rel] = "<dir>";
            } else {
                std::ifstream in(e.path(), std::ios::binary);
                std::stringstream ss;
                ss << in.rdbuf();
                out[rel] = ss.str();
            }
        }
        return out;
    }
};

}  // namespace aptus::test
