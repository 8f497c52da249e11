#include "cli/commands/plan_test_cmd.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <langinfo.h>
#include <sstream>
#include <string>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "cli/color.hpp"
#include "cli/output.hpp"
#include "cli/plan_view.hpp"
#include "cli/prompt.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec plan_test_table[] = {
    {0, "assume-no", "APT::Get::Assume-No", ArgKind::Flag, "answer no to every question"},
    {'V', "verbose-versions", "APT::Get::Show-Versions", ArgKind::Flag, "show the versions of every package in the plan"},
    {0, "list-columns", "APT::Get::List-Columns", ArgKind::Flag, "lay out package lists in columns"},
    {0, "color", "APT::Color", ArgKind::Flag, "colours (the default on a terminal; --no-color, NO_COLOR: none)"},
    {0, "allow-remove-essential", "APT::Get::allow-remove-essential", ArgKind::Flag, "allow removing Essential and protected packages"},
    {0, "allow-downgrades", "APT::Get::allow-downgrades", ArgKind::Flag, "allow downgrades without asking"},
    {0, "allow-change-held-packages", "APT::Get::allow-change-held-packages", ArgKind::Flag, "allow changing held packages without asking"},
};

uint64_t number(const std::string& text, const std::string& where) {
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || text[0] == '-') throw Error(where + ": not a number: " + text);
    return v;
}

PlanEntry entry(std::istringstream& words, const std::string& where) {
    PlanEntry e;
    std::string word;
    if (!(words >> word)) throw Error(where + ": missing package name");
    size_t colon = word.find(':');
    e.name = word.substr(0, colon);
    if (colon != std::string::npos) e.arch = word.substr(colon + 1);
    while (words >> word) {
        if (word.rfind("old=", 0) == 0) e.old_version = word.substr(4);
        else if (word.rfind("new=", 0) == 0) e.new_version = word.substr(4);
        else if (word.rfind("due=", 0) == 0) e.due_to = word.substr(4);
        else if (word == "purge") e.purge = true;
        else if (word == "essential") e.essential = true;
        else if (word == "auto") e.automatic = true;
        else throw Error(where + ": unknown word " + word);
    }
    return e;
}

void named(std::istringstream& words, const std::string& where, std::vector<std::string>& names,
           std::vector<std::string>* versions) {
    std::string name, word, version;
    if (!(words >> name)) throw Error(where + ": missing package name");
    while (words >> word) {
        if (word.rfind("version=", 0) == 0 && versions) version = word.substr(8);
        else throw Error(where + ": unknown word " + word);
    }
    // An or-group's later members are written "| name" (one word, the bar
    // and the name joined by '|'), so the file stays one item a line.
    if (name.size() > 1 && name[0] == '|') name = "| " + name.substr(1);
    names.push_back(name);
    if (versions) versions->push_back(version);
}

PlanView read_plan(const std::string& path, Diagnostics& pending) {
    std::string text = read_file(path);
    PlanView plan;
    std::istringstream lines(text);
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n) {
        std::string where = path + ":" + std::to_string(n);
        if (size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        std::string key;
        if (!(words >> key)) continue;
        auto value = [&] {
            std::string v;
            if (!(words >> v)) throw Error(where + ": " + key + " needs a value");
            return v;
        };
        if (key == "upgrade") plan.upgrade.push_back(entry(words, where));
        else if (key == "install") plan.install.push_back(entry(words, where));
        else if (key == "install-deps") plan.install_deps.push_back(entry(words, where));
        else if (key == "reinstall") plan.reinstall.push_back(entry(words, where));
        else if (key == "downgrade") plan.downgrade.push_back(entry(words, where));
        else if (key == "remove") plan.remove.push_back(entry(words, where));
        else if (key == "held") plan.held_changes.push_back(entry(words, where));
        else if (key == "not-upgraded") plan.not_upgraded.push_back(entry(words, where));
        else if (key == "phased") plan.phased.push_back(entry(words, where));
        else if (key == "suggested") named(words, where, plan.suggested, &plan.suggested_versions);
        else if (key == "recommended") named(words, where, plan.recommended, &plan.recommended_versions);
        else if (key == "autoremovable") named(words, where, plan.autoremovable_hint, nullptr);
        else if (key == "download") plan.download_bytes = number(value(), where);
        else if (key == "archives") plan.archive_bytes = number(value(), where);
        else if (key == "available") plan.space_available = number(value(), where);
        else if (key == "not-upgraded-count") plan.not_upgraded_count = number(value(), where);
        else if (key == "broken") plan.broken_count = number(value(), where);
        else if (key == "space") {
            std::string v = value();
            bool freed = !v.empty() && v[0] == '-';
            uint64_t bytes = number(freed ? v.substr(1) : v, where);
            plan.space_change_bytes = freed ? -int64_t(bytes) : int64_t(bytes);
        } else if (key == "boot") {
            BootSpace boot;
            boot.dir = value();
            boot.needed = number(value(), where);
            boot.available = number(value(), where);
            plan.boot = boot;
        } else if (key == "warning") {
            std::string rest;
            std::getline(words >> std::ws, rest);
            pending.push_back({Level::Warning, rest});
        } else {
            throw Error(where + ": unknown line " + key);
        }
    }
    return plan;
}

}  // namespace

std::span<const OptionSpec> plan_test_options() { return plan_test_table; }

int run_internal_plan_test(Context& ctx) {
    if (ctx.args.size() != 1) throw Error("internal-plan-test needs one file");
    Diagnostics pending;
    PlanView plan = read_plan(ctx.args[0], pending);

    PlanViewOptions options;
    options.width = plan_screen_width(&ctx.diags);
    options.color = color_wanted(ctx.config, ::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"),
                                 std::getenv("APT_NO_COLOR"));
    options.colors = plan_colors(ctx.config);
    options.show_versions = ctx.config.find_bool("APT::Get::Show-Versions");
    options.list_columns = ctx.config.find_bool("APT::Get::List-Columns", true);
    options.simulate = ctx.config.find_bool("APT::Get::Simulate");
    options.utf8 = std::string_view(nl_langinfo(CODESET)) == "UTF-8";
    options.native_arch = ctx.config.find("APT::Architecture");

    render(ctx.diags);
    ctx.diags.clear();
    std::string text = render_plan(plan, options);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    if (options.simulate) return 0;

    check_allowed_changes(ctx.config, plan);
    bool yes = ask_continue(ctx.config, pending);
    // What -y left unsaid comes at the end of the command, as in apt.
    render(pending);
    return yes ? 0 : 1;
}

}  // namespace aptus::cli
