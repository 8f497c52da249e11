// The request of install, remove, purge and friends as apt-get reads it:
// `pkg`, `pkg=version`, `pkg/release`, `pkg:arch`, a trailing `-` (remove)
// or `+` (install) against the command's own action, shell globs, apt's
// search patterns (package_pattern.hpp: a word starting with '?' or '~'); with
// apt's notes on stdout and apt's messages for what names nothing.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "aptus/cache/cache.hpp"
#include "aptus/config/config.hpp"
#include "aptus/solver/solver.hpp"
#include "aptus/system/candidates.hpp"
#include "aptus/system/system_universe.hpp"

namespace aptus::request {

enum class RequestAction { Install, Remove };

struct CommandRequest {
    solver::Request request;
    std::vector<std::string> notes;   // printed before the plan ("Note, selecting ...", "... is already the newest version")
    std::vector<std::string> errors;  // apt's E: lines; when any, nothing is solved
    std::vector<uint32_t> unheld;     // universe packages whose hold the request lifts (named explicitly)
    // Named for removal, with only their configuration files left: a purge
    // removes those, a remove has nothing to do ("not installed").
    std::vector<const cache::Package*> config_files;
    // Named for install at the version already installed (--reinstall takes
    // these again), and the automatic ones among them, manual from now on.
    std::vector<const cache::Package*> already_installed, now_manual;
    // Named by a .deb that is not what dpkg recorded for the same version
    // (other relations): installed again without --reinstall.
    std::vector<const cache::Package*> reinstall;
};

// What a word means to apt: is it a glob (any of *?[), and the action a
// trailing modifier gives it when `exists` says no package has the whole word.
struct RequestWord {
    std::string text;  // without the modifier
    RequestAction action;
    bool glob = false;
};
RequestWord classify_word(std::string_view word, RequestAction default_action, bool whole_word_exists);

// The settings every such command takes from the configuration:
// Install-Recommends/-Suggests, Strict-Pinning, Purge, AutomaticRemove,
// RemoveManual and the autoremove keys.
void apply_request_settings(const config::Config& config, solver::Request& request);

// Reads the words into a request against `su`, which it changes as apt
// changes its depcache: pkg=version and pkg/release make that version the
// candidate, named packages lose their hold and their automatic mark.
// `reinstall` (or APT::Get::ReInstall): an installed version named is not
// "already the newest version", it is to be installed again.
CommandRequest read_request(system::SystemUniverse& su, const cache::Cache& cache,
                            const system::Candidates& candidates, const config::Config& config,
                            RequestAction default_action, std::span<const std::string> words,
                            bool reinstall = false);

// apt's "Label:Version/Suite [arch]" text of a version (every release that
// has it, once each), as the Inst and Conf lines and "Selected version" print it.
std::string release_text(const cache::Cache& cache, const cache::Version& v);

}  // namespace aptus::request
