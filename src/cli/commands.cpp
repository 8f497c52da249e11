#include "cli/command.hpp"
#include "cli/commands/cache_report_cmd.hpp"
#include "cli/commands/check_cmd.hpp"
#include "cli/commands/clean_cmd.hpp"
#include "cli/commands/completion_cmd.hpp"
#include "cli/commands/config_cmd.hpp"
#include "cli/commands/download_cmd.hpp"
#include "cli/commands/depends_cmd.hpp"
#include "cli/commands/dpkg_test_cmd.hpp"
#include "cli/commands/dumpavail_cmd.hpp"
#include "cli/commands/graph_cmd.hpp"
#include "cli/commands/history_cmd.hpp"
#include "cli/commands/changelog_cmd.hpp"
#include "cli/commands/edit_sources_cmd.hpp"
#include "cli/commands/install_cmd.hpp"
#include "cli/commands/list_cmd.hpp"
#include "cli/commands/madison_cmd.hpp"
#include "cli/commands/mark_cmd.hpp"
#include "cli/commands/modernize_cmd.hpp"
#include "cli/commands/moo_cmd.hpp"
#include "cli/commands/pager_test_cmd.hpp"
#include "cli/commands/pkgnames_cmd.hpp"
#include "cli/commands/plan_test_cmd.hpp"
#include "cli/commands/policy_cmd.hpp"
#include "cli/commands/search_cmd.hpp"
#include "cli/commands/show_cmd.hpp"
#include "cli/commands/showpkg_cmd.hpp"
#include "cli/commands/showsrc_cmd.hpp"
#include "cli/commands/source_cmd.hpp"
#include "cli/commands/solver_cmd.hpp"
#include "cli/commands/sources_cmd.hpp"
#include "cli/commands/unmet_cmd.hpp"
#include "cli/commands/update_cmd.hpp"
#include "cli/commands/why_cmd.hpp"

