// apt's "fancy" dpkg progress: the terminal's last line is kept out of the
// scrolling region and shows "Progress: [ 42%] [#####.....]" while dpkg's
// own output scrolls above it. Only on a terminal, and not with -q or
// Dpkg::Progress-Fancy "0"; otherwise it draws nothing and dpkg's output
// passes straight through.
#pragma once

#include <string>
#include <string_view>

#include "aptus/config/config.hpp"
#include "aptus/system/dpkg_run.hpp"

namespace aptus::cli {

// The bar of apt 3.0 for `fraction` (0..1) in `width` columns, brackets
// included: '#' and '.' in ASCII, whole and eighth blocks under UTF-8.
std::string dpkg_progress_bar(double fraction, int width, bool utf8);

class DpkgProgress {
public:
    // Reserves the bottom line when the bar is wanted (see above).
    explicit DpkgProgress(const config::Config& config);
    // Gives the line back: the scrolling region is the whole screen again
    // and the bar is wiped.
    ~DpkgProgress();
    DpkgProgress(const DpkgProgress&) = delete;
    DpkgProgress& operator=(const DpkgProgress&) = delete;

    bool active() const { return active_; }
    void update(double percent, std::string_view action_text);
    // dpkg's output to stdout; a resize since the last call redraws.
    void output(std::string_view bytes);
    // An observer that feeds this bar (valid while this object lives).
    system::DpkgObserver observer();

private:
    void set_scroll_region(int rows);
    void draw();
    void handle_resize();
    void put(std::string_view s);

    bool active_ = false;
    bool utf8_ = false;
    bool show_bar_ = true;
    int rows_ = 0;
    int columns_ = 0;
    double percent_ = 0;
    bool drawn_ = false;
    std::string fg_, bg_;
};

}  // namespace aptus::cli
