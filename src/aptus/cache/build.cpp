// Reading the inputs in order: Release files, Packages, the dpkg status,
// extended_states, Translation and Sources files; then the layout pass.
#include "aptus/cache/build.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <array>
#include <memory>

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "aptus/base/compression.hpp"
#include "aptus/base/error.hpp"
#include "aptus/base/file.hpp"
#include "aptus/cache/staleness.hpp"
#include "aptus/deb/release_file.hpp"
#include "build_state.hpp"

namespace aptus::cache {
namespace {

// Threads carry names, so that top and perf tell them apart.
void name_thread(const char* name) { ::pthread_setname_np(::pthread_self(), name); }

using detail::IndexText;
using detail::TextPiece;
using detail::TagProblems;

template <class Fn>
void with_index_text(const std::string& path, Fn fn) {
    try {
        IndexText text(path);
        fn(text);
    } catch (const Error& e) {
        throw e.with_context("while building the package cache");
    }
}

std::string join(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) {
        if (!out.empty()) out.push_back(' ');
        out += w;
    }
    return out;
}

// A chunk of a Packages file and its prepared stanzas. The chunks live as
// long as the build's reading, so that their vectors are allocated (and
// their pages faulted in) once, not once per file.
struct PreparedChunk {
    std::string buffer;  // the bytes read, when read from a file
    TextPiece piece;
    std::vector<detail::PreparedStanza> stanzas;
    std::vector<detail::PreparedStanza::Relation> relations;
    size_t count = 0;
    uint32_t lines = 0;  // line breaks in the chunk
    // Stanzas skipped and values cut (lines counted from the chunk's start).
    std::vector<deb::TagFileProblem> problems;
    size_t problem_count = 0;
    bool ready = false;
    bool failed = false;
    std::exception_ptr error;  // when failed
};
constexpr size_t kChunkSlots = 6;
using PreparedChunks = std::array<PreparedChunk, kChunkSlots>;

// Every Packages stanza of `text`, prepared (split, relations parsed, hashes
// computed) ahead of `fn`, which interns: a second thread reads and prepares
// whole chunks, and `fn` gets the stanzas in file order on the calling
// thread, so strings get their ids in file order as on one thread. When its
// next chunk is not ready, the calling thread prepares the next free one
// itself instead of waiting, which balances the two however their speeds
// compare. (Two preparing threads beside the interning one were 15-20 %
// slower on two cores: a preempted preparer held up the chunk the
// interning thread needed next while a core idled.) `fn` also sees the
// stanza a few places ahead (`next`, possibly null) to prefetch for it.
// Chunk k runs from the first blank line at or after k * kChunkBytes to the
// first at or after (k + 1) * kChunkBytes (a blank line ends a stanza
// wherever it is, Policy 5.1), so each thread finds its chunk's bounds in
// what it reads, and the chunks together give the stanzas the whole file
// gives. A chunk is read without knowing how many lines come before it: its
// stanzas' lines are counted from 1 and shifted by the calling thread, and a
// chunk that failed is read again from its real first line to throw the
// error with the right line, after the stanzas before it, as
// for_each_stanza does. A malformed stanza is skipped, a NUL ends a value
// (TagFileOptions::skip_malformed), each noted in `problems`; an error
// reading the file is thrown after the stanzas before it.
template <class Fn>
void for_each_prepared(const IndexText& text, const std::string& name, PreparedChunks& chunks, TagProblems& problems,
                       Fn fn) {
    constexpr size_t kChunkBytes = 192 * 1024, kOverhang = 16 * 1024, kSlots = kChunkSlots, kAhead = 4;
    using Chunk = PreparedChunk;
    const size_t size = text.size();
    const size_t chunk_count = (size + kChunkBytes - 1) / kChunkBytes;
    if (chunk_count == 0) return;
    // Chunk k's bytes into c.buffer (or in place) and c.piece.
    auto read_chunk = [&](size_t k, Chunk& c) {
        const size_t grid = k * kChunkBytes;
        for (size_t want = kChunkBytes + kOverhang;; want *= 2) {
            std::string_view bytes = text.read(grid, want, c.buffer);
            const bool at_end = grid + bytes.size() == size;
            size_t begin = 0, end = bytes.size();
            if (k > 0) {
                size_t blank = bytes.find("\n\n");
                if (blank == std::string_view::npos && !at_end) continue;
                begin = blank == std::string_view::npos ? bytes.size() : blank + 1;
            }
            size_t blank = bytes.size() > kChunkBytes ? bytes.find("\n\n", kChunkBytes) : std::string_view::npos;
            if (blank == std::string_view::npos && !at_end) continue;
            if (blank != std::string_view::npos) end = blank + 1;
            c.piece = TextPiece{bytes.substr(begin, end - begin), grid + begin};
            return;
        }
    };
    std::mutex m;
    std::condition_variable cv;
    size_t cut = 0, consumed = 0;  // chunks taken, chunks done with
    bool stop = false;
    // With m held: takes the next chunk when its slot is free.
    auto take = [&]() -> std::optional<size_t> {
        if (stop || cut == chunk_count || cut >= consumed + kSlots) return std::nullopt;
        size_t k = cut++;
        Chunk& c = chunks[k % kSlots];
        c.piece = {};
        c.count = 0;
        c.lines = 0;
        c.problem_count = 0;
        c.error = nullptr;
        c.relations.clear();
        c.ready = c.failed = false;
        return k;
    };
    // Without m held: reads and prepares chunk k, then marks it ready.
    auto prepare_chunk = [&](size_t k, deb::Stanza& s, deb::RelationList& scratch) {
        Chunk& c = chunks[k % kSlots];
        try {
            read_chunk(k, c);
            deb::TagFileReader r(c.piece.bytes, name, deb::TagFileOptions{.skip_malformed = true});
            while (r.next(s)) {
                if (c.stanzas.size() <= c.count) c.stanzas.emplace_back();
                detail::prepare_binary_stanza(s, c.piece, scratch, c.relations, c.stanzas[c.count]);
                ++c.count;
            }
            c.lines = r.line() - 1;
            if (r.problem_count() != 0) [[unlikely]] {
                c.problems = r.problems();
                c.problem_count = r.problem_count();
            }
        } catch (...) {
            c.failed = true;
            c.error = std::current_exception();
        }
        for (size_t i = 0; i < c.count; ++i) c.stanzas[i].relations = c.relations.data();
        {
            std::lock_guard lock(m);
            c.ready = true;
        }
        cv.notify_all();
    };
    auto prepare = [&] {
        name_thread("aptus-prepare");
        deb::Stanza s;
        deb::RelationList scratch;
        for (;;) {
            std::optional<size_t> k;
            {
                std::unique_lock lock(m);
                cv.wait(lock, [&] { return stop || cut == chunk_count || (k = take()); });
                if (!k) return;
            }
            prepare_chunk(*k, s, scratch);
        }
    };
    auto stop_threads = [&] {
        {
            std::lock_guard lock(m);
            stop = true;
        }
        cv.notify_all();
    };
    std::jthread preparer(prepare);
    try {
        deb::Stanza own_stanza;
        deb::RelationList own_scratch;
        uint32_t lines_before = 0;
        for (size_t k = 0; k < chunk_count; ++k) {
            Chunk* c = &chunks[k % kSlots];
            {
                // The calling thread prepares chunks too while its next one
                // is not ready, rather than wait: with a thread per core and
                // no more, neither core idles while the other is preempted.
                std::unique_lock lock(m);
                while (!(consumed < cut && c->ready)) {
                    if (std::optional<size_t> j = take()) {
                        lock.unlock();
                        prepare_chunk(*j, own_stanza, own_scratch);
                        lock.lock();
                    } else {
                        cv.wait(lock);
                    }
                }
            }
            for (size_t i = 0; i < c->count; ++i) {
                detail::PreparedStanza& st = c->stanzas[i];
                st.line += lines_before;
                for (auto& e : st.relation_errors) e.line += lines_before;
                fn(st, i + kAhead < c->count ? &c->stanzas[i + kAhead] : nullptr);
            }
            if (c->problem_count != 0) [[unlikely]]
                problems.take(c->problems, c->problem_count, lines_before);
            if (c->failed) std::rethrow_exception(c->error);  // reading the file failed
            lines_before += c->lines;
            {
                std::lock_guard lock(m);
                ++consumed;
            }
            cv.notify_all();
        }
    } catch (...) {
        stop_threads();
        throw;
    }
    stop_threads();
}

// The Translation files, read on a thread of their own: they only fill their
// own table, matched to the versions by Description-md5 at the end. They are
// read after the Packages files, while the rest is read and laid out: the
// Packages files keep both cores busy, the layout only one.
class TranslationReader {
public:
    // `deferred`: the caller matches the long descriptions during the layout
    // (LayoutHooks::descriptions) when it can.
    explicit TranslationReader(bool deferred) : deferred_(deferred) {}
    void start(const CacheInputs& in, const std::vector<uint32_t>& index_ids) {
        thread_ = std::jthread([this, &in, index_ids] {
            name_thread("aptus-translate");
            try {
                // Debian's Translation stanzas average ~500 bytes; the first
                // language file listed usually holds nearly every md5.
                uint64_t bytes = 0;
                for (const IndexInput& i : in.indices) {
                    struct stat sb {};
                    if (i.kind == IndexKind::Translation && ::stat(i.path.c_str(), &sb) == 0)
                        bytes += uint64_t(sb.st_size) * (compression_from_path(i.path) == Compression::None ? 1 : 4);
                }
                table_.reserve(size_t(bytes / 400));
                for (size_t k = 0; k < in.indices.size(); ++k) {
                    const IndexInput& i = in.indices[k];
                    if (i.kind != IndexKind::Translation) continue;
                    TagProblems problems(i.path);
                    with_index_text(i.path, [&](IndexText& text) {
                        detail::for_each_stanza(text, i.path, problems, [&](const deb::Stanza& s, const TextPiece& piece) {
                            detail::add_translation_stanza(table_, s, piece, index_ids[k],
                                                           i.replaces_packages_description);
                        });
                    });
                    problems.report(diagnostics_);
                }
            } catch (...) {
                error_ = std::current_exception();
            }
        });
    }
    bool deferred() const { return deferred_ && !finished_; }
    // The table once every file is read; rethrows a reading error. The
    // files' warnings go to `st` the first time.
    const detail::Translations& wait(detail::BuildState& st) {
        if (thread_.joinable()) thread_.join();
        if (error_) std::rethrow_exception(error_);
        for (Diagnostic& d : diagnostics_) st.diagnostics.push_back(std::move(d));
        diagnostics_.clear();
        return table_;
    }
    // The descriptions are matched: the table goes.
    void finish() {
        table_ = {};
        finished_ = true;
    }

private:
    bool deferred_, finished_ = false;
    detail::Translations table_;
    Diagnostics diagnostics_;  // the files' malformed stanzas
    std::exception_ptr error_;
    std::jthread thread_;
};

// Generous reservations for `text` bytes of Packages: growth would copy and
// fault in fresh pages, while reserved but untouched memory costs nothing.
void reserve_for(detail::BuildState& st, uint64_t text) {
    size_t versions = size_t(text / 400) + 1024;
    st.packages.reserve(versions);
    st.versions.reserve(versions);
    st.next_version.reserve(versions);
    st.version_md5.reserve(versions);
    st.files.reserve(versions);
    st.dependencies.reserve(versions * 8);
    st.provides.reserve(versions);
    // About two strings to intern per version (bookworm+trixie: 255k for 121k).
    st.pool.reserve(versions, versions * 4, size_t(text / 4));
    st.next_package_of_name.reserve(versions);
    st.name_of_string.reserve(versions * 4);
    st.first_package_of_name.reserve(versions * 2);
}

// Reads every input into `st`.
void read_inputs(const CacheInputs& in, detail::BuildState& st, TranslationReader& translations) {
    st.native_arch = st.pool.intern(in.native_architecture);
    uint64_t text = 0;
    for (const IndexInput& i : in.indices) {
        struct stat sb {};
        if (i.kind == IndexKind::Packages && ::stat(i.path.c_str(), &sb) == 0)
            text += uint64_t(sb.st_size) * (compression_from_path(i.path) == Compression::None ? 1 : 6);
    }
    reserve_for(st, text);

    for (const ReleaseInput& r : in.releases) {
        Release rel{};
        rel.path = st.pool.intern(r.path);
        try {
            deb::ReleaseFile f = deb::read_release_file(r.path);
            rel.origin = st.pool.intern(f.origin);
            rel.label = st.pool.intern(f.label);
            rel.suite = st.pool.intern(f.suite);
            rel.codename = st.pool.intern(f.codename);
            rel.version = st.pool.intern(f.version);
            rel.date = st.pool.intern(f.date);
            rel.valid_until = st.pool.intern(f.valid_until);
            rel.architectures = st.pool.intern(join(f.architectures));
            rel.components = st.pool.intern(join(f.components));
            if (f.not_automatic) rel.flags |= kReleaseNotAutomatic;
            if (f.but_automatic_upgrades) rel.flags |= kReleaseButAutomaticUpgrades;
            if (f.acquire_by_hash) rel.flags |= kReleaseAcquireByHash;
        } catch (const Error& e) {
            rel.flags |= kReleaseMissing;
            st.warn(e.what());
        }
        st.releases.push_back(rel);
    }

    auto add_index = [&](const std::string& path, IndexKind kind, uint32_t release, std::string_view component,
                         std::string_view arch, std::string_view lang, std::string_view site,
                         std::string_view description, bool trusted, bool from_command_line) {
        IndexFile f{};
        f.flags = uint16_t((trusted ? kIndexTrusted : 0) | (from_command_line ? kIndexFromCommandLine : 0));
        f.path = st.pool.intern(path);
        f.kind = kind;
        f.compression = uint8_t(compression_from_path(path));
        f.component = st.pool.intern(component);
        f.architecture = st.pool.intern(arch);
        f.language = st.pool.intern(lang);
        f.site = st.pool.intern(site);
        f.description = st.pool.intern(description);
        f.release = release < st.releases.size() ? release : kNone;
        struct stat sb {};
        if (::stat(path.c_str(), &sb) == 0) {
            f.size = uint64_t(sb.st_size);
            f.mtime_ns = int64_t(sb.st_mtim.tv_sec) * 1000000000 + sb.st_mtim.tv_nsec;
        }
        st.index_files.push_back(f);
        return uint32_t(st.index_files.size() - 1);
    };
    std::vector<uint32_t> ids;
    for (const IndexInput& i : in.indices)
        ids.push_back(add_index(i.path, i.kind, i.release, i.component, i.architecture, i.language, i.site,
                                i.description, i.trusted, i.from_command_line));

    auto with_file = [](const std::string& path, auto fn) { with_index_text(path, fn); };
    PreparedChunks chunks;
    for (size_t k = 0; k < in.indices.size(); ++k) {
        const IndexInput& i = in.indices[k];
        if (i.kind != IndexKind::Packages) continue;
        StringId arch = st.pool.intern(i.architecture.empty() ? in.native_architecture : i.architecture);
        TagProblems problems(i.path);
        with_file(i.path, [&](IndexText& text) {
            for_each_prepared(text, i.path, chunks, problems,
                              [&](const detail::PreparedStanza& s, const detail::PreparedStanza* next) {
                                  if (next != nullptr) detail::prefetch_binary_stanza(st, *next);
                                  detail::add_binary_stanza(st, s, ids[k], arch, false, i.path);
                              });
        });
        problems.report(st.diagnostics);
    }
    translations.start(in, ids);
    if (!in.status_path.empty() && path_exists(in.status_path)) {
        uint32_t id = add_index(in.status_path, IndexKind::Status, kNone, "", "", "", "", "", false, false);
        TagProblems problems(in.status_path);
        with_file(in.status_path, [&](IndexText& text) {
            detail::PreparedStanza prepared;
            std::vector<detail::PreparedStanza::Relation> relations;
            detail::for_each_stanza(text, in.status_path, problems, [&](const deb::Stanza& s, const TextPiece& piece) {
                relations.clear();
                detail::prepare_binary_stanza(s, piece, st.relations, relations, prepared);
                prepared.relations = relations.data();
                detail::add_binary_stanza(st, prepared, id, st.native_arch, true, in.status_path);
            });
        });
        problems.report(st.diagnostics);
    }
    if (!in.extended_states_path.empty() && path_exists(in.extended_states_path)) {
        with_file(in.extended_states_path, [&](IndexText& text) {
            std::string buffer;
            detail::apply_extended_states(st, text.read(0, text.size(), buffer), in.extended_states_path);
        });
    }
    for (size_t k = 0; k < in.indices.size(); ++k) {
        const IndexInput& i = in.indices[k];
        if (i.kind != IndexKind::Sources) continue;
        TagProblems problems(i.path);
        with_file(i.path, [&](IndexText& text) {
            detail::for_each_stanza(text, i.path, problems, [&](const deb::Stanza& s, const TextPiece& piece) {
                detail::add_source_stanza(st, s, piece, ids[k]);
            });
        });
        problems.report(st.diagnostics);
    }
    const bool replacing = std::any_of(in.indices.begin(), in.indices.end(),
                                       [](const IndexInput& i) { return i.replaces_packages_description; });
    if (!translations.deferred() || replacing || detail::needs_translated_short_descriptions(st)) {
        detail::resolve_descriptions(st, translations.wait(st));
        translations.finish();
    }
    // Interning and lookups by name are over: lay_out only reads the pool.
    st.pool.drop_table();
    st.name_of_string = {};
    if (!translations.deferred()) st.version_md5 = {};
    detail::release_unused(st.versions);
    detail::release_unused(st.dependencies);
    detail::release_unused(st.provides);
    detail::release_unused(st.files);
    detail::release_unused(st.packages);
    detail::release_unused(st.next_version);
    detail::release_unused(st.next_package_of_name);
    // The reading threads' malloc arenas keep what they freed (stanza
    // batches, the translation table's growth): hand it back before the
    // layout's peak.
    ::malloc_trim(0);
}

// The layout's hook that matches the long descriptions when the Translation
// files are still being read (none otherwise).
detail::LayoutHooks description_hook(detail::BuildState& st, TranslationReader& translations) {
    detail::LayoutHooks hooks;
    if (translations.deferred())
        hooks.descriptions = [&](detail::HugeVector<Version>& versions, const detail::HugeVector<uint32_t>& new_index) {
            detail::resolve_long_descriptions(st, translations.wait(st), versions, new_index);
            translations.finish();
            st.version_md5 = {};
        };
    return hooks;
}

// A failure to write the cache file (not to build it): the caller goes on
// with a cache in memory.
struct CacheFileError {
    Error error;
    int err = 0;  // errno of the failed call
};

// Lays out `st` into `img` and writes it to `path`, streaming the sections
// from where they are rather than from one copy of the whole image; the pool
// is written on a second thread while the rest is laid out. Readers never see
// a half-written file (temp file, then rename). Unlike state files it is not
// fsynced: the cache is derived data, and a file a crash left incomplete
// fails the size and checksum check on open and is rebuilt, so durability
// would buy nothing for the 50 ms a sync of 60 MB costs. On a failure to
// write, the temp file is removed and CacheFileError thrown; `img` is then
// complete but for its checksum, unless img.sections_dropped. An error of the
// build itself (a Translation file read during the layout) is thrown as is,
// the temp file removed too.
// The temp name is unique per writer: several readers that find the cache
// stale at once each build one, and with a shared name they truncated and
// wrote the same file, so one renamed another's half-written file into place.
// Each writer holds an flock on its temp file while it writes, so that the
// temp file of a writer killed mid-way can be told apart and removed
// (remove_abandoned_temps).
void lay_out_and_write(detail::BuildState& st, std::string_view stamp, detail::Image& img, const std::string& path,
                       TranslationReader& translations) {
    detail::LayoutHooks hooks = description_hook(st, translations);
    std::string tmp = path + ".aptus-new.XXXXXX";
    int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
    if (fd >= 0 && (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::fchmod(fd, 0644) != 0)) {
        int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        detail::lay_out(st, stamp, img, hooks);
        throw CacheFileError{system_error("Could not create", tmp, err), err};
    }
    if (fd < 0) {
        int err = errno;
        detail::lay_out(st, stamp, img, hooks);
        throw CacheFileError{system_error("Could not create", tmp, err), err};
    }
    auto fail = [&](const char* what, int err) {
        if (fd >= 0) ::close(fd);
        ::unlink(tmp.c_str());
        throw CacheFileError{system_error(what, tmp, err), err};
    };
    // The sections are written on a second thread as the layout completes
    // them (in file order), so that writing overlaps the layout.
    std::optional<detail::StreamChecksum> sum;
    int write_err = 0;
    try {
        std::mutex m;
        std::condition_variable cv;
        uint32_t ready = 0;
        bool layout_over = false;
        // A big section both written and no longer read by the layout has
        // its pages handed back: the peak of the build is at the layout's end.
        bool written[kSectionCount] = {}, unneeded[kSectionCount] = {};
        auto drop = [&](uint32_t i) {  // with m held
            img.sections_dropped = true;
            detail::drop_pages(img.sections[i].data, img.sections[i].count * img.sections[i].elem);
        };
        hooks.done_with = [&](SectionId id) {
            auto i = uint32_t(id);
            std::lock_guard lock(m);
            unneeded[i] = true;
            if (written[i]) drop(i);
        };
        std::jthread writer;
        hooks.sections_ready = [&](const detail::Image& planned, uint32_t count) {
            if (!writer.joinable()) {
                sum.emplace(planned.checksum_start());
                writer = std::jthread([&] {
                    name_thread("aptus-write");
                    for (uint32_t done = 0; done < kSectionCount;) {
                        uint32_t upto = 0;
                        {
                            std::unique_lock lock(m);
                            cv.wait(lock, [&] { return ready > done || layout_over; });
                            upto = ready;
                        }
                        if (upto == done) return;  // the layout failed
                        if (write_err == 0) write_err = planned.write_range(fd, done, upto, *sum);
                        {
                            std::lock_guard lock(m);
                            for (uint32_t k = done; k < upto; ++k) {
                                auto i = uint32_t(detail::kFileOrder[k]);
                                written[i] = write_err == 0;
                                if (written[i] && unneeded[i]) drop(i);
                            }
                        }
                        done = upto;
                    }
                });
            }
            {
                std::lock_guard lock(m);
                ready = count;
            }
            cv.notify_one();
        };
        struct OverOnExit {
            std::mutex& m;
            std::condition_variable& cv;
            bool& over;
            ~OverOnExit() {
                {
                    std::lock_guard lock(m);
                    over = true;
                }
                cv.notify_one();
            }
        } over_on_exit{m, cv, layout_over};
        detail::lay_out(st, stamp, img, hooks);
    } catch (...) {
        // The writer is stopped and joined by now (over_on_exit, declared
        // after it, told it first).
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    if (write_err) fail("Could not write", write_err);
    if (::ftruncate(fd, off_t(img.header.file_size)) != 0) fail("Could not write", errno);
    img.header.checksum = sum->finish();
    if (int err = img.write_header(fd)) fail("Could not write", err);
    int rc = ::close(fd);
    fd = -1;
    if (rc != 0) fail("Could not close", errno);
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        throw CacheFileError{system_error("Could not rename into place", path, err), err};
    }
    remove_abandoned_temps(path);
}

}  // namespace

