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
#include "cli/commands/manual_cmd.hpp"
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
        {{"config", "dump"}, CommandGroup::Sources, "[KEY...]", config_dump_options(), "show the active configuration (as apt-config dump)",
         run_config_dump},
        {{"config", "shell"}, CommandGroup::Sources, "", {}, "print configuration values as shell assignments (as apt-config shell)",
         run_config_shell},
        {{"modernize-sources"}, CommandGroup::Sources, "", modernize_options(), "rewrite .list sources as deb822 .sources files", run_modernize_sources},
        {{"sources"}, CommandGroup::Sources, "", sources_options(), "show the configured sources", run_sources},
        {{"indextargets"}, CommandGroup::Sources, "[FIELD: VALUE...]", indextargets_options(), "show the index targets of the sources (as apt-get indextargets)", run_indextargets},
        {{"update"}, CommandGroup::Sources, "", update_options(), "fetch, verify and store the package lists (as apt update)", run_update},
        {{"policy"}, CommandGroup::Query, "[PACKAGE...]", policy_options(), "show priorities and candidates (as apt-cache policy)", run_policy},
        {{"list"}, CommandGroup::Query, "[PATTERN...]", list_options(), "list packages by name glob or pattern ('~i !~M', ?garbage), as apt list", run_list},
        {{"search"}, CommandGroup::Query, "REGEX...", search_options(), "search package names and descriptions (as apt search)", run_search},
        {{"show"}, CommandGroup::Query, "PACKAGE...", show_options(), "show the records of packages (as apt show)", run_show},
        {{"showsrc"}, CommandGroup::Query, "PACKAGE...", showsrc_options(), "show source package records (as apt showsrc)", run_showsrc},
        {{"depends"}, CommandGroup::Query, "PACKAGE...", depends_options(), "show a package's dependencies (as apt-cache depends)", run_depends},
        {{"rdepends"}, CommandGroup::Query, "PACKAGE...", depends_options(), "show what depends on a package (as apt-cache rdepends)", run_rdepends},
        {{"madison"}, CommandGroup::Query, "PACKAGE...", madison_options(), "list the versions of packages and their sources (as apt-cache madison)", run_madison},
        {{"showpkg"}, CommandGroup::Query, "PACKAGE...", {}, "show the cache's records of packages (as apt-cache showpkg)", run_showpkg},
        {{"unmet"}, CommandGroup::Query, "[PACKAGE...]", unmet_options(), "show dependencies nothing can satisfy (as apt-cache unmet)", run_unmet},
        {{"pkgnames"}, CommandGroup::Query, "[PREFIX]", {}, "list package names, or those with a prefix (as apt-cache pkgnames)", run_pkgnames},
        {{"dumpavail"}, CommandGroup::Query, "", {}, "print the candidates' records as a Packages file (as apt-cache dumpavail)", run_dumpavail},
        {{"dump"}, CommandGroup::Query, "", {}, "dump the cache's packages and files (as apt-cache dump)", run_dump},
        {{"stats"}, CommandGroup::Query, "", {}, "show statistics about the cache (as apt-cache stats)", run_stats},
        {{"gencaches"}, CommandGroup::Files, "", {}, "build the package cache (as apt-cache gencaches)", run_gencaches},
        {{"xvcg"}, CommandGroup::Query, "PACKAGE...", {}, "print the dependency graph for xvcg (as apt-cache xvcg)", run_xvcg},
        {{"dotty"}, CommandGroup::Query, "PACKAGE...", {}, "print the dependency graph for GraphViz (as apt-cache dotty)", run_dotty},
        {{"why"}, CommandGroup::Query, "PACKAGE", why_options(), "show the strongest chain that keeps an installed package", run_why},
        {{"why-not"}, CommandGroup::Query, "PACKAGE", why_options(), "show what keeps a package from being installed", run_why_not},
        {{"install"}, CommandGroup::Change, "PACKAGE[=VERSION|/RELEASE]...", install_options(), "install packages: names, name=version, name/release, globs, patterns ('~nfoo'), .deb files", run_install},
        {{"reinstall"}, CommandGroup::Change, "PACKAGE...", install_options(), "install packages again at their installed version", run_reinstall},
        {{"remove"}, CommandGroup::Change, "PACKAGE...", install_options(), "remove packages", run_remove},
        {{"purge"}, CommandGroup::Change, "PACKAGE...", install_options(), "remove packages and their configuration files", run_purge},
        {{"upgrade"}, CommandGroup::Change, "[PACKAGE...]", install_options(), "upgrade without removing anything", run_upgrade},
        {{"full-upgrade"}, CommandGroup::Change, "[PACKAGE...]", install_options(), "upgrade, removing and installing as needed", run_full_upgrade},
        {{"dist-upgrade"}, CommandGroup::Change, "[PACKAGE...]", install_options(), "the same as full-upgrade", run_full_upgrade},
        {{"dselect-upgrade"}, CommandGroup::Change, "", install_options(), "install and remove as dpkg's selections say (as apt-get dselect-upgrade)", run_dselect_upgrade},
        {{"edit-sources"}, CommandGroup::Sources, "[NAME]", {}, "edit the sources list in your editor, then check it (as apt edit-sources)", run_edit_sources},
        {{"changelog"}, CommandGroup::Query, "PACKAGE...", {}, "show the changelog of packages (as apt-get changelog; --print-uris; -d: store SOURCE.changelog)", run_changelog},
        {{"build-dep"}, CommandGroup::Change, "SOURCE|FILE.dsc|DIR...", install_options(), "install what source packages need to build: names, .dsc files, source trees (as apt-get build-dep; --arch-only, --indep-only, -P PROFILES)", run_build_dep},
        {{"satisfy"}, CommandGroup::Change, "RELATIONS...", install_options(), "install what relation lists need: 'foo (>= 1) [amd64] <!nocheck>', 'Conflicts: bar' (as apt-get satisfy)", run_satisfy},
        {{"download"}, CommandGroup::Files, "PACKAGE[=VERSION]...", {}, "download the .deb of packages into the current directory (as apt-get download)", run_download},
        {{"source"}, CommandGroup::Files, "SOURCE[=VERSION]...", {}, "fetch source packages into the current directory, unpack and build them (as apt-get source; --print-uris, -d, -b, --dsc-only)", run_source},
        {{"clean"}, CommandGroup::Files, "", {}, "remove the downloaded .deb files and the binary caches (as apt-get clean; -s)", run_clean},
        {{"autoclean"}, CommandGroup::Files, "", {}, "remove the .deb files no repository offers any more (as apt-get autoclean; -s)", run_autoclean},
        {{"auto-clean"}, CommandGroup::Files, "", {}, "", run_autoclean, true},
        {{"distclean"}, CommandGroup::Files, "", {}, "clean, and remove the package lists but for the Release files (as apt-get distclean)", run_distclean},
        {{"dist-clean"}, CommandGroup::Files, "", {}, "", run_distclean, true},
        {{"check"}, CommandGroup::Query, "", check_options(), "check the installed system for broken dependencies (as apt-get check)", run_check},
        {{"autoremove"}, CommandGroup::Change, "[PACKAGE...]", install_options(), "remove what was installed automatically and is needed no more", run_autoremove},
        {{"autopurge"}, CommandGroup::Change, "[PACKAGE...]", install_options(), "autoremove, and purge the configuration files too", run_autopurge},
        {{"mark"}, CommandGroup::Change, "auto|manual|hold|unhold|show... [PACKAGE...]", mark_options(), "mark packages automatically or manually installed, hold them (as apt-mark)", run_mark},
        {{"history"}, CommandGroup::Change, "[list|info N|undo N|redo N|rollback N]", history_options(), "list the changes apt and aptus made (info N: one in full; undo N, redo N; rollback N: undo all after N)", run_history},
        {{"completion"}, CommandGroup::Files, "bash", {}, "print the shell's completion for aptus: aptus completion bash", run_completion},
        {{"moo"}, CommandGroup::Internal, "", {}, "", run_moo, true},
        {{"internal-pager-test"}, CommandGroup::Internal, "", {}, "", run_internal_pager_test, true},
        {{"internal-solver"}, CommandGroup::Internal, "", {}, "", run_internal_solver, true},
        {{"internal-plan-test"}, CommandGroup::Internal, "", plan_test_options(), "", run_internal_plan_test, true},
        {{"internal-manual"}, CommandGroup::Internal, "", {}, "", run_internal_manual, true},
        {{"internal-dpkg-test"}, CommandGroup::Internal, "", {}, "", run_internal_dpkg_test, true},
    };
    return table;
}

}  // namespace aptus::cli
