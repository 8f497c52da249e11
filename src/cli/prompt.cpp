#include "cli/prompt.hpp"

#include "aptus/base/error.hpp"
#include "cli/output.hpp"

#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace aptus::cli {
namespace {

bool echo_answer(bool yes) {
    std::fputs(yes ? "Y\n" : "N\n", stdout);
    std::fflush(stdout);
    return yes;
}

}  // namespace

bool ask_yes_no(const config::Config& config, std::string_view question, PromptOptions options) {
    bool terminal = ::isatty(STDIN_FILENO);
    // Keys pressed while the command was working are not an answer; flushed
    // before the question shows, so nothing typed after it is lost.
    if (terminal) ::tcflush(STDIN_FILENO, TCIFLUSH);
    std::fwrite(question.data(), 1, question.size(), stdout);
    std::fputs(options.default_yes ? " [Y/n] " : " [y/N] ", stdout);
    std::fflush(stdout);

    if (config.find_bool("APT::Get::Assume-Yes")) return echo_answer(true);
    if (config.find_bool("APT::Get::Assume-No")) return echo_answer(false);
    if (!terminal && options.decline_without_terminal) return echo_answer(false);

    std::string answer;
    int c;
    while ((c = std::getchar()) != EOF && c != '\n') answer += char(c);
    if (c == EOF && answer.empty()) return false;
    // Like apt, a piped answer is echoed so the log shows what was chosen.
    if (!terminal) std::printf("%s\n", answer.c_str());
    size_t start = answer.find_first_not_of(" \t");
    if (start == std::string::npos) return options.default_yes;
    return ::rpmatch(answer.c_str() + start) == 1;
}

bool ask_continue(const config::Config& config, Diagnostics& pending) {
    if (config.find_bool("APT::Get::Assume-Yes") || config.find_int("quiet", 0) >= 2) return true;
    bool warned = false;
    for (const Diagnostic& d : pending) warned = warned || d.level == Level::Warning;
    bool assume_no = config.find_bool("APT::Get::Assume-No");
    if (!assume_no) {
        Diagnostics shown;
        bool quiet = config.find_int("quiet", 0) > 0;
        for (const Diagnostic& d : pending)
            if (!quiet || d.level == Level::Warning) shown.push_back(d);
        std::fflush(stdout);
        render(shown);
        std::fflush(stderr);
    }
    pending.clear();
    // The 3.0 layout's words, or apt 2's with the classic one.
    const char* question = classic_layout(config) ? "Do you want to continue?"
                           : warned               ? "Continue anyway?"
                                                  : "Continue?";
    bool yes = ask_yes_no(config, question, {.default_yes = !warned});
    if (!yes) {
        std::fputs("Abort.\n", stdout);
        std::fflush(stdout);
    }
    return yes;
}

bool ask_harmful(const config::Config& config) {
    if (config.find_bool("APT::Get::Assume-Yes") || config.find_int("quiet", 0) >= 2) return true;
    constexpr std::string_view phrase = "Yes, do as I say!";
    bool terminal = ::isatty(STDIN_FILENO);
    if (terminal) ::tcflush(STDIN_FILENO, TCIFLUSH);
    std::printf("You are about to do something potentially harmful.\n"
                "To continue type in the phrase '%.*s'\n ?] ", int(phrase.size()), phrase.data());
    std::fflush(stdout);
    bool yes = false;
    if (!config.find_bool("APT::Get::Assume-No")) {
        std::string answer;
        int c;
        while ((c = std::getchar()) != EOF && c != '\n') answer += char(c);
        if (!terminal) std::printf("%s\n", answer.c_str());
        yes = answer == phrase;
    } else {
        std::fputs("\n", stdout);
    }
    if (!yes) std::fputs("Abort.\n", stdout);
    std::fflush(stdout);
    return yes;
}

void confirm_unauthenticated(const config::Config& config, const std::vector<std::string>& names, bool ask) {
    if (names.empty()) return;
    // apt's ShowList: words wrapped below the title, two spaces in.
    const unsigned width = plan_screen_width();
    std::string list = "WARNING: The following packages cannot be authenticated!";
    size_t used = 0;
    for (const std::string& name : names) {
        if (used == 0 || used + name.size() + 3 >= width) {
            list += "\n  ";
            used = 0;
        } else {
            list += ' ';
            ++used;
        }
        list += name;
        used += name.size();
    }
    std::printf("%s\n", list.c_str());
    if (config.find_bool("APT::Get::AllowUnauthenticated")) {
        std::fputs("Authentication warning overridden.\n", stdout);
        std::fflush(stdout);
        return;
    }
    std::fflush(stdout);
    if (!ask) throw Error("Some packages could not be authenticated");
    if (config.find_int("quiet", 0) < 2 && !config.find_bool("APT::Get::Assume-Yes")) {
        if (!ask_yes_no(config, "Install these packages without verification?", {.default_yes = false}))
            throw Error("Some packages could not be authenticated");
        return;
    }
    if (config.find_bool("APT::Get::force-yes")) return;
    throw Error("There were unauthenticated packages and -y was used without --allow-unauthenticated");
}

void check_allowed_changes(const config::Config& config, const PlanView& plan) {
    bool assume_yes = config.find_bool("APT::Get::Assume-Yes");
    bool essential = false;
    for (const PlanEntry& e : plan.remove) essential = essential || e.essential;
    if (essential && !config.find_bool("APT::Get::allow-remove-essential")) {
        if (assume_yes) throw Error("Essential packages were removed and -y was used without --allow-remove-essential.");
        throw Error("Removing essential system-critical packages is not permitted. This might break the system.");
    }
    if (!assume_yes) return;
    if (!plan.downgrade.empty() && !config.find_bool("APT::Get::allow-downgrades"))
        throw Error("Packages were downgraded and -y was used without --allow-downgrades.");
    if (!plan.held_changes.empty() && !config.find_bool("APT::Get::allow-change-held-packages"))
        throw Error("Held packages were changed and -y was used without --allow-change-held-packages.");
}

}  // namespace aptus::cli