BuildResult build_cache(const CacheInputs& in) {
    std::string stamp = compute_stamp(in);  // before reading: a change during the build shows next time
    detail::BuildState st;
    TranslationReader translations(false);
    read_inputs(in, st, translations);
    BuildResult out;
    detail::Image img;
    detail::lay_out(st, stamp, img);
    img.set_checksum();
    out.image = img.to_string();
    out.diagnostics = std::move(st.diagnostics);
    return out;
}

OpenResult open_or_build(const CacheInputs& inputs, const std::string& cache_path) {
    std::string reason;
    if (path_exists(cache_path)) {
        try {
            Cache c = Cache::open(cache_path);
            if (is_up_to_date(c, inputs)) {
                Diagnostics diagnostics = c.build_diagnostics();
                return {std::move(c), CacheOrigin::Reused, "", std::move(diagnostics)};
            }
            reason = "inputs changed";
        } catch (const Error& e) {
            reason = e.what();
        }
    } else {
        reason = "no cache file";
    }
    std::string stamp = compute_stamp(inputs);  // before reading: a change during the build shows next time
    Diagnostics diagnostics;
    std::string image;  // only when the file could not be written
    uint64_t written_checksum = 0;
    {
        // The sections go straight from the build's arrays to the file: no
        // copy of the whole image, and all of it is freed before the mapping.
        detail::BuildState st;
        TranslationReader translations(true);
        read_inputs(inputs, st, translations);
        detail::Image img;
        try {
            lay_out_and_write(st, stamp, img, cache_path, translations);
            written_checksum = img.header.checksum;
            diagnostics = std::move(st.diagnostics);
        } catch (const CacheFileError& failure) {
            const Error& e = failure.error;
            diagnostics = std::move(st.diagnostics);
            // A read-only or missing cache directory (a user without root, a
            // read-only image) must not stop read commands: use the image as
            // is, or build it again when written sections were dropped. A
            // directory that is not there is a choice (apt's clean leaves
            // Dir::Cache gone, an image without /var/cache): apt says nothing.
            if (failure.err != ENOENT)
                diagnostics.push_back({Level::Notice, std::string(e.what()) + "; using a cache in memory"});
            if (img.sections_dropped) {
                image = build_cache(inputs).image;
            } else {
                img.set_checksum();
                image = img.to_string();
            }
        }
    }
    if (!image.empty())
        return {Cache::from_image(std::move(image)), CacheOrigin::InMemory, std::move(reason), std::move(diagnostics)};
    try {
        auto cc = Cache::open_written(cache_path, written_checksum);
        return {std::move(cc), CacheOrigin::Rebuilt, std::move(reason), std::move(diagnostics)};
    } catch (const Error& e) {
        // Written, then unreadable: build again in memory.
        BuildResult built = build_cache(inputs);
        diagnostics.push_back({Level::Notice, std::string(e.what()) + "; using a cache in memory"});
        return {Cache::from_image(std::move(built.image)), CacheOrigin::InMemory, std::move(reason),
                std::move(diagnostics)};
    }
}

}  // namespace aptus::cache
