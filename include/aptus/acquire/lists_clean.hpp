// distclean's part in the lists dir: every index apt stored goes, the
// Release files stay (InRelease, Release, Release.gpg: the next update
// checks against them that a repository did not go back in time), and so do
// the lock and the directories (partial/, auxfiles/).
#pragma once

#include <string>
#include <vector>

namespace aptus::acquire {

// The names of the regular files in `lists_dir` distclean removes, in
// readdir order; none when the directory is missing.
std::vector<std::string> distclean_list_files(const std::string& lists_dir);

}  // namespace aptus::acquire
