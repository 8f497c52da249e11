#include "cli/read_session.hpp"

namespace aptus::cli {

std::unique_ptr<ReadSession> open_read_session(Context& ctx) { return system::open_system(ctx.config, ctx.diags); }

}  // namespace aptus::cli
