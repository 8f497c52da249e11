// `modernize-sources`, as apt's: list the files, explain, ask, then write the
// plan (or, when declined, show it).
#include "cli/commands/modernize_cmd.hpp"

#include <cstdio>
#include <set>
#include <string>

#include "aptus/sources/modernize.hpp"
#include "cli/output.hpp"
#include "cli/prompt.hpp"

namespace aptus::cli {
namespace {

constexpr OptionSpec modernize_table[] = {
    {0, "assume-no", "APT::Get::Assume-No", ArgKind::Flag, "only show what would be rewritten; change nothing"},
};

constexpr const char* explanation =
    "Modernizing will replace .list files with the new .sources format,\n"
    "add Signed-By values where they can be determined automatically,\n"
    "and save the old files into .list.bak files.\n"
    "\n"
    "Nothing is dropped: every option in [] brackets becomes its deb822\n"
    "field (arch= becomes Architectures:, arch+= Architectures-Add:, ...),\n"
    "disabled \"# deb ...\" lines become stanzas with \"Enabled: no\", and\n"
    "comments stay above the entries they described. An explicit signed-by\n"
    "is never replaced.\n"
    "\n"
    "For a simulation, respond N in the following prompt.\n";

void print_plan(const sources::ModernizePlan& plan) {
    std::printf("The following files need modernizing:\n");
    for (const auto& in : plan.inputs) std::printf("  - %s\n", in.path.c_str());
    std::printf("\n%s", explanation);
}

// stderr, as apt: per input file, what happens to it and what to know.
void report_inputs(const sources::ModernizePlan& plan, bool written) {
    std::set<std::string> announced;
    for (const auto& in : plan.inputs) {
        std::fflush(stdout);
        std::fprintf(stderr, "Modernizing %s...\n", in.path.c_str());
        if (written) {
            for (const auto& out : in.outputs)
                if (announced.insert(out).second) std::fprintf(stderr, "- Writing %s\n", out.c_str());
            std::fprintf(stderr, "- Saved the old file as %s\n", in.backup_path.c_str());
        }
        render(in.diags);
        std::fprintf(stderr, "\n");
    }
}

void show_simulation(const sources::ModernizePlan& plan) {
    bool first = true;
    for (const auto& out : plan.outputs) {
        std::printf("%s# Would write to: %s\n%s", first ? "" : "\n", out.path.c_str(), out.added.c_str());
        first = false;
    }
    std::fflush(stdout);
}

}  // namespace

std::span<const OptionSpec> modernize_options() { return modernize_table; }

int run_modernize_sources(Context& ctx) {
    sources::ModernizePlan plan = sources::plan_modernize(ctx.config, ctx.diags);
    if (plan.empty()) {
        std::printf("All sources are modern.\n");
        return 0;
    }
    print_plan(plan);
    render(ctx.diags);
    ctx.diags.clear();

    // apt rejects -s here; simulating is what declining does, so -s declines.
    std::string question = "Rewrite " + std::to_string(plan.inputs.size()) + " sources?";
    bool yes = !ctx.config.find_bool("APT::Get::Simulate") &&
               ask_yes_no(ctx.config, question, {.default_yes = true, .decline_without_terminal = true});
    if (!yes) {
        show_simulation(plan);
        report_inputs(plan, false);
        return 0;
    }
    sources::commit_modernize(plan);
    report_inputs(plan, true);
    return 0;
}

}  // namespace aptus::cli
