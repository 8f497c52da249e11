// An allocator for the builder's big arrays: large blocks come from mmap with
// transparent huge pages requested. A build touches ~200 MB of fresh memory;
// with 4 KiB pages that is ~50k page faults, which cost a third of the build
// on a virtual machine, and TLB misses slow every random access into the
// string table. Small blocks use malloc as usual.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace aptus::cache::detail {

template <class T>
struct HugeAllocator {
    using value_type = T;
    static constexpr size_t kThreshold = size_t{2} << 20;
    static constexpr size_t kHuge = size_t{2} << 20;
    static constexpr size_t kPopulated = size_t{128} << 10;

    HugeAllocator() = default;
    template <class U>
    HugeAllocator(const HugeAllocator<U>&) {}

    T* allocate(size_t n) {
        size_t bytes = n * sizeof(T);
        if (bytes < kPopulated) {
            void* p = std::malloc(bytes);
            if (p == nullptr) throw std::bad_alloc();
            return static_cast<T*>(p);
        }
        if (bytes < kThreshold) {
            // Below a huge page: small pages, all mapped in one call instead
            // of one fault per page (the layout's index maps are this size).
            void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
            if (p == MAP_FAILED) throw std::bad_alloc();
            return static_cast<T*>(p);
        }
        size_t len = (bytes + kHuge - 1) & ~(kHuge - 1);
        void* p = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        ::madvise(p, len, MADV_HUGEPAGE);
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t n) {
        size_t bytes = n * sizeof(T);
        if (bytes < kPopulated) {
            std::free(p);
            return;
        }
        if (bytes < kThreshold) {
            ::munmap(p, bytes);
            return;
        }
        ::munmap(p, (bytes + kHuge - 1) & ~(kHuge - 1));
    }
    template <class U>
    bool operator==(const HugeAllocator<U>&) const { return true; }
};

template <class T>
using HugeVector = std::vector<T, HugeAllocator<T>>;

// Hands back the memory of `v` past its size: a huge page is resident as a
// whole once touched, so each big array's last, partly used page would
// otherwise hold up to 2 MB of nothing at the build's peak. The elements
// stay; growing again later only faults fresh (zeroed) pages.
template <class T>
void release_unused(HugeVector<T>& v) {
    size_t reserved = v.capacity() * sizeof(T);
    if (reserved < HugeAllocator<T>::kThreshold) return;
    auto base = reinterpret_cast<uintptr_t>(v.data());
    uintptr_t used = (base + v.size() * sizeof(T) + 4095) & ~uintptr_t(4095);
    uintptr_t end = base + ((reserved + HugeAllocator<T>::kHuge - 1) & ~(HugeAllocator<T>::kHuge - 1));
    if (used < end) ::madvise(reinterpret_cast<void*>(used), end - used, MADV_DONTNEED);
}

// Hands back the whole pages inside [data, data + bytes) of a HugeVector's
// block that nothing will read again: they read as zeros afterwards. Blocks
// below the threshold come from malloc and are left alone.
inline void drop_pages(const void* data, size_t bytes) {
    if (bytes < HugeAllocator<char>::kThreshold) return;
    auto begin = (reinterpret_cast<uintptr_t>(data) + 4095) & ~uintptr_t(4095);
    auto end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~uintptr_t(4095);
    if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace aptus::cache::detail
