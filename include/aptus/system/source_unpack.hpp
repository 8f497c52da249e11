// What apt-get source does with the files of a chosen source package
// (source_package.hpp): fetch items for them, and the programs it runs on
// them, dpkg-source to unpack and dpkg-buildpackage for --compile.
#pragma once

#include <string>

#include "aptus/acquire/archives.hpp"
#include "aptus/config/config.hpp"
#include "aptus/system/source_package.hpp"

namespace aptus::system {

// The fetch item of one of the package's files, checked against the hash
// its Sources record gives; labelled "<label> (<kind>)" as apt's Get: line.
acquire::ArchiveItem source_file_item(const SourceChoice& choice, const SourceFile& file);

// The directory dpkg-source unpacks into: "name-upstreamversion".
std::string unpack_directory(const SourceChoice& choice);

// dpkg-source --no-check -x DSC in `directory` (Dir::Bin::dpkg-source): the
// hashes were checked when fetching, and dpkg-source has no keyring for its
// own check (apt passes --no-check too). Its output goes straight to ours.
// Throws apt's "Unpack command '...' failed." (with "Check if the
// 'dpkg-dev' package is installed." when it cannot start).
void unpack_source(const config::Config& config, const std::string& directory, const std::string& dsc);

// --compile: dpkg-buildpackage in the unpacked tree, with apt's options
// (DPkg::Build-Options, default "-b -uc"; -a for APT::Get::Host-Architecture,
// -P for APT::Build-Profiles); its output goes straight to ours. Throws
// apt's "Build command '...' failed."
void build_source(const config::Config& config, const std::string& tree);

}  // namespace aptus::system
