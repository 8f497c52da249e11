// A second front end on libaptus, using include/aptus only: installs a
// package with its dependencies (real dpkg), printing its own progress, and
// then undoes that from the history log.
//
//   install_and_undo PACKAGE        (APT_CONFIG or --root=DIR picks the system)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "aptus/install/session.hpp"

using namespace aptus;

namespace {

install::ExecuteObserver progress_printer() {
    install::ExecuteObserver o;
    o.download.transfers.line = [](const acquire::UpdateLine& l) {
        if (l.kind == acquire::UpdateLine::Get) std::printf("  fetched %s\n", l.description.c_str());
    };
    o.download.failed = [](const std::string& e) { std::printf("  failed: %s\n", e.c_str()); };
    o.dpkg_starting = [] {
        system::DpkgObserver d;
        d.progress = [](double percent, std::string_view what) {
            std::printf("  [%3.0f%%] %.*s\n", percent, int(what.size()), what.data());
        };
        d.output = [](std::string_view) {};  // dpkg's own chatter: not shown
        return d;
    };
    o.diagnostic = [](const Diagnostic& d) { std::printf("  warning: %s\n", d.message.c_str()); };
    return o;
}

// Resolves and runs one goal on a freshly opened system; false when it cannot.
bool carry_out(const install::SessionOptions& where, const std::string& what,
               install::Resolution (*goal)(install::Session&, const std::string&)) {
    auto session = install::Session::open(where);
    install::Resolution r = goal(*session, what);
    if (!r.transaction) {
        for (const std::string& e : r.errors) std::printf("cannot: %s\n", e.c_str());
        for (const solver::Fact& f : r.facts) std::printf("  because %s\n", f.text.c_str());
        return r.errors.empty();  // nothing to do is no failure
    }
    const cache::Cache& c = session->cache();
    for (const install::Change& ch : r.transaction->plan().changes) {
        const bool removal = ch.kind == install::ChangeKind::Remove;
        const cache::Version* v = removal ? ch.old_version : ch.new_version;
        std::printf("%s %s %s%s\n", removal ? "remove " : "install", std::string(c.name_of(*ch.package)).c_str(),
                    std::string(c.str(v->version)).c_str(), ch.automatic ? " (automatic)" : "");
    }
    r.transaction->run(progress_printer());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    install::SessionOptions where{.change_system = true};
    if (const char* file = std::getenv("APT_CONFIG")) where.config_file = file;
    std::string package;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.rfind("--root=", 0) == 0) where.root = arg.substr(7);
        else package = arg;
    }
    if (package.empty()) {
        std::fprintf(stderr, "usage: install_and_undo [--root=DIR] PACKAGE\n");
        return 2;
    }
    where.command_line = "install_and_undo " + package;
    try {
        std::printf("== install %s\n", package.c_str());
        if (!carry_out(where, package, [](install::Session& s, const std::string& p) {
                return s.resolve(install::Verb::Install, {p});
            }))
            return 1;
        std::printf("== undo\n");
        if (!carry_out(where, package, [](install::Session& s, const std::string&) {
                return s.undo(s.history().back());
            }))
            return 1;
    } catch (const Error& e) {
        std::fprintf(stderr, "error%s: %s\n", e.kind() == ErrorKind::Locked ? " (locked)" : "", e.what());
        return 1;
    }
    return 0;
}
