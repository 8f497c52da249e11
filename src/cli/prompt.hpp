// APT's yes/no question (YnPrompt). One place decides how -y, --assume-no and
// a missing terminal answer it, so every command asks the same way.
#pragma once

#include <string_view>

#include "aptus/config/config.hpp"

namespace aptus::cli {

struct PromptOptions {
    bool default_yes = true;  // "[Y/n]" (empty answer = yes) or "[y/N]"
    // Without a terminal on stdin and without -y, answer no instead of reading
    // stdin: for commands where a piped "yes" should not change the system.
    bool decline_without_terminal = false;
};

// Prints "<question> [Y/n] " on stdout and returns the answer.
// APT::Get::Assume-No answers no and APT::Get::Assume-Yes answers yes (no wins
// when both are set), echoing "N" or "Y" as apt does. Otherwise the answer is
// read from stdin (pending terminal input is discarded first): empty means
// the default, else the locale's yes/no expressions decide; anything else,
// or end of input, means no.
bool ask_yes_no(const config::Config& config, std::string_view question, PromptOptions options = {});

}  // namespace aptus::cli
