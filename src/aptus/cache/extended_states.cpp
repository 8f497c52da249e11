// apt's extended_states: which packages were installed only as dependencies.
#include "aptus/base/error.hpp"
#include "aptus/base/strings.hpp"
#include "build_state.hpp"
#include "index_text.hpp"

namespace aptus::cache::detail {

void apply_extended_states(BuildState& st, std::string_view buffer, const std::string& file_name) {
    // Read as far as it goes: a damaged stanza is skipped with a warning, the
    // marks of the others are kept (system/auto_marks.cpp keeps a copy of
    // the file before it rewrites it).
    deb::TagFileReader reader(buffer, file_name, deb::TagFileOptions{.skip_malformed = true});
    deb::Stanza s;
    while (reader.next(s)) {
        std::string_view name = s.value_or_empty("Package");
        if (name.empty()) continue;
        std::string_view arch = s.value_or_empty("Architecture");
        StringId name_id = st.pool.find(name);
        StringId arch_id = arch.empty() ? st.native_arch : st.pool.find(arch);
        if (name_id == kNone || arch_id == kNone) continue;  // apt drops marks of unknown packages too
        uint32_t pkg = st.find_package(name_id, arch_id);
        if (pkg == kNone) continue;
        if (trim(s.value_or_empty("Auto-Installed")) == "1") st.packages[pkg].flags |= kPackageAuto;
        else st.packages[pkg].flags &= uint8_t(~kPackageAuto);
    }
    if (reader.problem_count() != 0) {
        TagProblems problems(file_name);
        problems.take(reader);
        problems.report(st.diagnostics);
    }
}

}  // namespace aptus::cache::detail
