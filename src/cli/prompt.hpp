// APT's yes/no question (YnPrompt). One place decides how -y, --assume-no and
// a missing terminal answer it, so every command asks the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aptus/base/diagnostics.hpp"
#include "aptus/config/config.hpp"
#include "cli/plan_view.hpp"

namespace aptus::cli {

struct PromptOptions {
    bool default_yes = true;  // "[Y/n]" (empty answer = yes) or "[y/N]"
    // Without a terminal on stdin and without -y, answer no instead of reading
    // stdin: for commands where a piped "yes" should not change the system.
    bool decline_without_terminal = false;
};

// Prints "<question> [Y/n] " on stdout and returns the answer.
// APT::Get::Assume-Yes answers yes and APT::Get::Assume-No answers no (yes
// wins when both are set, as in apt), echoing "Y" or "N" as apt does.
// Otherwise the answer is read from stdin (pending terminal input is
// discarded first): empty means the default, else the locale's yes/no
// expressions decide; anything else means no. End of input means no and,
// as in apt, leaves the line open, so "Abort." follows the question.
bool ask_yes_no(const config::Config& config, std::string_view question, PromptOptions options = {});

// APT 3.0's question before a plan is carried out: "Continue? [Y/n] ", or
// "Continue anyway? [y/N] " when a warning is pending (notices do not count).
// -y, and quiet level 2 (apt-get(8): "-qq implies -y"), go on without asking
// and leave `pending` for the end of the command; --assume-no declines at
// once and the pending messages are never shown, as in apt; otherwise they are
// printed just before the question (notices only when not quiet) and removed.
// Without a terminal the answer is read from stdin as apt does, so end of
// input declines. Declining prints "Abort."; the command then exits with 1.
bool ask_continue(const config::Config& config, Diagnostics& pending);

// apt's question before an essential package is removed (allowed with
// --allow-remove-essential): the phrase 'Yes, do as I say!' typed in full
// instead of Continue? [Y/n]. -y (or -qq) goes on, --assume-no and any
// other answer print "Abort." and return false.
bool ask_harmful(const config::Config& config);

// apt's check before it fetches packages from repositories that are not
// authenticated: "WARNING: The following packages cannot be authenticated!"
// and their names, then --allow-unauthenticated goes on ("Authentication
// warning overridden."); otherwise, when `ask` and neither -y nor -qq, the
// question "Install these packages without verification? [y/N]"; a no, or
// -y without --allow-unauthenticated (--force-yes excepted), or !ask, ends
// with apt's error (thrown). Nothing to say when `names` is empty.
void confirm_unauthenticated(const config::Config& config, const std::vector<std::string>& names, bool ask);

// The changes apt refuses before asking, with its messages (thrown as
// aptus::Error, so the command ends with "E: ..." and 100): removing an
// essential package without --allow-remove-essential, and, with -y, a
// downgrade without --allow-downgrades or a held package changed without
// --allow-change-held-packages. Called after the plan is shown.
void check_allowed_changes(const config::Config& config, const PlanView& plan);

}  // namespace aptus::cli
