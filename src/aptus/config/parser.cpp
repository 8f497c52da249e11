// apt.conf reading. apt's reader is line based and we keep its observable
// behaviour, quirks included, so that a file means the same to both:
//  - quotes toggle per line: a quoted string cannot span lines;
//  - '//' and '#' (except '#include' / '#clear') end the line outside quotes,
//    and are removed before '/* */' comments are looked at;
//  - a tab counts as eight spaces, even inside quotes;
//  - a statement ends at an unquoted ';', '{' or '}' and may span lines;
//  - an unbalanced '}' or an unclosed scope at the end is accepted (we warn).
#include "aptus/config/parser.hpp"

#include <string>
#include <vector>

#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/base/strings.hpp"
#include "words.hpp"

namespace aptus::config {
namespace {

constexpr unsigned max_include_depth = 10;

class Reader {
public:
    Reader(Config& config, const std::string& name, Diagnostics& diags, unsigned depth)
        : config_(config), name_(name), diags_(diags), depth_(depth) {}

    void line(std::string_view raw, unsigned number) {
        line_ = number;
        // apt reads every tab as eight spaces, inside quoted values too.
        std::string text;
        for (char c : raw) {
            if (c == '\t')
                text.append(8, ' ');
            else
                text += c;
        }
        std::string fragment = strip_block_comments(strip_line_comment(text));
        if (trim(fragment).empty()) return;
        bool in_quote = false;
        size_t start = 0;
        for (size_t i = 0; i < fragment.size(); ++i) {
            char c = fragment[i];
            if (c == '"') in_quote = !in_quote;
            if (in_quote || (c != ';' && c != '{' && c != '}')) continue;
            append(std::string_view(fragment).substr(start, i - start));
            statement(c);
            buffer_.clear();
            start = i + 1;
        }
        append(std::string_view(fragment).substr(start));
    }

    void finish(unsigned end_line) {
        if (!trim(buffer_).empty()) throw error_at(end_line, "Syntax error: extra junk at end of file");
        if (in_comment_) warn(end_line, "unterminated '/*' comment");
        if (!scopes_.empty()) warn(end_line, "scope '" + scopes_.back() + "' is not closed with '}'");
    }

private:
    Error error_at(unsigned line, const std::string& message) const { return file_error(name_, line, message); }
    void warn(unsigned line, const std::string& message) {
        diags_.push_back({Level::Warning, file_error(name_, line, message).what()});
    }

    void append(std::string_view piece) {
        piece = trim(piece);
        if (piece.empty()) return;
        if (!buffer_.empty()) buffer_ += ' ';
        buffer_ += piece;
    }

    static std::string_view strip_line_comment(std::string_view text) {
        bool in_quote = false;
        for (size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '"') in_quote = !in_quote;
            if (in_quote) continue;
            if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') return text.substr(0, i);
            if (text[i] == '#' && text.substr(i, 8) != "#include" && text.substr(i, 6) != "#clear")
                return text.substr(0, i);
        }
        return text;
    }

    std::string strip_block_comments(std::string_view text) {
        std::string out;
        bool in_quote = false;
        for (size_t i = 0; i < text.size(); ++i) {
            if (in_comment_) {
                if (text[i] == '*' && i + 1 < text.size() && text[i + 1] == '/') {
                    in_comment_ = false;
                    ++i;
                }
                continue;
            }
            if (text[i] == '"') in_quote = !in_quote;
            if (!in_quote && text[i] == '/' && i + 1 < text.size() && text[i + 1] == '*') {
                in_comment_ = true;
                ++i;
                continue;
            }
            out += text[i];
        }
        return out;
    }

    std::string parent() const {
        std::string p;
        for (const auto& s : scopes_) {
            if (!p.empty()) p += "::";
            p += s;
        }
        return p;
    }

    void statement(char term) {
        std::string_view rest = buffer_;
        if (trim(rest).empty()) {
            if (term == '{') throw error_at(line_, "Syntax error: block starts with no name");
            if (term == '}') close_scope();
            return;
        }
        auto tag = detail::read_quote_word(rest);
        if (!tag) throw error_at(line_, "Syntax error: malformed tag");
        bool no_word = false;
        std::string word;
        if (auto w = detail::read_c_word(rest)) {
            word = std::move(*w);
        } else if (auto q = detail::read_quote_word(rest)) {
            word = std::move(*q);
        } else if (term != '{') {
            // A lone word is a list item: `"a";` inside `A { ... }` appends to A.
            word = std::move(*tag);
            tag->clear();
        } else {
            no_word = true;
        }
        if (!trim(rest).empty()) throw error_at(line_, "Syntax error: extra junk after value");

        std::string key = parent();
        if (term == '{') {
            scopes_.push_back(*tag);
            key = parent();
            tag->clear();
        } else {
            key = key.empty() ? *tag : key + "::" + *tag;
        }

        if (!tag->empty() && (*tag)[0] == '#') {
            directive(tag->substr(1), word);
        } else if (tag->empty() && !no_word && word == "#clear") {
            throw error_at(line_, "Syntax error: clear directive requires an option tree as argument");
        } else if (!no_word) {
            config_.set(key, word);
        }
        if (term == '}') close_scope();
    }

    void close_scope() {
        if (!scopes_.empty()) scopes_.pop_back();
        else warn(line_, "'}' without a matching '{'");
    }

    void directive(const std::string& name, const std::string& arg) {
        if (!scopes_.empty()) throw error_at(line_, "Syntax error: directives can only be done at the top level");
        if (name == "clear") {
            config_.clear(arg);
        } else if (name == "include") {
            if (depth_ >= max_include_depth) throw error_at(line_, "Syntax error: too many nested includes");
            try {
                if (arg.size() > 2 && arg.back() == '/')
                    read_config_dir(config_, arg, diags_, depth_ + 1);
                else
                    read_config_file(config_, arg, diags_, depth_ + 1);
            } catch (const Error& e) {
                throw e.with_context(name_ + ":" + std::to_string(line_) + ": in the file included from here");
            }
        } else {
            throw error_at(line_, "Syntax error: unsupported directive '" + name + "'");
        }
    }

    Config& config_;
    const std::string& name_;
    Diagnostics& diags_;
    unsigned depth_;
    unsigned line_ = 0;
    bool in_comment_ = false;
    std::string buffer_;
    std::vector<std::string> scopes_;
};

}  // namespace

void read_config_text(Config& config, std::string_view text, const std::string& name, Diagnostics& diags,
                      unsigned depth) {
    Reader reader(config, name, diags, depth);
    unsigned number = 0;
    while (!text.empty()) {
        size_t nl = text.find('\n');
        reader.line(text.substr(0, nl), ++number);
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
    // apt reports problems at the end as one past the last line.
    reader.finish(number + 1);
}

void read_config_file(Config& config, const std::string& path, Diagnostics& diags, unsigned depth) {
    std::string text = read_file(path);
    read_config_text(config, text, path, diags, depth);
}

void read_config_dir(Config& config, const std::string& dir, Diagnostics& diags, unsigned depth) {
    for (const std::string& file : config_dir_files(config, dir, diags)) read_config_file(config, file, diags, depth);
}

}  // namespace aptus::config
