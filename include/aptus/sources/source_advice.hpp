// What apt's update says about the sources themselves once the lists are
// read: credentials written into a URI (apt_auth.conf(5) keeps them out of
// world-readable files) and entries without Signed-By (any key in the
// trusted keyrings may then sign for the repository). A notice where apt
// gives one, an audit message (shown with --audit) where apt gives one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "aptus/config/config.hpp"
#include "aptus/sources/source_entry.hpp"

namespace aptus::sources {

struct SourceAdvice {
    enum Level : uint8_t { Notice, Audit } level;
    std::string text;
};

// In apt's order: the credential notices of every meta index, then for each
// its format and Signed-By messages, then the modernize summary.
// APT::Get::Update::SourceListWarnings (and its ::APTAuth and ::SignedBy
// children) turn each part off. `program` is the name the modernize hint
// tells the user to run.
std::vector<SourceAdvice> source_advice(const std::vector<SourceEntry>& entries, const config::Config& config,
                                        std::string_view program);

}  // namespace aptus::sources