namespace aptus::cli {

std::span<const Command> commands() {
    static const Command table[] = {
        {{"config", "dump"}, config_dump_options(), "show the active configuration (as apt-config dump)",
         run_config_dump},
        {{"config", "shell"}, {}, "print configuration values as shell assignments (as apt-config shell)",
         run_config_shell},
        {{"modernize-sources"}, modernize_options(), "rewrite .list sources as deb822 .sources files", run_modernize_sources},
        {{"sources"}, sources_options(), "show the configured sources (--json; --targets: their index targets)", run_sources},
        {{"indextargets"}, indextargets_options(), "show the index targets of the sources (as apt-get indextargets)", run_indextargets},
        {{"update"}, update_options(), "fetch, verify and store the package lists (as apt update)", run_update},
        {{"policy"}, policy_options(), "show priorities and candidates (as apt-cache policy)", run_policy},
        {{"list"}, list_options(), "list packages by name glob or search pattern (as apt list: '~i !~M', ?garbage; --json)", run_list},
        {{"search"}, search_options(), "search package names and descriptions (as apt search; --json)", run_search},
        {{"show"}, show_options(), "show the records of packages (as apt show; -a: all versions, --json)", run_show},
        {{"showsrc"}, showsrc_options(), "show source package records (as apt showsrc; --only-source, --json)", run_showsrc},
        {{"depends"}, depends_options(), "show a package's dependencies (as apt-cache depends; --recurse, --json)", run_depends},
        {{"rdepends"}, depends_options(), "show what depends on a package (as apt-cache rdepends; --recurse, --json)", run_rdepends},
        {{"madison"}, madison_options(), "list the versions and sources of packages per index file (as apt-cache madison; --json)", run_madison},
        {{"showpkg"}, {}, "show the cache's records of packages (as apt-cache showpkg)", run_showpkg},
        {{"unmet"}, unmet_options(), "show dependencies nothing can satisfy (as apt-cache unmet; -i)", run_unmet},
        {{"pkgnames"}, {}, "list package names, or those with a prefix (as apt-cache pkgnames; --all-names)", run_pkgnames},
        {{"dumpavail"}, {}, "print the candidates' records as a Packages file (as apt-cache dumpavail)", run_dumpavail},
        {{"dump"}, {}, "dump the cache's packages and files (as apt-cache dump)", run_dump},
        {{"stats"}, {}, "show statistics about the cache (as apt-cache stats)", run_stats},
        {{"gencaches"}, {}, "build the package cache (as apt-cache gencaches)", run_gencaches},
        {{"xvcg"}, {}, "print the dependency graph for xvcg (as apt-cache xvcg)", run_xvcg},
        {{"dotty"}, {}, "print the dependency graph for GraphViz (as apt-cache dotty)", run_dotty},
        {{"why"}, why_options(), "show the strongest chain that keeps an installed package (--json)", run_why},
        {{"why-not"}, why_options(), "show what keeps a package from being installed (--json)", run_why_not},
        {{"install"}, install_options(), "install packages (names, globs, patterns such as '~nfoo'; -s: the plan as apt-get -s shows it, --json as data)", run_install},
        {{"reinstall"}, install_options(), "install packages again at their installed version", run_reinstall},
        {{"remove"}, install_options(), "remove packages", run_remove},
        {{"purge"}, install_options(), "remove packages and their configuration files", run_purge},
        {{"upgrade"}, install_options(), "upgrade without removing anything", run_upgrade},
        {{"full-upgrade"}, install_options(), "upgrade, removing and installing as needed", run_full_upgrade},
        {{"dist-upgrade"}, install_options(), "the same as full-upgrade", run_full_upgrade},
        {{"dselect-upgrade"}, install_options(), "install and remove as dpkg's selections say (as apt-get dselect-upgrade)", run_dselect_upgrade},
        {{"edit-sources"}, {}, "edit the sources list in your editor, then check it (as apt edit-sources)", run_edit_sources},
        {{"changelog"}, {}, "show the changelog of packages (as apt-get changelog; --print-uris, -d: store SOURCE.changelog)", run_changelog},
        {{"build-dep"}, install_options(), "install what source packages need to build (names, .dsc files, source trees; --arch-only, --indep-only, -P, --host-architecture; as apt-get build-dep)", run_build_dep},
        {{"satisfy"}, install_options(), "install what relation lists need: 'foo (>= 1) [amd64] <!nocheck>', 'Conflicts: bar' (as apt-get satisfy)", run_satisfy},
        {{"download"}, {}, "download the .deb of packages into the current directory (as apt-get download)", run_download},
        {{"source"}, {}, "fetch source packages into the current directory, unpack and build them (as apt-get source; --print-uris, -d, -b, --dsc-only)", run_source},
        {{"clean"}, {}, "remove the downloaded .deb files and the binary caches (as apt-get clean; -s)", run_clean},
        {{"autoclean"}, {}, "remove the .deb files no repository offers any more (as apt-get autoclean; -s)", run_autoclean},
        {{"auto-clean"}, {}, "", run_autoclean, true},
        {{"distclean"}, {}, "clean, and remove the package lists but for the Release files (as apt-get distclean)", run_distclean},
        {{"dist-clean"}, {}, "", run_distclean, true},
        {{"check"}, check_options(), "check the installed system for broken dependencies (as apt-get check; --json)", run_check},
        {{"autoremove"}, install_options(), "remove what was installed automatically and is needed no more", run_autoremove},
        {{"autopurge"}, install_options(), "autoremove, and purge the configuration files too", run_autopurge},
        {{"mark"}, mark_options(), "mark packages automatically or manually installed, hold them (as apt-mark)", run_mark},
        {{"history"}, history_options(), "list the changes apt and aptus made (info N: one in full; undo N, redo N; rollback N: undo all after N; --json)", run_history},
        {{"completion"}, {}, "print the shell's completion for aptus: aptus completion bash", run_completion},
        {{"moo"}, {}, "", run_moo, true},
        {{"internal-pager-test"}, {}, "", run_internal_pager_test, true},
        {{"internal-solver"}, {}, "", run_internal_solver, true},
        {{"internal-plan-test"}, plan_test_options(), "", run_internal_plan_test, true},
        {{"internal-dpkg-test"}, {}, "", run_internal_dpkg_test, true},
    };
    return table;
}

}  // namespace aptus::cli
