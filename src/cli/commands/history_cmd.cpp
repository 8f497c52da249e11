#include "cli/commands/history_cmd.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "aptus/install/history_target.hpp"
#include "cli/commands/install_cmd.hpp"
#include "cli/terminal.hpp"

namespace aptus::cli {
namespace {

// Bumped when a field changes meaning or goes away; new fields keep it.
constexpr int json_schema_version = 1;

using system::HistoryEntry;
using system::HistoryItem;

void print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// The actions in apt's order, with the letters the list uses when an
// entry did more than one kind of thing.
struct ActionKind {
    const char* name;
    const char* json;
    char letter;
    std::vector<HistoryItem> HistoryEntry::*items;
};
constexpr ActionKind action_kinds[] = {
    {"Install", "install", 'I', &HistoryEntry::install},
    {"Reinstall", "reinstall", 'R', &HistoryEntry::reinstall},
    {"Upgrade", "upgrade", 'U', &HistoryEntry::upgrade},
    {"Downgrade", "downgrade", 'D', &HistoryEntry::downgrade},
    {"Remove", "remove", 'E', &HistoryEntry::remove},
    {"Purge", "purge", 'P', &HistoryEntry::purge},
};

size_t altered(const HistoryEntry& e) {
    size_t n = 0;
    for (const ActionKind& k : action_kinds) n += (e.*k.items).size();
    return n;
}

std::string actions_text(const HistoryEntry& e) {
    std::vector<const ActionKind*> used;
    for (const ActionKind& k : action_kinds)
        if (!(e.*k.items).empty()) used.push_back(&k);
    if (used.size() == 1) return used[0]->name;
    std::string out;
    for (const ActionKind* k : used) {
        if (!out.empty()) out += ", ";
        out += k->letter;
    }
    return out;
}

// "2024-01-31  12:34:56" -> "2024-01-31 12:34"; other text as it is.
std::string short_date(const std::string& d) {
    auto words = split_words(d);
    if (words.size() == 2 && words[1].size() >= 5) return std::string(words[0]) + " " + std::string(words[1].substr(0, 5));
    return d;
}

// apt's date text as ISO 8601 (local time, as apt writes it), "" when it is
// not in apt's form.
std::string iso_date(const std::string& d) {
    auto words = split_words(d);
    if (words.size() != 2) return "";
    return std::string(words[0]) + "T" + std::string(words[1]);
}

std::string fit(const std::string& s, size_t width) { return fit_column(s, width); }

std::string pad_left(const std::string& s, size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

void print_list(const std::vector<HistoryEntry>& entries) {
    const size_t id_w = std::max<size_t>(2, std::to_string(entries.size()).size());
    const size_t date_w = 16, action_w = 13, altered_w = 7;
    // Two spaces between columns, and room for the " E" of a failed run.
    const size_t fixed = id_w + 2 + 2 + date_w + 2 + action_w + 2 + altered_w + 2;
    size_t columns = size_t(std::max(terminal_columns(), 40));
    size_t cmd_w = columns > fixed + 20 ? columns - fixed : 20;
    size_t longest = 12;
    std::vector<std::string> commands;
    for (const auto& e : entries) {
        commands.push_back(system::history_command_summary(e.commandline));
        longest = std::max(longest, column_width(commands.back()));
    }
    cmd_w = std::min(cmd_w, longest);
    std::string out = pad_left("ID", id_w) + "  " + fit("Command line", cmd_w) + "  " + fit("Date and time", date_w) + "  " +
                      fit("Action(s)", action_w) + "  " + pad_left("Altered", altered_w) + "\n";
    for (size_t i = 0; i < entries.size(); ++i) {
        const HistoryEntry& e = entries[i];
        std::string line = pad_left(std::to_string(i + 1), id_w) + "  " + fit(commands[i], cmd_w) + "  " +
                           fit(short_date(e.start_date), date_w) + "  " + fit(actions_text(e), action_w) + "  " +
                           pad_left(std::to_string(altered(e)), altered_w) + (e.error.empty() ? "" : " E");
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    print(out);
}

std::string item_text(const HistoryItem& it) {
    std::string out = it.package;
    if (!it.old_version.empty() && !it.new_version.empty()) out += " " + it.old_version + " -> " + it.new_version;
    else if (!it.old_version.empty()) out += " " + it.old_version;
    else if (!it.new_version.empty()) out += " " + it.new_version;
    if (it.automatic) out += " (automatic)";
    return out;
}

void print_info(const HistoryEntry& e, size_t id) {
    std::string out;
    auto field = [&](const char* name, const std::string& value) {
        if (!value.empty()) out += fit(name, 13) + ": " + value + "\n";
    };
    field("ID", std::to_string(id));
    field("Start-Date", e.start_date);
    field("End-Date", e.end_date.empty() ? "(none: the run did not finish)" : e.end_date);
    field("Requested-By", e.requested_by);
    field("Commandline", e.commandline);
    field("Comment", e.comment);
    field("Error", e.error);
    out += "Packages altered (" + std::to_string(altered(e)) + "):\n";
    for (const ActionKind& k : action_kinds)
        for (const HistoryItem& it : e.*k.items) out += "  " + fit(k.name, 10) + " " + item_text(it) + "\n";
    print(out);
}

nlohmann::ordered_json entry_json(const HistoryEntry& e, size_t id, bool with_items) {
    nlohmann::ordered_json j;
    j["id"] = id;
    j["start_date"] = e.start_date;
    j["end_date"] = e.end_date;
    j["start"] = iso_date(e.start_date);
    j["end"] = iso_date(e.end_date);
    j["commandline"] = e.commandline;
    j["requested_by"] = e.requested_by;
    j["comment"] = e.comment;
    j["error"] = e.error;
    j["altered"] = altered(e);
    nlohmann::ordered_json counts;
    for (const ActionKind& k : action_kinds) counts[k.json] = (e.*k.items).size();
    j["counts"] = std::move(counts);
    if (with_items) {
        nlohmann::ordered_json actions;
        for (const ActionKind& k : action_kinds) {
            auto list = nlohmann::ordered_json::array();
            for (const HistoryItem& it : e.*k.items) {
                nlohmann::ordered_json item;
                item["package"] = it.package;
                item["old_version"] = it.old_version;
                item["new_version"] = it.new_version;
                item["automatic"] = it.automatic;
                list.push_back(std::move(item));
            }
            actions[k.json] = std::move(list);
        }
        j["actions"] = std::move(actions);
    }
    return j;
}

// "N" (1 is the oldest) or "last"; no word: the last.
size_t entry_id(const std::vector<std::string>& args, size_t count, const std::string& path) {
    if (count == 0) throw Error("The history log " + path + " has no entries");
    if (args.empty() || args[0] == "last") return count;
    if (args.size() > 1) throw Error("Only a single history entry is supported at this time.");
    const std::string& w = args[0];
    size_t id = 0;
    bool digits = !w.empty() && w.size() < 10;
    for (char c : w) {
        if (c < '0' || c > '9') digits = false;
        else id = id * 10 + size_t(c - '0');
    }
    if (!digits) throw Error("'" + w + "' is no history entry: give its ID (1 is the oldest) or 'last'");
    if (id < 1 || id > count)
        throw Error("History entry " + w + " does not exist (the history has " + std::to_string(count) + " entries)");
    return id;
}

enum class Change { Undo, Redo, Rollback };

// undo N, redo N, rollback N: the entry (or the entries after it) as a
// target state, handed to install's path: request, solver, plan, prompt, dpkg.
int history_change(Context& ctx, const std::vector<HistoryEntry>& entries, const std::string& path, Change change) {
    const size_t id = entry_id(ctx.args, entries.size(), path);
    const HistoryEntry& e = entries[id - 1];
    const std::string which = "history entry " + std::to_string(id) + " (" + e.commandline + ")";
    install::TargetState target;
    std::string doing, nothing;  // what is done, and what is said when there is nothing to do
    switch (change) {
        case Change::Undo:
            target = install::undo_target(entries, id);
            doing = "Undoing " + which;
            nothing = "History entry " + std::to_string(id) + " (" + e.commandline + ") changed nothing that can be undone.";
            break;
        case Change::Redo:
            target = install::redo_target(entries, id);
            doing = "Redoing " + which;
            nothing = "History entry " + std::to_string(id) + " (" + e.commandline + ") changed nothing that can be redone.";
            break;
        case Change::Rollback:
            target = install::rollback_target(entries, id);
            doing = "Rolling back to " + which;
            if (id < entries.size())
                doing += ", undoing entr" + std::string(id + 1 == entries.size() ? "y " : "ies ") + std::to_string(id + 1) +
                         (id + 1 == entries.size() ? "" : " to " + std::to_string(entries.size()));
            nothing = "Nothing to roll back: the entries after history entry " + std::to_string(id) +
                      " leave the packages as they were after it.";
            break;
    }
    if (target.empty()) {
        print(nothing + "\n");
        return 0;
    }
    std::string text;
    for (const auto& w : install::target_words(target, ctx.config.find("APT::Architecture"))) text += " " + w;
    std::string note = doing + ": install" + text + "\n";
    // With --json stdout holds only the plan's JSON.
    if (ctx.config.find_bool("Aptus::History::JSON")) std::fputs(note.c_str(), stderr);
    else print(note);
    std::fflush(stdout);
    config::Config config = ctx.config;
    if (config.find_bool("Aptus::History::JSON")) config.set("Aptus::Plan::JSON", "true");
    Context install_ctx{config, {}, ctx.diags};
    return run_install_target(install_ctx, target);
}

}  // namespace

size_t column_width(std::string_view text) {
    size_t n = 0;
    for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // UTF-8 lead bytes
    return n;
}

std::string fit_column(const std::string& text, size_t width) {
    const size_t have = column_width(text);
    if (have <= width) return text + std::string(width - have, ' ');
    if (width == 0) return "";
    // The first width - 1 characters, then "…".
    std::string out;
    size_t taken = 0;
    for (char c : text) {
        const bool lead = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        if (lead && taken == width - 1) break;
        taken += lead;
        out += c;
    }
    return out + "\u2026";
}

std::span<const OptionSpec> history_options() {
    // --json for list and info, and everything install takes for undo.
    static const std::vector<OptionSpec> table = [] {
        std::vector<OptionSpec> t{{0, "json", "Aptus::History::JSON", ArgKind::Flag, "print the result as JSON (schema in docs/json)"}};
        for (const OptionSpec& o : install_options())
            if (o.long_name != "json") t.push_back(o);
        return t;
    }();
    return table;
}

int run_history(Context& ctx) {
    std::string op = "list";
    if (!ctx.args.empty()) {
        op = ctx.args.front();
        ctx.args.erase(ctx.args.begin());
    }
    const std::string path = system::history_log_path(ctx.config);
    std::vector<HistoryEntry> entries = system::read_history(ctx.config);
    const bool json = ctx.config.find_bool("Aptus::History::JSON");
    if (op == "list") {
        if (!ctx.args.empty()) throw Error("history list takes no package or entry words");
        if (json) {
            nlohmann::ordered_json out;
            out["schema_version"] = json_schema_version;
            out["log"] = path;
            auto list = nlohmann::ordered_json::array();
            for (size_t i = 0; i < entries.size(); ++i) list.push_back(entry_json(entries[i], i + 1, false));
            out["entries"] = std::move(list);
            print(out.dump(2) + "\n");
        } else if (entries.empty()) {
            ctx.diags.push_back({Level::Notice, "The history log " + path + " has no entries."});
        } else {
            print_list(entries);
        }
        return 0;
    }
    if (op == "info") {
        size_t id = entry_id(ctx.args, entries.size(), path);
        if (json) {
            nlohmann::ordered_json out;
            out["schema_version"] = json_schema_version;
            out["log"] = path;
            out["entry"] = entry_json(entries[id - 1], id, true);
            print(out.dump(2) + "\n");
        } else {
            print_info(entries[id - 1], id);
        }
        return 0;
    }
    if (op == "undo") return history_change(ctx, entries, path, Change::Undo);
    if (op == "redo") return history_change(ctx, entries, path, Change::Redo);
    if (op == "rollback") return history_change(ctx, entries, path, Change::Rollback);
    throw Error("Invalid operation " + op + " (history takes list, info N, undo N, redo N or rollback N)");
}

}  // namespace aptus::cli
